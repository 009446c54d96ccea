import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { INVALID_CONNECTOR_ID, isValidId, loadErrorMessage } from '../../features/detail/detailRules';
import { useConnectorDetail, useMyInstances } from '../../api/connectors';
import { DetailMessage } from '../Detail/DetailMessage';
import { ConnectorSetupPanel } from './ConnectorSetupPanel';

/** /connector-setup/{id} (login required by the router): set up, connect, run. */
export function ConnectorSetupPage() {
  const { id } = useParams();
  if (!isValidId(id)) return <DetailMessage text={INVALID_CONNECTOR_ID} />;
  return <ConnectorSetup key={id} id={id} />;
}

function ConnectorSetup({ id }: { id: string }) {
  const connector = useConnectorDetail(id);
  const instances = useMyInstances(true);

  if (connector.isPending || instances.isPending) {
    return (
      <Container maxWidth="md" sx={{ py: 6 }}>
        <Typography role="status">Loading connector...</Typography>
      </Container>
    );
  }
  if (connector.error) return <DetailMessage text={loadErrorMessage(connector.error)} />;

  const instance = instances.data?.find((candidate) => candidate.connector_id === id);
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
      <Link
        component={RouterLink}
        to={`/connector_profile/${id}`}
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mb: 2 }}
      >
        <ArrowBackIcon fontSize="small" /> Back to {connector.data.title}
      </Link>
      <Typography variant="h2" component="h1" gutterBottom sx={{ overflowWrap: 'anywhere' }}>
        {connector.data.title}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {instance
          ? 'Connected. Adjust the settings, save them, or run now.'
          : 'Fill in the settings and save them to connect.'}
      </Typography>
      {/* Not keyed by instance: connecting on save must keep what the user typed. */}
      <ConnectorSetupPanel connector={connector.data} instance={instance} />
    </Container>
  );
}
