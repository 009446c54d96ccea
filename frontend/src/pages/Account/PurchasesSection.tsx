import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { usePurchases } from '../../api/access';
import { formatPrice } from '../../components/price';
import { orderTitle } from '../../features/account/orderTitle';

/** The buyer's record: datasets held (with the order behind each) and every order. */
export function PurchasesSection() {
  const purchases = usePurchases(true);
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="purchases-heading"
      sx={{ p: { xs: 3, sm: 4 }, mt: 3 }}
    >
      <Typography id="purchases-heading" variant="h5" component="h2" gutterBottom>
        Your datasets and purchases
      </Typography>
      {purchases.isPending ? (
        <Skeleton variant="rounded" height={80} />
      ) : purchases.error ? (
        <Typography color="text.secondary">Your purchases could not be loaded.</Typography>
      ) : (
        <Stack spacing={3}>
          <section aria-labelledby="held-heading">
            <Typography id="held-heading" variant="h6" component="h3" gutterBottom>
              Held datasets
            </Typography>
            {purchases.data.held.length === 0 ? (
              <Typography color="text.secondary">You hold no datasets of others yet.</Typography>
            ) : (
              <Stack
                component="ul"
                spacing={1}
                sx={{ p: 0, m: 0, listStyle: 'none' }}
                aria-label="Held datasets"
              >
                {purchases.data.held.map((held) => (
                  <li key={held.asset_id}>
                    <Link
                      component={RouterLink}
                      to={`/dataset_profile/${held.asset_id}`}
                      sx={{ fontWeight: 600 }}
                    >
                      {held.title}
                    </Link>
                    <Typography variant="body2" color="text.secondary">
                      Since {new Date(held.granted_at).toLocaleDateString()} ·{' '}
                      {held.amount === null ? 'Free' : formatPrice(held.amount)}
                      {held.order_id ? ` · Order ${held.order_id}` : ''}
                    </Typography>
                  </li>
                ))}
              </Stack>
            )}
          </section>
          <section aria-labelledby="orders-heading">
            <Typography id="orders-heading" variant="h6" component="h3" gutterBottom>
              Orders
            </Typography>
            {purchases.data.orders.length === 0 ? (
              <Typography color="text.secondary">No orders yet.</Typography>
            ) : (
              <Stack component="ul" spacing={1} sx={{ p: 0, m: 0, listStyle: 'none' }} aria-label="Orders">
                {purchases.data.orders.map((order) => (
                  <li key={order.id}>
                    <Typography sx={{ fontWeight: 600 }}>{orderTitle(order)}</Typography>
                    <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                      {new Date(order.created_at).toLocaleDateString()} · {formatPrice(order.amount)} ·{' '}
                      {order.status} · Order {order.id}
                    </Typography>
                  </li>
                ))}
              </Stack>
            )}
          </section>
        </Stack>
      )}
    </Paper>
  );
}
