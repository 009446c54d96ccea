import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import LinearProgress from '@mui/material/LinearProgress';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { CatalogFilters } from '../../features/datastore/catalogFilters';
import { filtersFromParams, filtersToParams } from '../../features/datastore/filtersInUrl';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { ConnectDialog } from '../Detail/ConnectDialog';
import { PendingConfirmDialog } from '../../components/PendingConfirmDialog';
import { GetDialog } from './GetDialog';
import { BuyDialog } from './BuyDialog';
import { CatalogCard } from './CatalogCard';
import { CatalogFilterBar } from './CatalogFilterBar';
import { PAGE_SIZE, useCatalog } from './useCatalog';
import { useCardActions } from './useCardActions';

const GRID = {
  display: 'grid',
  gap: 2,
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 260px), 1fr))',
};

export function DataStorePage() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const { filters, page } = filtersFromParams(params);
  const [searchText, setSearchText] = useState(filters.search);
  const settledSearch = useDebouncedValue(searchText);
  const catalog = useCatalog(filters, page);
  const actions = useCardActions();

  const show = (next: CatalogFilters, nextPage = 1) =>
    setParams(filtersToParams(next, nextPage), { replace: true });

  // The typed search reaches the address (and the server) once typing pauses, unless the user has
  // followed a link meanwhile: this page stays on screen while the next one loads, and writing the
  // search then would take them back here.
  useEffect(() => {
    if (window.location.pathname !== location.pathname) return;
    if (settledSearch !== filters.search) show({ ...filters, search: settledSearch });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a settled search should trigger this
  }, [settledSearch]);

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
      <Typography variant="h2" component="h1" gutterBottom>
        DataStore
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Datasets and API connectors: get, buy or connect them, then use them in your own tools.
      </Typography>
      <CatalogFilterBar
        searchText={searchText}
        onSearchText={setSearchText}
        filters={filters}
        categories={catalog.categories}
        counts={catalog.counts}
        onChange={(next) => show(next)}
      />
      <Box sx={{ height: 4, mb: 2 }}>
        {catalog.fetching && !catalog.loading && <LinearProgress aria-label="Updating results" />}
      </Box>
      {catalog.failed ? (
        <Alert severity="error">Failed to load data.</Alert>
      ) : catalog.loading ? (
        <Box sx={GRID} aria-busy="true" aria-label="Loading catalogue">
          {Array.from({ length: 8 }, (_, index) => (
            <Skeleton key={index} variant="rounded" height={280} />
          ))}
        </Box>
      ) : catalog.items.length === 0 ? (
        <Typography sx={{ py: 6, textAlign: 'center' }} color="text.secondary">
          No results found.
        </Typography>
      ) : (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} aria-live="polite">
            {catalog.total} {catalog.total === 1 ? 'result' : 'results'}
          </Typography>
          <Box component="section" aria-label="Results" sx={GRID}>
            {catalog.items.map((item) => (
              <CatalogCard
                key={`${item.kind}-${item.id}`}
                item={item}
                busy={actions.busyId === item.id}
                onAction={actions.run}
              />
            ))}
          </Box>
          {catalog.pages > 1 && (
            <Pagination
              sx={{ mt: 4, display: 'flex', justifyContent: 'center' }}
              count={catalog.pages}
              page={Math.min(page, catalog.pages)}
              onChange={(_event, next) => show(filters, next)}
              siblingCount={0}
              aria-label={`Catalogue pages, ${PAGE_SIZE} per page`}
            />
          )}
        </>
      )}
      <BuyDialog
        item={actions.buying}
        organisations={actions.organisations}
        onConfirm={actions.confirmBuy}
        onCancel={actions.cancelBuy}
      />
      <GetDialog
        item={actions.getting}
        organisations={actions.organisations}
        onConfirm={actions.confirmGet}
        onCancel={actions.cancelGet}
      />
      <PendingConfirmDialog
        confirmation={actions.removeConfirmation}
        onConfirm={actions.confirmRemove}
        onCancel={actions.cancelRemove}
      />
      <ConnectDialog
        connector={
          actions.connecting && { ...actions.connecting, auth_fields: actions.connecting.authFields }
        }
        onClose={actions.closeConnect}
      />
    </Container>
  );
}
