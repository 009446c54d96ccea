import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { lazy, Suspense } from 'react';
import { PageLoading } from '../../app/PageLoading';

// TinyMCE is large: it loads in its own chunk only when the editor is shown.
const RichEditor = lazy(() => import('./RichEditor'));
const EDITOR_HEIGHT = 420;

interface ContentFieldProps {
  value: string;
  onChange: (html: string) => void;
  rawHtml: boolean;
  onRawHtmlChange: (raw: boolean) => void;
}

/** Post content: the rich editor, or a plain textarea for raw HTML. */
export function ContentField({ value, onChange, rawHtml, onRawHtmlChange }: ContentFieldProps) {
  return (
    <Box>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
        <Typography component="span" id="post-content-label" variant="subtitle1">
          Content
        </Typography>
        <FormControlLabel
          control={<Switch checked={rawHtml} onChange={(event) => onRawHtmlChange(event.target.checked)} />}
          label="Raw HTML"
        />
      </Box>
      {rawHtml ? (
        <TextField
          multiline
          minRows={14}
          fullWidth
          value={value}
          onChange={(event) => onChange(event.target.value)}
          slotProps={{
            htmlInput: { 'aria-labelledby': 'post-content-label', style: { fontFamily: 'monospace' } },
          }}
          placeholder="<p>Write your post in HTML…</p>"
        />
      ) : (
        // The editor's height is kept from the start, so the fields below do not jump when it loads.
        <Box sx={{ minHeight: EDITOR_HEIGHT }}>
          <Suspense fallback={<PageLoading />}>
            <RichEditor value={value} onChange={onChange} label="Content" height={EDITOR_HEIGHT} />
          </Suspense>
        </Box>
      )}
    </Box>
  );
}
