import Box from '@mui/material/Box';

/** The post's HTML, sanitised by the server when it was saved. */
export function PostContent({ html }: { html: string }) {
  return (
    <Box
      className="blog-content"
      sx={{
        fontSize: '1.075rem',
        lineHeight: 1.75,
        overflowWrap: 'anywhere',
        '& img, & video, & iframe': { maxWidth: '100%', height: 'auto', borderRadius: 2 },
        '& h1, & h2, & h3': { lineHeight: 1.25, mt: 4, mb: 1.5 },
        '& pre': { bgcolor: '#1c2033', color: '#e6e9f5', p: 2, borderRadius: 2, overflowX: 'auto' },
        '& blockquote': { borderLeft: 4, borderColor: 'primary.light', m: 0, pl: 2, color: 'text.secondary' },
        '& table': { borderCollapse: 'collapse', display: 'block', overflowX: 'auto' },
        '& td, & th': { border: 1, borderColor: 'divider', p: 1 },
        '& a': { color: 'primary.main' },
      }}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
