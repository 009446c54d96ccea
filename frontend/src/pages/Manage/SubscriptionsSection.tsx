import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { refusalOr } from '../../api/client';
import { SubscriptionView, useCancelSubscription, useSubscriptions } from '../../api/subscriptions';
import { PendingConfirmDialog } from '../../components/PendingConfirmDialog';
import { useNotify } from '../../components/useNotify';
import { canCancel, recurringPrice, renewalText } from '../../features/subscriptions/subscriptionText';

/** The buyer's subscriptions with their renewal date and Cancel; nothing when there are none. */
export function SubscriptionsSection() {
  const subscriptions = useSubscriptions(true);
  const cancel = useCancelSubscription();
  const notify = useNotify();
  const [asked, setAsked] = useState<SubscriptionView | null>(null);
  if (!subscriptions.data?.length) return null;

  const confirm = () => {
    if (!asked) return;
    cancel.mutate(asked.id, {
      onSuccess: (answer) => notify(renewalText(answer), 'success'),
      onError: (error) => notify(refusalOr(error, 'Failed to cancel the subscription.'), 'error'),
      onSettled: () => setAsked(null),
    });
  };

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="subscriptions-heading"
      sx={{ mt: 3, p: { xs: 2, md: 3 } }}
    >
      <Typography variant="h5" component="h2" id="subscriptions-heading" gutterBottom>
        Subscriptions
      </Typography>
      <Stack component="ul" spacing={2} sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {subscriptions.data.map((subscription) => (
          <Stack
            component="li"
            key={subscription.id}
            direction={{ xs: 'column', sm: 'row' }}
            spacing={{ xs: 1, sm: 2 }}
            sx={{ alignItems: { sm: 'center' } }}
          >
            <Stack sx={{ flex: 1, minWidth: 0 }}>
              {subscription.asset_id ? (
                <Link
                  component={RouterLink}
                  to={`/dataset_profile/${subscription.asset_id}`}
                  underline="hover"
                  sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}
                >
                  {subscription.title}
                </Link>
              ) : (
                <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                  {subscription.title}
                </Typography>
              )}
              <Typography variant="body2" color="text.secondary">
                {recurringPrice(subscription.amount, subscription.currency, subscription.interval)} ·{' '}
                {renewalText(subscription)}
              </Typography>
            </Stack>
            {subscription.status === 'past_due' && subscription.in_force && (
              <Chip
                label="Payment failed"
                color="warning"
                size="small"
                sx={{ alignSelf: { xs: 'flex-start', sm: 'center' } }}
              />
            )}
            {canCancel(subscription) && (
              <Button
                variant="outlined"
                color="error"
                size="small"
                onClick={() => setAsked(subscription)}
                aria-label={`Cancel subscription to ${subscription.title}`}
                sx={{ alignSelf: { xs: 'flex-start', sm: 'center' } }}
              >
                Cancel
              </Button>
            )}
          </Stack>
        ))}
      </Stack>
      <PendingConfirmDialog
        confirmation={
          asked
            ? {
                title: 'Cancel subscription?',
                message: `${asked.title} will not renew. You keep access until the end of the current period.`,
                confirmLabel: 'Cancel subscription',
              }
            : null
        }
        busy={cancel.isPending}
        onConfirm={confirm}
        onCancel={() => setAsked(null)}
      />
    </Paper>
  );
}
