import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useNotices } from '../../api/notifications';

/** Receipts and notices, with the same text as the e-mails that carried them. */
export function NoticesSection() {
  const notices = useNotices(true);
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="notices-heading"
      sx={{ p: { xs: 3, sm: 4 }, mt: 3 }}
    >
      <Typography id="notices-heading" variant="h5" component="h2" gutterBottom>
        Receipts and notices
      </Typography>
      {notices.isPending ? (
        <Skeleton variant="rounded" height={80} />
      ) : notices.error ? (
        <Typography color="text.secondary">Your notices could not be loaded.</Typography>
      ) : notices.data.length === 0 ? (
        <Typography color="text.secondary">No receipts or notices yet.</Typography>
      ) : (
        <Stack
          component="ul"
          spacing={2}
          sx={{ p: 0, m: 0, listStyle: 'none' }}
          aria-label="Receipts and notices"
        >
          {notices.data.map((notice) => (
            <li key={notice.id}>
              <Typography sx={{ fontWeight: 600 }}>{notice.subject}</Typography>
              <Typography variant="caption" color="text.secondary">
                {new Date(notice.created_at).toLocaleString()}
              </Typography>
              <Typography
                variant="body2"
                component="pre"
                sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontFamily: 'inherit', m: 0 }}
              >
                {notice.text}
              </Typography>
            </li>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
