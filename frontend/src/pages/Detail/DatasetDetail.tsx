import Container from '@mui/material/Container';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { detailAction, detailCategory, loadErrorMessage } from '../../features/detail/detailRules';
import { useAssetDetail } from '../../api/assets';
import { liveOf } from '../../api/liveProducts';
import { priceNote } from '../../features/datastore/catalogItem';
import { assetToItem } from '../../features/datastore/toCatalogItems';
import { PendingConfirmDialog } from '../../components/PendingConfirmDialog';
import { GetDialog } from '../DataStore/GetDialog';
import { BuyDialog } from '../DataStore/BuyDialog';
import { useCardActions } from '../DataStore/useCardActions';
import { CheckoutReturnNotice } from './CheckoutReturnNotice';
import { FullData, SamplePreview } from './DatasetRows';
import { DatasetOwner } from './DatasetOwner';
import { DetailFacts } from './DetailFacts';
import { DatasetProduct } from './DatasetProduct';
import { DetailHero } from './DetailHero';
import { DetailMessage } from './DetailMessage';
import { HolderLinks } from './HolderLinks';
import { LivePanel } from './live/LivePanel';
import { SchemaChangePanel } from './live/SchemaChangePanel';
import { OwnerPanel } from './owner/OwnerPanel';

export function DatasetDetail({ id }: { id: string }) {
  const asset = useAssetDetail(id);
  const actions = useCardActions();

  if (asset.isPending) return <DetailSkeleton />;
  if (asset.error) return <DetailMessage text={loadErrorMessage(asset.error)} />;

  const item = assetToItem(asset.data);
  const live = liveOf(asset.data);
  const action = detailAction({
    kind: 'dataset',
    hasAccess: item.hasAccess,
    price: item.price,
    owned: item.owned,
    bought: item.bought,
  });
  return (
    <>
      <DetailHero
        title={item.title}
        isConnector={false}
        isPrivate={item.isPrivate}
        isLive={!!live}
        action={action}
        busy={actions.busyId === item.id}
        onAction={() => action && actions.run(item, action)}
      />
      <CheckoutReturnNotice assetId={item.id} hasAccess={item.hasAccess} />
      <Container maxWidth="lg" sx={{ py: { xs: 3, md: 4 } }}>
        <Stack spacing={3}>
          {live?.pending_schema_change && (
            <SchemaChangePanel assetId={id} change={live.pending_schema_change} />
          )}
          <DetailFacts
            subscribers={asset.data.subscriber_count}
            category={detailCategory('dataset', asset.data.category)}
            source={asset.data.source}
            author={asset.data.author}
            description={asset.data.description}
            price={asset.data.price}
            priceNote={priceNote(item)}
            owner={<DatasetOwner organisation={asset.data.organisation} />}
          />
          {live && <LivePanel live={live} />}
          <DatasetProduct asset={asset.data} newColumns={live?.new_columns ?? []} />
          {asset.data.owned && <OwnerPanel asset={asset.data} />}
          {item.hasAccess && <HolderLinks assetId={id} tableName={asset.data.readable_name} />}
          {item.hasAccess ? (
            <FullData assetId={id} columns={asset.data.columns} />
          ) : (
            <SamplePreview assetId={id} />
          )}
        </Stack>
      </Container>
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
    </>
  );
}

export function DetailSkeleton() {
  return (
    <Container maxWidth="lg" sx={{ py: 4 }} aria-busy="true" aria-label="Loading">
      <Skeleton variant="rounded" height={160} sx={{ mb: 3 }} />
      <Skeleton variant="rounded" height={220} />
    </Container>
  );
}
