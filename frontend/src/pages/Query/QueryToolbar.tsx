import PlayArrow from '@mui/icons-material/PlayArrow';
import Stop from '@mui/icons-material/Stop';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

interface Props {
  running: boolean;
  canRun: boolean;
  onRun: () => void;
  onCancel: () => void;
  onSave: () => void;
}

/** Run (also Ctrl/Cmd-Enter in the editor), Cancel while running, and Save. */
export function QueryToolbar({ running, canRun, onRun, onCancel, onSave }: Props) {
  return (
    <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1, alignItems: 'center' }}>
      <Button variant="contained" startIcon={<PlayArrow />} onClick={onRun} disabled={!canRun || running}>
        {running ? 'Running…' : 'Run'}
      </Button>
      {running && (
        <Button variant="outlined" color="warning" startIcon={<Stop />} onClick={onCancel}>
          Cancel
        </Button>
      )}
      <Button variant="outlined" onClick={onSave} disabled={!canRun}>
        Save
      </Button>
      <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'none', sm: 'block' } }}>
        Ctrl+Enter (⌘+Enter on a Mac) runs the query
      </Typography>
    </Stack>
  );
}
