import LinkedIn from '@mui/icons-material/LinkedIn';
import X from '@mui/icons-material/X';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { shareLinks } from '../Blog/blog-format';

export function ShareLinks({ slug, title }: { slug: string; title: string }) {
  const links = shareLinks(`${window.location.origin}/blog/${slug}`, title);
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      <Typography variant="subtitle2" component="span">
        Share:
      </Typography>
      <Button href={links.twitter} target="_blank" rel="noopener noreferrer" startIcon={<X />} size="small">
        Twitter
      </Button>
      <Button
        href={links.linkedin}
        target="_blank"
        rel="noopener noreferrer"
        startIcon={<LinkedIn />}
        size="small"
      >
        LinkedIn
      </Button>
    </Stack>
  );
}
