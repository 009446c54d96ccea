import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { DocumentationSections, SECTIONS } from './DocumentationSections';

export function DocumentationPage() {
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 5, md: 8 } }}>
      <Typography variant="h2" component="h1" gutterBottom>
        Connector documentation
      </Typography>
      <Typography color="text.secondary" sx={{ maxWidth: 760 }}>
        Describe any REST API in a small JSON language and turn it into a connector that fills a table on a
        schedule. For the marketplace&apos;s own HTTP API see the{' '}
        <Link href="/api-documentation">API documentation</Link>; to read your data into Power BI, Excel or
        Tableau see <Link href="/documentation/streaming">Streaming to BI tools</Link>.
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: '220px minmax(0, 1fr)' },
          gap: 4,
          mt: 2,
        }}
      >
        <Paper
          component="nav"
          aria-label="On this page"
          variant="outlined"
          sx={{ p: 2, alignSelf: 'start', position: { md: 'sticky' }, top: { md: 88 }, mt: { md: 6 } }}
        >
          <Typography variant="subtitle2" component="h2" sx={{ mb: 1 }}>
            On this page
          </Typography>
          <Box component="ol" sx={{ m: 0, pl: 2.5, display: 'grid', gap: 0.75 }}>
            {SECTIONS.map((section) => (
              <li key={section.id}>
                <Link href={`#${section.id}`}>{section.title}</Link>
              </li>
            ))}
          </Box>
        </Paper>
        <Box>
          <DocumentationSections />
        </Box>
      </Box>
    </Container>
  );
}
