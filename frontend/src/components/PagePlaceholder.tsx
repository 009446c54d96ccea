import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';

/** Stand-in for a screen that is not built yet. */
export function PagePlaceholder({ title }: { title: string }) {
  return (
    <Container maxWidth="md" sx={{ py: 6 }}>
      <Typography variant="h2" component="h1" gutterBottom>
        {title}
      </Typography>
      <Typography color="text.secondary">This screen is on its way.</Typography>
    </Container>
  );
}
