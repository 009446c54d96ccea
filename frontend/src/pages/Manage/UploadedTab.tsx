import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useNotify } from '../../components/useNotify';
import { COMING_SOON } from '../../features/manage/manageRules';
import { ItemList, ItemRow } from './ItemRow';
import type { ManageData } from './useManageData';

/** The user's own datasets and connectors; Edit and Remove only say 'coming soon' for now. */
export function UploadedTab({ data }: { data: ManageData }) {
  const notify = useNotify();
  const items = [
    ...data.ownDatasets.map((asset) => ({
      key: `d-${asset.id}`,
      title: asset.title,
      to: `/dataset_profile/${asset.id}`,
      kind: 'Dataset',
    })),
    ...data.ownConnectors.map((connector) => ({
      key: `c-${connector.id}`,
      title: connector.title,
      to: `/connector_profile/${connector.id}`,
      kind: 'API',
    })),
  ];
  if (data.uploadsPending) return <CircularProgress size={24} aria-label="Loading uploads" />;
  if (items.length === 0) return <Typography color="text.secondary">No datasets found.</Typography>;
  return (
    <ItemList label="Uploaded data">
      {items.map((item) => (
        <ItemRow key={item.key} title={item.title} to={item.to} chips={[item.kind]}>
          <Button size="small" onClick={() => notify(COMING_SOON, 'info')} aria-label={`Edit ${item.title}`}>
            Edit
          </Button>
          <Button
            size="small"
            color="error"
            onClick={() => notify(COMING_SOON, 'info')}
            aria-label={`Remove ${item.title}`}
          >
            Remove
          </Button>
        </ItemRow>
      ))}
    </ItemList>
  );
}
