import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { PageLoading } from '../../app/PageLoading';
import { usePublicConfig } from '../../api/config';

export function ContactPage() {
  const { data, isPending, isError } = usePublicConfig();
  const formUrl = data?.contact_form_url;

  return (
    <Container maxWidth="md" sx={{ py: { xs: 5, md: 8 } }}>
      <Typography variant="h2" component="h1" gutterBottom>
        Contact us
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4 }}>
        Questions about a dataset, a connector or your account? Send us a message and we will get back to you.
      </Typography>
      {isPending ? (
        <PageLoading />
      ) : isError ? (
        <Alert severity="error">The contact form could not be loaded. Please try again later.</Alert>
      ) : formUrl ? (
        <Box
          component="iframe"
          src={formUrl}
          title="Contact form"
          loading="lazy"
          sx={{
            width: '100%',
            minHeight: 720,
            border: 1,
            borderColor: 'divider',
            borderRadius: 2,
            bgcolor: 'background.paper',
          }}
        />
      ) : (
        <Alert severity="info">
          The contact form is not available at the moment. Please check back later.
        </Alert>
      )}
    </Container>
  );
}
