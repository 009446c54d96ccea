import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

export function PageLoading() {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 10 }} role="status" aria-label="Loading">
      <CircularProgress />
    </Box>
  );
}
