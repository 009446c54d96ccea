import Container from '@mui/material/Container';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import Markdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { useTerms } from '../../api/config';

/** The terms of use sign-up asks to accept: the deployment's text (TERMS_FILE), else the shipped one. */
export function TermsPage() {
  const terms = useTerms();
  return (
    <Container maxWidth="md" sx={{ py: { xs: 5, md: 8 } }}>
      {terms.isPending ? (
        <>
          <Typography variant="h2" component="h1">
            Terms and Conditions
          </Typography>
          <Skeleton variant="rounded" height={240} sx={{ mt: 3 }} />
        </>
      ) : terms.error ? (
        <>
          <Typography variant="h2" component="h1">
            Terms and Conditions
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 3 }}>
            The terms could not be loaded. Please try again in a moment.
          </Typography>
        </>
      ) : (
        // Headings, lists and links only: no raw HTML from the file reaches the page.
        <Markdown remarkPlugins={[remarkGfm]} skipHtml>
          {terms.data.markdown}
        </Markdown>
      )}
    </Container>
  );
}
