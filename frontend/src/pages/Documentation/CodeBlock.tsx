import Box from '@mui/material/Box';

export function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <Box
      component="pre"
      aria-label={label}
      tabIndex={0}
      sx={{
        bgcolor: '#1c2033',
        color: '#e6e9f5',
        p: 2,
        borderRadius: 2,
        overflowX: 'auto',
        fontSize: '0.85rem',
        lineHeight: 1.55,
        my: 2,
      }}
    >
      <code>{code}</code>
    </Box>
  );
}

/** Inline code: a key, a value or a type name. */
export function Code({ children }: { children: string }) {
  return (
    <Box
      component="code"
      sx={{
        bgcolor: 'action.hover',
        px: 0.6,
        py: 0.1,
        borderRadius: 1,
        fontSize: '0.88em',
        // A long path or template may break anywhere rather than widen a phone's page.
        overflowWrap: 'anywhere',
      }}
    >
      {children}
    </Box>
  );
}
