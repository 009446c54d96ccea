import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { ReactNode } from 'react';

export interface Feature {
  icon: ReactNode;
  title: string;
  text: string;
}

export function FeatureCards({ features }: { features: Feature[] }) {
  return (
    <Grid container spacing={3}>
      {features.map((feature) => (
        <Grid key={feature.title} size={{ xs: 12, sm: 6, md: 12 / features.length }}>
          <Card sx={{ height: '100%' }}>
            <CardContent>
              <Typography color="primary" sx={{ fontSize: 36, lineHeight: 1 }} aria-hidden>
                {feature.icon}
              </Typography>
              <Typography variant="h6" component="h3" sx={{ mt: 1.5, mb: 1 }}>
                {feature.title}
              </Typography>
              <Typography color="text.secondary">{feature.text}</Typography>
            </CardContent>
          </Card>
        </Grid>
      ))}
    </Grid>
  );
}
