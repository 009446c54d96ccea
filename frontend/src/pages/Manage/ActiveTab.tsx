import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useNotify } from '../../components/useNotify';
import { useAccessChange } from '../../api/access';
import { refusalOr } from '../../api/client';
import { useRefreshInstance, useRemoveInstance } from '../../api/connectors';
import {
  Confirmation,
  removeAccessConfirmation,
  removeConnectorConfirmation,
} from '../../features/manage/confirmTexts';
import { COMING_SOON, refreshedMessage } from '../../features/manage/manageRules';
import { PendingConfirmDialog } from '../../components/PendingConfirmDialog';
import { PublishTableButton } from '../Products/PublishTableButton';
import { ItemList, ItemRow } from './ItemRow';
import type { ManageData } from './useManageData';

export function ActiveTab({ data }: { data: ManageData }) {
  const notify = useNotify();
  const refresh = useRefreshInstance();
  const removeInstance = useRemoveInstance();
  const access = useAccessChange();
  const [busy, setBusy] = useState<string | null>(null);
  const [pending, setPending] = useState<{ confirmation: Confirmation; proceed: () => void } | null>(null);
  const done = () => setBusy(null);

  const refreshInstance = (id: string) => {
    setBusy(`refresh-${id}`);
    refresh.mutate(id, {
      onSuccess: (answer) =>
        notify(refreshedMessage(answer.rowCount, answer.warning), answer.warning ? 'warning' : 'success'),
      onError: (error) =>
        notify(`Refresh failed: ${refusalOr(error, 'the server could not be reached')}`, 'error'),
      onSettled: done,
    });
  };
  const remove = (id: string) => {
    setBusy(`remove-${id}`);
    removeInstance.mutate(id, {
      onSuccess: () => notify('Connector removed.', 'success'),
      // A connection feeding a published dataset is refused with the dataset's name: show it.
      onError: (error) => notify(refusalOr(error, 'Failed to remove connector'), 'error'),
      onSettled: done,
    });
  };
  const removeAccess = (id: string) => {
    setBusy(`access-${id}`);
    access.mutate(
      { assetId: id, grant: false },
      {
        onSuccess: () => notify('Access removed.', 'success'),
        onError: () => notify('Failed to remove access.', 'error'),
        onSettled: done,
      },
    );
  };

  return (
    <Stack spacing={4}>
      <section aria-labelledby="active-connectors-heading">
        <Typography id="active-connectors-heading" variant="h5" component="h2" gutterBottom>
          Active connectors
        </Typography>
        {data.instancesPending ? (
          <CircularProgress size={24} aria-label="Loading connectors" />
        ) : data.instances.length === 0 ? (
          <Typography color="text.secondary">No active connectors yet.</Typography>
        ) : (
          <ItemList label="Active connectors">
            {data.instances.map((instance) => (
              <ItemRow
                key={instance.id}
                title={instance.title}
                to={`/connector-setup/${instance.connector_id}`}
                chips={instance.visibility === 'private' ? ['Private'] : []}
              >
                <Button
                  size="small"
                  onClick={() => notify(COMING_SOON, 'info')}
                  aria-label={`Edit ${instance.title}`}
                >
                  Edit
                </Button>
                {(instance.tables ?? []).map((table) => (
                  <PublishTableButton
                    key={table.readable_name}
                    instance={instance}
                    table={table}
                    namesStream={instance.tables.length > 1}
                  />
                ))}
                <Button
                  size="small"
                  variant="outlined"
                  disabled={busy === `refresh-${instance.id}`}
                  onClick={() => refreshInstance(instance.id)}
                  aria-label={`Refresh ${instance.title}`}
                >
                  {busy === `refresh-${instance.id}` ? 'Refreshing…' : 'Refresh'}
                </Button>
                <Button
                  size="small"
                  color="error"
                  disabled={busy === `remove-${instance.id}`}
                  onClick={() =>
                    setPending({
                      confirmation: removeConnectorConfirmation(instance.title),
                      proceed: () => remove(instance.id),
                    })
                  }
                  aria-label={`Remove ${instance.title}`}
                >
                  Remove
                </Button>
              </ItemRow>
            ))}
          </ItemList>
        )}
      </section>
      <section aria-labelledby="accessible-datasets-heading">
        <Typography id="accessible-datasets-heading" variant="h5" component="h2" gutterBottom>
          Accessible datasets
        </Typography>
        {data.datasetsPending ? (
          <CircularProgress size={24} aria-label="Loading datasets" />
        ) : data.datasets.length === 0 ? (
          <Typography color="text.secondary">No accessible datasets yet.</Typography>
        ) : (
          <ItemList label="Accessible datasets">
            {data.datasets.map((asset) => (
              <ItemRow
                key={asset.id}
                title={asset.title}
                to={`/dataset_profile/${asset.id}`}
                chips={[
                  ...(asset.visibility === 'private' || !asset.is_public ? ['Private'] : []),
                  ...(asset.owned ? ['Yours'] : []),
                  ...(asset.live ? ['Live'] : []),
                ]}
              >
                {/* An owner's access comes with the dataset and cannot be removed on its own. */}
                {!asset.owned && (
                  <Button
                    size="small"
                    color="error"
                    disabled={busy === `access-${asset.id}`}
                    onClick={() => {
                      const confirmation = removeAccessConfirmation(asset);
                      if (confirmation) setPending({ confirmation, proceed: () => removeAccess(asset.id) });
                      else removeAccess(asset.id);
                    }}
                    aria-label={`Remove ${asset.title}`}
                  >
                    Remove
                  </Button>
                )}
              </ItemRow>
            ))}
          </ItemList>
        )}
      </section>
      <PendingConfirmDialog
        confirmation={pending?.confirmation ?? null}
        onConfirm={() => {
          pending?.proceed();
          setPending(null);
        }}
        onCancel={() => setPending(null)}
      />
    </Stack>
  );
}
