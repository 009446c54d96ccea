import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useSession } from '../../auth/useSession';
import { useNotify } from '../../components/useNotify';
import { useGenerateApiKey } from '../../api/users';
import { PendingConfirmDialog } from '../../components/PendingConfirmDialog';
import { NEW_KEY_CONFIRMATION } from '../../features/manage/confirmTexts';
import { datasetStreamUrl, generalStreamUrl, type StreamFormat } from '../../api/stream';
import { CopyLink, useCopy } from './CopyLink';
import { odataFeedUrl } from './odataFeedUrl';
import { TableName } from './TableName';
import type { ManageData } from './useManageData';

const KEY_PLACEHOLDER = 'YOUR_API_KEY';

/** Streaming to Power BI (or any tool that reads a URL): the API key, the steps and the links. */
export function StreamTab({ data }: { data: ManageData }) {
  const { user } = useSession();
  const notify = useNotify();
  const copy = useCopy();
  const generate = useGenerateApiKey();
  const apiKey = user?.api_key ?? '';
  const keyInLinks = apiKey || KEY_PLACEHOLDER;
  const [confirming, setConfirming] = useState(false);

  const newKey = () =>
    generate.mutate(user?.email ?? '', {
      onSuccess: () => {
        notify('API Key generated!', 'success');
      },
      onError: () => notify('Failed to generate API key', 'error'),
    });

  return (
    <Stack spacing={4}>
      <section aria-labelledby="stream-heading">
        <Typography id="stream-heading" variant="h5" component="h2" gutterBottom>
          Stream your data to Power BI
        </Typography>
        <Typography color="text.secondary">
          Every dataset you hold can be read by Power BI, Excel or any tool that loads data from a web
          address. The link carries your personal API key, so keep it to yourself.
        </Typography>
      </section>
      <section aria-labelledby="api-key-heading">
        <Typography id="api-key-heading" variant="h6" component="h3" gutterBottom>
          Your API key
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
          <Box
            component="code"
            aria-label="API key"
            sx={{
              fontFamily: 'monospace',
              bgcolor: 'grey.100',
              borderRadius: 1,
              px: 1.5,
              py: 1,
              overflowWrap: 'anywhere',
              flex: 1,
            }}
          >
            {apiKey || 'No API key yet. Generate one to stream.'}
          </Box>
          <Button variant="outlined" disabled={!apiKey} onClick={() => copy(apiKey, 'API key')}>
            Copy Key
          </Button>
          {/* Replacing a key breaks every link that uses it: ask first; the first key needs no asking. */}
          <Button
            variant="contained"
            disabled={generate.isPending}
            onClick={() => (apiKey ? setConfirming(true) : newKey())}
          >
            Generate New Key
          </Button>
        </Stack>
        {apiKey && (
          <Typography variant="caption" color="text.secondary">
            Generating a new key stops links that use the old one.
          </Typography>
        )}
        <PendingConfirmDialog
          confirmation={confirming ? NEW_KEY_CONFIRMATION : null}
          onConfirm={() => {
            setConfirming(false);
            newKey();
          }}
          onCancel={() => setConfirming(false)}
        />
      </section>
      <section aria-labelledby="steps-heading">
        <Typography id="steps-heading" variant="h6" component="h3" gutterBottom>
          Steps
        </Typography>
        <Box component="ol" sx={{ pl: 3, m: 0, '& li': { mb: 1 } }}>
          <li>
            {apiKey
              ? 'Copy one of the links below (it already contains your API key).'
              : 'Generate your API key above, then copy one of the links below (they carry the key).'}
          </li>
          <li>In Power BI Desktop choose Get Data, then Web.</li>
          <li>Paste the link as the URL and confirm with OK; choose Anonymous access if asked.</li>
          <li>Power BI reads the JSON (or CSV) rows; shape them in Power Query and Load.</li>
          <li>Use Refresh in Power BI whenever you want the latest data.</li>
        </Box>
        <Typography variant="body2" sx={{ mt: 1 }}>
          <Link component={RouterLink} to="/documentation/streaming">
            Full guide: Power BI incremental refresh, Excel, Tableau, JSON Lines and row filters
          </Link>
        </Typography>
      </section>
      <section aria-labelledby="general-link-heading">
        <Typography id="general-link-heading" variant="h6" component="h3" gutterBottom>
          General stream link
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Rows from all your datasets, up to 5000 rows.
        </Typography>
        <CopyLink label="general stream link" url={generalStreamUrl(keyInLinks)} />
      </section>
      <section aria-labelledby="odata-feed-heading">
        <Typography id="odata-feed-heading" variant="h6" component="h3" gutterBottom>
          OData feed
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          For large datasets: Power BI, Excel and Tableau read this feed page by page and send their filters
          along. Choose OData feed and the Web API credential with your key (parameter name api_key).
        </Typography>
        <CopyLink label="OData feed link" url={odataFeedUrl()} />
      </section>
      <section aria-labelledby="dataset-links-heading">
        <Typography id="dataset-links-heading" variant="h6" component="h3" gutterBottom>
          Links per dataset
        </Typography>
        {data.datasets.length === 0 ? (
          <Typography color="text.secondary">No datasets available yet.</Typography>
        ) : (
          <Stack spacing={2.5}>
            {data.datasets.map((asset) => (
              <Box key={asset.id}>
                <Typography sx={{ fontWeight: 600, mb: 0.5 }}>{asset.title}</Typography>
                <Stack spacing={1}>
                  <TableName name={asset.readable_name} subject={asset.title} />
                  <TableLinks
                    label={asset.title}
                    urlFor={(format) => datasetStreamUrl(asset.readable_name, keyInLinks, format)}
                  />
                </Stack>
              </Box>
            ))}
          </Stack>
        )}
      </section>
      {data.instances.length > 0 && (
        <section aria-labelledby="connector-links-heading">
          <Typography id="connector-links-heading" variant="h6" component="h3" gutterBottom>
            Links per connector
          </Typography>
          <Stack spacing={2.5}>
            {data.instances.map((instance) => (
              <Box key={instance.id}>
                <Typography sx={{ fontWeight: 600, mb: 0.5 }}>{instance.title}</Typography>
                <Stack spacing={1}>
                  {(instance.tables?.length ?? 0) > 1 && (
                    <Typography variant="body2" color="text.secondary">
                      Stream {instance.tables[0].operation_id}
                    </Typography>
                  )}
                  <TableName name={instance.readable_name} subject={instance.title} />
                  <TableLinks
                    label={instance.title}
                    urlFor={(format) => datasetStreamUrl(instance.readable_name, keyInLinks, format)}
                  />
                  {(instance.tables ?? []).slice(1).map((table) => (
                    <Stack key={table.readable_name} spacing={1}>
                      <Typography variant="body2" color="text.secondary">
                        Stream {table.operation_id}
                      </Typography>
                      <TableName
                        name={table.readable_name}
                        subject={`${instance.title} ${table.operation_id}`}
                      />
                      <TableLinks
                        label={`${instance.title} ${table.operation_id}`}
                        urlFor={(format) => datasetStreamUrl(table.readable_name, keyInLinks, format)}
                      />
                    </Stack>
                  ))}
                </Stack>
              </Box>
            ))}
          </Stack>
        </section>
      )}
    </Stack>
  );
}

/** One table's JSON, CSV and Parquet links (labelled "<label> JSON link", …). */
function TableLinks({ label, urlFor }: { label: string; urlFor: (format: StreamFormat) => string }) {
  return (
    <>
      <CopyLink label={`${label} JSON link`} url={urlFor('json')} />
      <CopyLink label={`${label} CSV link`} url={urlFor('csv')} />
      <CopyLink label={`${label} Parquet link`} url={urlFor('parquet')} />
    </>
  );
}
