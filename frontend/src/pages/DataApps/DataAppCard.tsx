import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import CardMedia from '@mui/material/CardMedia';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useNotify } from '../../components/useNotify';
import { DataApp } from './data-apps';

export function DataAppCard({ app }: { app: DataApp }) {
  const notify = useNotify();
  return (
    <Card
      component="article"
      aria-labelledby={`app-${app.id}`}
      sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
    >
      <CardMedia component="img" height={140} image={app.image} alt={`${app.title} illustration`} />
      <CardContent sx={{ flexGrow: 1 }}>
        <Chip label={app.category} size="small" sx={{ mb: 1 }} />
        <Typography variant="h6" component="h2" id={`app-${app.id}`}>
          {app.title}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {app.description}
        </Typography>
      </CardContent>
      <CardActions sx={{ justifyContent: 'space-between', px: 2, pb: 2 }}>
        <Typography sx={{ fontWeight: 700, fontSize: '1.1rem' }}>{app.price}</Typography>
        <Button
          variant="contained"
          aria-label={`Buy ${app.title}`}
          // The data apps are a static demo: buying has no behaviour yet.
          onClick={() => notify('Data apps are a preview; buying them is not available yet.', 'info')}
        >
          Buy
        </Button>
      </CardActions>
    </Card>
  );
}
