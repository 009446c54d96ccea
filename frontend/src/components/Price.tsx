import Typography, { TypographyProps } from '@mui/material/Typography';
import { formatPrice } from './price';

export function Price({
  value,
  sx,
  ...props
}: { value: number | string | null | undefined } & TypographyProps) {
  return (
    <Typography component="span" sx={[{ fontWeight: 700 }, ...(Array.isArray(sx) ? sx : [sx])]} {...props}>
      {formatPrice(value)}
    </Typography>
  );
}
