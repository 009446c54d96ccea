import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useNotify } from '../../components/useNotify';
import { recoveryCodesText } from './recoveryCodesText';

/** The recovery codes, shown this once, with Copy and Download. */
export function RecoveryCodesView(props: { codes: string[]; email: string }) {
  const notify = useNotify();
  const text = recoveryCodesText(props.codes, props.email);
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => notify('Recovery codes copied.', 'success'),
      () => notify('Could not copy. Please download the codes instead.', 'error'),
    );
  const download = () => {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    link.download = 'recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(link.href);
  };
  return (
    <Stack spacing={2}>
      <Alert severity="warning">
        Keep these recovery codes somewhere safe. Each one signs you in once if you lose your phone. They are
        shown only now.
      </Alert>
      <Box
        component="ol"
        aria-label="Recovery codes"
        sx={{ fontFamily: 'monospace', columns: 2, m: 0, pl: 3, fontSize: '1rem' }}
      >
        {props.codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Stack direction="row" spacing={1}>
        <Button variant="outlined" onClick={() => void copy()}>
          Copy
        </Button>
        <Button variant="outlined" onClick={download}>
          Download
        </Button>
      </Stack>
    </Stack>
  );
}
