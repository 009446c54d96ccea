import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { AssetDetail, useAssetActivity } from '../../../api/assets';
import { liveOf } from '../../../api/liveProducts';
import { UnpublishDialog } from '../live/UnpublishDialog';
import { useEditableOrganisations } from '../../../api/organisations';
import { ActivityChart } from './ActivityChart';
import { MoveDatasetDialog } from './MoveDatasetDialog';
import { DeleteDatasetDialog } from './DeleteDatasetDialog';
import { EditDatasetDialog } from './EditDatasetDialog';
import { RefreshDatasetDialog } from './RefreshDatasetDialog';

/**
 * The owner's panel on their dataset's page: edit, refresh, delete, and how the dataset is used. A
 * live dataset is refreshed by its connection and unpublished rather than deleted.
 */
export function OwnerPanel({ asset }: { asset: AssetDetail }) {
  const [dialog, setDialog] = useState<'edit' | 'refresh' | 'delete' | 'unpublish' | 'move' | null>(null);
  // Only a personal dataset moves, into an organisation its owner edits for.
  const editable = useEditableOrganisations(asset.organisation === null);
  const movable = asset.organisation === null && editable.length > 0;
  const isLive = !!liveOf(asset);
  const activity = useAssetActivity(asset.id, true);
  const navigate = useNavigate();
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="owner-heading"
      sx={{ p: { xs: 2, md: 3 } }}
    >
      <Typography id="owner-heading" variant="h5" component="h2" gutterBottom>
        Your dataset
      </Typography>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1, mb: 3 }}>
        <Button variant="contained" onClick={() => setDialog('edit')}>
          Edit
        </Button>
        {isLive ? (
          <Button variant="outlined" color="error" onClick={() => setDialog('unpublish')}>
            Unpublish
          </Button>
        ) : (
          <>
            <Button variant="outlined" onClick={() => setDialog('refresh')}>
              Refresh data
            </Button>
            <Button variant="outlined" color="error" onClick={() => setDialog('delete')}>
              Delete
            </Button>
          </>
        )}
        {movable && (
          <Button variant="outlined" onClick={() => setDialog('move')}>
            Move to organisation
          </Button>
        )}
      </Stack>
      <Typography component="h3" variant="h6" gutterBottom>
        Activity
      </Typography>
      {activity.data ? (
        <ActivityChart activity={activity.data} />
      ) : activity.error ? (
        <Typography color="text.secondary">The activity could not be loaded.</Typography>
      ) : (
        <Skeleton variant="rounded" height={180} />
      )}
      <EditDatasetDialog id={asset.id} open={dialog === 'edit'} onClose={() => setDialog(null)} />
      <RefreshDatasetDialog
        id={asset.id}
        title={asset.title}
        open={dialog === 'refresh'}
        onClose={() => setDialog(null)}
      />
      <DeleteDatasetDialog
        dataset={dialog === 'delete' ? asset : null}
        onClose={() => setDialog(null)}
        onDeleted={() => navigate('/manage')}
      />
      <UnpublishDialog
        dataset={dialog === 'unpublish' ? asset : null}
        onClose={() => setDialog(null)}
        onDone={() => navigate('/manage')}
      />
      {movable && (
        <MoveDatasetDialog
          open={dialog === 'move'}
          assetId={asset.id}
          organisations={editable}
          onClose={() => setDialog(null)}
        />
      )}
    </Paper>
  );
}
