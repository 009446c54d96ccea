import ApiIcon from '@mui/icons-material/Api';
import TableChartOutlinedIcon from '@mui/icons-material/TableChartOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { LiveBadge } from '../../components/LiveBadge';
import { LiveFreshness } from '../../components/LiveFreshness';
import { OwnedNote } from '../../components/OwnedNote';
import { categoryGradient } from '../../features/datastore/cardArt';
import { Price } from '../../components/Price';
import {
  CardAction,
  cardAction,
  CatalogItem,
  profilePath,
  priceNote,
  showsPrice,
} from '../../features/datastore/catalogItem';

interface Props {
  item: CatalogItem;
  busy: boolean;
  onAction: (item: CatalogItem, action: CardAction) => void;
}

export function CatalogCard({ item, busy, onAction }: Props) {
  const action = cardAction(item);
  const titleId = `card-title-${item.kind}-${item.id}`;
  return (
    <Card
      component="article"
      aria-labelledby={titleId}
      sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}
    >
      <CardActionArea
        component={RouterLink}
        to={profilePath(item)}
        sx={{ flexGrow: 1, display: 'flex', flexDirection: 'column', alignItems: 'stretch' }}
      >
        <CardImage item={item} />
        <CardContent sx={{ flexGrow: 1 }}>
          <Stack direction="row" spacing={1} sx={{ mb: 1, flexWrap: 'wrap', rowGap: 1 }}>
            {item.kind === 'connector' && <Chip size="small" color="secondary" label="API" />}
            {item.live && <LiveBadge />}
            {item.isPrivate && <Chip size="small" color="warning" variant="outlined" label="Private" />}
            {item.category && !(item.kind === 'connector' && item.category === 'API') && (
              <Chip size="small" variant="outlined" label={item.category} />
            )}
          </Stack>
          <Typography
            id={titleId}
            variant="h6"
            component="h2"
            sx={{ lineHeight: 1.3, mb: 0.5, overflowWrap: 'anywhere' }}
          >
            {item.title}
          </Typography>
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{
              display: '-webkit-box',
              WebkitLineClamp: 3,
              WebkitBoxOrient: 'vertical',
              overflow: 'hidden',
            }}
          >
            {item.description}
          </Typography>
          {item.live && (
            <LiveFreshness
              facts={{ last_refreshed_at: item.live.updatedAt, stale_since: item.live.staleSince }}
              sx={{ mt: 1 }}
            />
          )}
        </CardContent>
      </CardActionArea>
      <CardActions sx={{ justifyContent: 'space-between', px: 2, pb: 2 }}>
        {showsPrice(item) && priceNote(item) ? (
          <Typography component="span" variant="body2" color="text.secondary" aria-label="Price">
            {priceNote(item)}
          </Typography>
        ) : showsPrice(item) ? (
          <Price value={item.price} aria-label="Price" />
        ) : item.kind === 'connector' && item.owned ? (
          <OwnedNote linkLabel="Your uploads" />
        ) : (
          <span />
        )}
        {action ? (
          <Button
            variant={action === 'Remove' || action === 'Manage' ? 'outlined' : 'contained'}
            color={action === 'Remove' ? 'error' : 'primary'}
            size="small"
            disabled={busy}
            onClick={() => onAction(item, action)}
            aria-label={`${action} ${item.title}`}
          >
            {action}
          </Button>
        ) : (
          <OwnedNote />
        )}
      </CardActions>
    </Card>
  );
}

function CardImage({ item }: { item: CatalogItem }) {
  if (item.image) {
    return (
      <Box
        component="img"
        src={item.image}
        alt=""
        loading="lazy"
        sx={{ height: 140, width: '100%', objectFit: 'cover' }}
      />
    );
  }
  const Icon = item.kind === 'connector' ? ApiIcon : TableChartOutlinedIcon;
  return (
    <Box
      aria-hidden
      sx={{
        height: { xs: 72, sm: 96 },
        display: 'grid',
        placeItems: 'center',
        color: 'primary.contrastText',
        background: categoryGradient(item.category),
      }}
      data-category={item.category}
    >
      <Icon sx={{ fontSize: 40, opacity: 0.9 }} />
    </Box>
  );
}
