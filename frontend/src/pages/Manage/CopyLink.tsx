import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useNotify } from '../../components/useNotify';

/** Copies text to the clipboard; the clipboard API exists only in secure contexts, so failure is told. */
export function useCopy() {
  const notify = useNotify();
  return (text: string, what: string) =>
    navigator.clipboard
      .writeText(text)
      .then(() => notify(`${what} copied.`, 'success'))
      .catch(() => notify(`Could not copy the ${what.toLowerCase()}; select it and copy by hand.`, 'error'));
}

/** A stream link in monospace with a copy button; long links wrap instead of widening the page. */
export function CopyLink({ label, url }: { label: string; url: string }) {
  const copy = useCopy();
  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{ alignItems: 'center', bgcolor: 'grey.100', borderRadius: 1, pl: 1.5, pr: 0.5, py: 0.5 }}
    >
      <Typography
        component="code"
        variant="body2"
        sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere', flex: 1 }}
      >
        {url}
      </Typography>
      <IconButton size="small" aria-label={`Copy ${label}`} onClick={() => copy(url, 'Link')}>
        <ContentCopyIcon fontSize="small" />
      </IconButton>
    </Stack>
  );
}
