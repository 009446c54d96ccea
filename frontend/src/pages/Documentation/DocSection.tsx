import Typography from '@mui/material/Typography';
import { ReactNode } from 'react';

export function DocSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} id={id} style={{ scrollMarginTop: 80 }}>
      <Typography variant="h4" component="h2" id={`${id}-title`} sx={{ mt: 6, mb: 2 }}>
        {title}
      </Typography>
      {children}
    </section>
  );
}

export function Paragraph({ children }: { children: ReactNode }) {
  return <Typography sx={{ mb: 2 }}>{children}</Typography>;
}
