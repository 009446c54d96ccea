import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { loginPath } from '../../auth/loginReturn';
import { useSession } from '../../auth/useSession';
import { useNotify } from '../../components/useNotify';
import {
  connectNeedsSetup,
  detailAction,
  detailCategory,
  loadErrorMessage,
} from '../../features/detail/detailRules';
import { refusalOr } from '../../api/client';
import { useConnectorDetail, useMyInstances, useRemoveInstance } from '../../api/connectors';
import { ConnectorSetupPanel } from '../ConnectorSetup/ConnectorSetupPanel';
import { ConnectDialog } from './ConnectDialog';
import { DetailSkeleton } from './DatasetDetail';
import { DetailMessage } from './DetailMessage';
import { DetailFacts } from './DetailFacts';
import { DetailHero } from './DetailHero';
import { PendingConfirmDialog } from '../../components/PendingConfirmDialog';
import { removeConnectorConfirmation } from '../../features/manage/confirmTexts';

/** /connector_profile/{id}: details, Connect or Remove, and the setup once connected. */
export function ConnectorDetail({ id }: { id: string }) {
  const { status } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const notify = useNotify();
  const connector = useConnectorDetail(id);
  const instances = useMyInstances(status === 'in');
  const removeInstance = useRemoveInstance();
  const [connecting, setConnecting] = useState(false);
  const [confirmingRemoval, setConfirmingRemoval] = useState(false);

  if (connector.isPending || (status === 'in' && instances.isPending)) return <DetailSkeleton />;
  if (connector.error) return <DetailMessage text={loadErrorMessage(connector.error)} />;

  const data = connector.data;
  const instance = instances.data?.find((candidate) => candidate.connector_id === id);
  const action = detailAction({ kind: 'connector', hasAccess: !!instance, price: data.price });

  const onAction = () => {
    if (status !== 'in') navigate(loginPath(location));
    else if (instance) setConfirmingRemoval(true);
    else if (connectNeedsSetup(data.schema?.fields)) navigate(`/connector-setup/${id}`);
    else setConnecting(true);
  };

  const removeConfirmed = () => {
    setConfirmingRemoval(false);
    if (!instance) return;
    removeInstance.mutate(instance.id, {
      onSuccess: () => notify('Connector removed.', 'success'),
      // A connection feeding a published dataset is refused with the dataset's name: show it.
      onError: (error) => notify(refusalOr(error, 'Failed to remove connector'), 'error'),
    });
  };

  return (
    <>
      <PendingConfirmDialog
        confirmation={confirmingRemoval && instance ? removeConnectorConfirmation(instance.title) : null}
        onConfirm={removeConfirmed}
        onCancel={() => setConfirmingRemoval(false)}
      />
      <DetailHero
        title={data.title}
        isConnector
        isPrivate={!data.is_public}
        action={action}
        ownConnector={!!data.owned}
        busy={removeInstance.isPending}
        onAction={onAction}
      />
      <Container maxWidth="lg" sx={{ py: { xs: 3, md: 4 } }}>
        <Stack spacing={3}>
          <DetailFacts
            subscribers={data.subscriber_count}
            category={detailCategory('connector', data.category)}
            source={data.source}
            author={data.author}
            description={data.description}
            price={data.price}
          />
          {instance ? (
            <ConnectorSetupPanel key={instance.id} connector={data} instance={instance} />
          ) : (
            <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
              <Typography variant="h5" component="h2" gutterBottom>
                Connect to pull data
              </Typography>
              <Typography color="text.secondary">
                Connect this API to fill your own table with its data. You can then adjust the settings, run
                it now or on a schedule, and stream the rows to your BI tool.
              </Typography>
            </Paper>
          )}
        </Stack>
      </Container>
      <ConnectDialog connector={connecting ? data : null} onClose={() => setConnecting(false)} />
    </>
  );
}
