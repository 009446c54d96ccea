import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTwoFactorStatus } from '../../api/twoFactor';
import { DisableTwoFactorDialog } from './DisableTwoFactorDialog';
import { EnableTwoFactorDialog } from './EnableTwoFactorDialog';

/** "Enable 2FA" while two-factor sign-in is off, "Disable 2FA" while it is on. */
export function TwoFactorButton(props: { email: string }) {
  const status = useTwoFactorStatus();
  const [open, setOpen] = useState<'enable' | 'disable' | null>(null);
  const enabled = status.data?.enabled === true;
  return (
    <>
      <Button
        variant="outlined"
        disabled={status.isPending}
        onClick={() => setOpen(enabled ? 'disable' : 'enable')}
      >
        {enabled ? 'Disable 2FA' : 'Enable 2FA'}
      </Button>
      <EnableTwoFactorDialog open={open === 'enable'} email={props.email} onClose={() => setOpen(null)} />
      <DisableTwoFactorDialog open={open === 'disable'} onClose={() => setOpen(null)} />
    </>
  );
}
