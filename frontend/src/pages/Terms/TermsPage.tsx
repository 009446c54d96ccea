import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';

/** The terms screen has its title only. */
export function TermsPage() {
  return (
    <Container maxWidth="md" sx={{ py: { xs: 5, md: 8 } }}>
      <Typography variant="h2" component="h1">
        Terms and Conditions
      </Typography>
    </Container>
  );
}
