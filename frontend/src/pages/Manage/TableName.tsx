import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCopy } from './CopyLink';

/**
 * A table's readable name with a copy button: the name its OData entity set, stream link and
 * downloaded file go by, so users can type it into a BI tool or a query.
 */
export function TableName({ name, subject }: { name: string; subject?: string }) {
  const copy = useCopy();
  // Where several tables are listed, each one's name and button say whose they are.
  const label = subject ? `Table name of ${subject}` : 'Table name';
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      <Typography variant="body2" color="text.secondary">
        Table name
      </Typography>
      <Typography
        component="code"
        variant="body2"
        aria-label={label}
        // A name is up to 48 characters without a space: on a phone it breaks anywhere rather than
        // pushing the page sideways.
        sx={{
          fontFamily: 'monospace',
          bgcolor: 'grey.100',
          borderRadius: 1,
          px: 1,
          py: 0.25,
          minWidth: 0,
          overflowWrap: 'anywhere',
        }}
      >
        {name}
      </Typography>
      <IconButton
        size="small"
        aria-label={`Copy ${label.toLowerCase()}`}
        onClick={() => copy(name, 'Table name')}
      >
        <ContentCopyIcon fontSize="small" />
      </IconButton>
    </Stack>
  );
}
