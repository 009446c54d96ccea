import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { AssetSummary } from '../../api/assets';
import { useDeleteConnector } from '../../api/connectors';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { deleteConnectorMessage } from '../../features/manage/confirmTexts';
import { useNotify } from '../../components/useNotify';
import { DeleteDatasetDialog } from '../Detail/owner/DeleteDatasetDialog';
import { EditDatasetDialog } from '../Detail/owner/EditDatasetDialog';
import { RefreshDatasetDialog } from '../Detail/owner/RefreshDatasetDialog';
import { ownerErrorText } from '../Detail/owner/ownerErrors';
import { ItemList, ItemRow } from './ItemRow';
import type { ManageData } from './useManageData';

type Asked =
  | { action: 'edit' | 'refresh' | 'delete'; dataset: AssetSummary }
  | { action: 'remove-connector'; connector: { id: string; title: string; other_connections: number | null } }
  | null;

/** The user's own datasets (Edit, Refresh, Remove) and connectors (Remove). */
export function UploadedTab({ data }: { data: ManageData }) {
  const notify = useNotify();
  const [asked, setAsked] = useState<Asked>(null);
  const removeConnector = useDeleteConnector();
  if (data.uploadsPending) return <CircularProgress size={24} aria-label="Loading uploads" />;
  // The dialogs stay mounted when the last item goes, so the deletion's notice still shows.
  const empty = data.ownDatasets.length + data.ownConnectors.length === 0;
  const close = () => setAsked(null);
  const dataset = asked && 'dataset' in asked ? asked.dataset : null;
  return (
    <>
      {empty && <Typography color="text.secondary">No datasets found.</Typography>}
      {!empty && (
        <ItemList label="Uploaded data">
          {data.ownDatasets.map((asset) => (
            <ItemRow
              key={`d-${asset.id}`}
              title={asset.title}
              to={`/dataset_profile/${asset.id}`}
              chips={['Dataset']}
            >
              <Button
                size="small"
                onClick={() => setAsked({ action: 'edit', dataset: asset })}
                aria-label={`Edit ${asset.title}`}
              >
                Edit
              </Button>
              <Button
                size="small"
                onClick={() => setAsked({ action: 'refresh', dataset: asset })}
                aria-label={`Refresh ${asset.title}`}
              >
                Refresh
              </Button>
              <Button
                size="small"
                color="error"
                onClick={() => setAsked({ action: 'delete', dataset: asset })}
                aria-label={`Remove ${asset.title}`}
              >
                Remove
              </Button>
            </ItemRow>
          ))}
          {data.ownConnectors.map((connector) => (
            <ItemRow
              key={`c-${connector.id}`}
              title={connector.title}
              to={`/connector_profile/${connector.id}`}
              chips={['API']}
            >
              <Button
                size="small"
                color="error"
                onClick={() => setAsked({ action: 'remove-connector', connector })}
                aria-label={`Remove ${connector.title}`}
              >
                Remove
              </Button>
            </ItemRow>
          ))}
        </ItemList>
      )}
      {dataset && (
        <>
          <EditDatasetDialog id={dataset.id} open={asked?.action === 'edit'} onClose={close} />
          <RefreshDatasetDialog
            id={dataset.id}
            title={dataset.title}
            open={asked?.action === 'refresh'}
            onClose={close}
          />
        </>
      )}
      <DeleteDatasetDialog dataset={asked?.action === 'delete' ? dataset : null} onClose={close} />
      <ConfirmDialog
        open={asked?.action === 'remove-connector'}
        title={`Delete “${asked && 'connector' in asked ? asked.connector.title : ''}”?`}
        message={deleteConnectorMessage(
          asked && 'connector' in asked ? (asked.connector.other_connections ?? 0) : 0,
        )}
        confirmLabel="Delete connector"
        destructive
        busy={removeConnector.isPending}
        onCancel={close}
        onConfirm={() => {
          if (!asked || !('connector' in asked)) return;
          removeConnector.mutate(asked.connector.id, {
            onSuccess: () => {
              notify('Connector deleted.', 'success');
              close();
            },
            onError: (error) => notify(ownerErrorText(error), 'error'),
          });
        }}
      />
    </>
  );
}
