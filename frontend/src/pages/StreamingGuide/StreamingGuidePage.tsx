import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import guide from '../../../../docs/stream-howto.md?raw';
import { Code, CodeBlock } from '../Documentation/CodeBlock';

/** The guide's markdown in the app's typography; its tables scroll sideways on a phone. */
const COMPONENTS: Components = {
  h2: ({ children }) => (
    <Typography variant="h4" component="h2" sx={{ mt: 6, mb: 2 }}>
      {children}
    </Typography>
  ),
  h3: ({ children }) => (
    <Typography variant="h5" component="h3" sx={{ mt: 4, mb: 1.5 }}>
      {children}
    </Typography>
  ),
  h4: ({ children }) => (
    <Typography variant="h6" component="h4" sx={{ mt: 3, mb: 1 }}>
      {children}
    </Typography>
  ),
  p: ({ children }) => <Typography sx={{ my: 1.5 }}>{children}</Typography>,
  a: ({ href, children }) => <Link href={href}>{children}</Link>,
  ul: ({ children }) => (
    <Box component="ul" sx={{ pl: 3, '& li': { mb: 1 } }}>
      {children}
    </Box>
  ),
  ol: ({ children }) => (
    <Box component="ol" sx={{ pl: 3, '& li': { mb: 1 } }}>
      {children}
    </Box>
  ),
  pre: ({ children }) => <>{children}</>,
  code: ({ className, children }) =>
    // Fenced blocks carry a language class or span lines; inline code is one short run of text.
    className || String(children).includes('\n') ? (
      <CodeBlock code={String(children).replace(/\n$/, '')} label="Example" />
    ) : (
      <Code>{String(children)}</Code>
    ),
  table: ({ children }) => (
    <TableContainer sx={{ my: 2, border: 1, borderColor: 'divider', borderRadius: 1 }}>
      <Table size="small">{children}</Table>
    </TableContainer>
  ),
  thead: ({ children }) => <TableHead>{children}</TableHead>,
  tbody: ({ children }) => <TableBody>{children}</TableBody>,
  tr: ({ children }) => <TableRow>{children}</TableRow>,
  th: ({ children }) => <TableCell sx={{ fontWeight: 600 }}>{children as ReactNode}</TableCell>,
  td: ({ children }) => <TableCell>{children as ReactNode}</TableCell>,
};

/** The guide with this site's own address in its links, so they can be copied as they stand. */
export function guideForOrigin(markdown: string, origin: string): string {
  return markdown.replaceAll('https://<host>', origin);
}

/** /documentation/streaming: stream links, OData, Power BI (incremental refresh), Excel, Tableau, filters. */
export function StreamingGuidePage() {
  return (
    <Container maxWidth="md" sx={{ py: { xs: 5, md: 8 } }}>
      <Typography variant="overline" color="text.secondary">
        Documentation
      </Typography>
      <Markdown remarkPlugins={[remarkGfm]} components={COMPONENTS}>
        {guideForOrigin(guide, window.location.origin)}
      </Markdown>
    </Container>
  );
}
