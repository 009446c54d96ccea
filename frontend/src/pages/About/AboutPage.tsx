import Hub from '@mui/icons-material/Hub';
import Lock from '@mui/icons-material/Lock';
import Speed from '@mui/icons-material/Speed';
import Stream from '@mui/icons-material/Stream';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';

const DIFFERENTIATORS = [
  {
    icon: <Hub fontSize="inherit" />,
    title: 'Datasets and live APIs in one place',
    text: 'Uploaded CSV datasets and API connectors sit side by side in one catalogue, each becoming a real table.',
  },
  {
    icon: <Speed fontSize="inherit" />,
    title: 'Connect without code',
    text: 'Connectors are described in a small JSON language, so any REST API can be added by filling in a form.',
  },
  {
    icon: <Stream fontSize="inherit" />,
    title: 'Straight into your BI tool',
    text: 'A personal API key streams every dataset you can access into Power BI, Excel or any HTTP client.',
  },
  {
    icon: <Lock fontSize="inherit" />,
    title: 'Private by default where it matters',
    text: 'Owners decide what is public; credentials are encrypted at rest and never shown again.',
  },
];

export function AboutPage() {
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 5, md: 8 } }}>
      <Typography variant="h2" component="h1" sx={{ mb: 4 }}>
        About us
      </Typography>
      <Grid container spacing={4} sx={{ mb: 6 }}>
        <Grid size={{ xs: 12, md: 6 }} component="section" aria-labelledby="mission">
          <Typography variant="h4" component="h2" id="mission" gutterBottom>
            Our mission
          </Typography>
          <Typography color="text.secondary">
            Make data easy to find, fair to trade and simple to use. Anyone should be able to publish a
            dataset or an API, and anyone should be able to put it to work in minutes.
          </Typography>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }} component="section" aria-labelledby="vision">
          <Typography variant="h4" component="h2" id="vision" gutterBottom>
            Our vision
          </Typography>
          <Typography color="text.secondary">
            A marketplace where data flows from its source to every decision that needs it: kept fresh
            automatically, shared on the owner&apos;s terms, and always one link away from your reports.
          </Typography>
        </Grid>
      </Grid>
      <Typography variant="h4" component="h2" gutterBottom>
        What makes us different
      </Typography>
      <Grid container spacing={3}>
        {DIFFERENTIATORS.map((item) => (
          <Grid key={item.title} size={{ xs: 12, sm: 6 }}>
            <Card sx={{ height: '100%' }}>
              <CardContent>
                <Typography color="secondary" sx={{ fontSize: 34, lineHeight: 1 }} aria-hidden>
                  {item.icon}
                </Typography>
                <Typography variant="h6" component="h3" sx={{ mt: 1.5, mb: 1 }}>
                  {item.title}
                </Typography>
                <Typography color="text.secondary">{item.text}</Typography>
              </CardContent>
            </Card>
          </Grid>
        ))}
      </Grid>
    </Container>
  );
}
