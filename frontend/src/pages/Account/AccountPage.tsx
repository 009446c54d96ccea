import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useSession } from '../../auth/useSession';
import { useLogoutAndGoHome } from '../../components/useLogoutAndGoHome';
import { ActivityLogSection } from './ActivityLogSection';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { LeavingSection } from './LeavingSection';
import { NoticesSection } from './NoticesSection';
import { PurchasesSection } from './PurchasesSection';
import { TokensSection } from './TokensSection';
import { SessionsSection } from './SessionsSection';
import { TwoFactorButton } from './TwoFactorButton';

/** Profile (login required by the router): e-mail, Change Password, Enable 2FA, Logout, sessions. */
export function AccountPage() {
  const { user } = useSession();
  const logout = useLogoutAndGoHome();
  const [changingPassword, setChangingPassword] = useState(false);

  return (
    <Container maxWidth="sm" sx={{ py: { xs: 4, md: 8 } }}>
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 } }}>
        <Typography variant="h4" component="h1" gutterBottom>
          Account
        </Typography>
        {user?.name ? <Typography variant="h6">{user.name}</Typography> : null}
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          Email: {user?.email}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <Button variant="contained" onClick={() => setChangingPassword(true)}>
            Change Password
          </Button>
          <TwoFactorButton email={user?.email ?? ''} />
          <Button variant="outlined" color="error" onClick={() => void logout()}>
            Logout
          </Button>
        </Stack>
      </Paper>
      <PurchasesSection />
      <TokensSection />
      <SessionsSection />
      <ActivityLogSection />
      <NoticesSection />
      <LeavingSection />
      <ChangePasswordDialog open={changingPassword} onClose={() => setChangingPassword(false)} />
    </Container>
  );
}
