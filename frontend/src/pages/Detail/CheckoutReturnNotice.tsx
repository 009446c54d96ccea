import Alert from '@mui/material/Alert';
import Container from '@mui/material/Container';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { assetKeys } from '../../api/assets';
import { checkoutReturnNotice, checkoutReturnOf } from '../../features/datastore/checkout';

/** How often, and how many times, access is asked for again while Stripe's confirmation is on its way. */
const POLL_MS = 3000;
const POLL_TIMES = 40;

/**
 * After Stripe sends the buyer back (`?checkout=success|cancelled`): says where the payment stands
 * and refreshes the page's data until the access granted by Stripe's confirmation shows.
 */
export function CheckoutReturnNotice({ assetId, hasAccess }: { assetId: string; hasAccess: boolean }) {
  const [search] = useSearchParams();
  const queryClient = useQueryClient();
  const returned = checkoutReturnOf(search);
  const waiting = returned === 'success' && !hasAccess;

  useEffect(() => {
    if (!waiting) return;
    let polls = 0;
    const timer = window.setInterval(() => {
      polls += 1;
      // The dataset itself: its access flag, and its rows once access arrives.
      void queryClient.invalidateQueries({ queryKey: assetKeys.detail(assetId) });
      void queryClient.invalidateQueries({ queryKey: assetKeys.data(assetId) });
      if (polls >= POLL_TIMES) window.clearInterval(timer);
    }, POLL_MS);
    return () => window.clearInterval(timer);
  }, [waiting, queryClient, assetId]);

  if (!returned) return null;
  const notice = checkoutReturnNotice(returned, hasAccess);
  return (
    <Container maxWidth="lg" sx={{ pt: 3 }}>
      <Alert severity={notice.severity} role="status">
        {notice.text}
      </Alert>
    </Container>
  );
}
