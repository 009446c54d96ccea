import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { Link as RouterLink, useLocation, useSearchParams } from 'react-router-dom';
import { loginPath } from '../../auth/loginReturn';
import { useSession } from '../../auth/useSession';
import { ActiveTab } from './ActiveTab';
import { StreamTab } from './StreamTab';
import { SubscriptionsSection } from './SubscriptionsSection';
import { UploadedTab } from './UploadedTab';
import { useManageData } from './useManageData';

const TABS = [
  { key: 'active', label: 'Active Datasets & Connectors' },
  { key: 'uploaded', label: 'Uploaded Data' },
  { key: 'stream', label: 'Stream Data' },
] as const;
type TabKey = (typeof TABS)[number]['key'];

/** /manage is not login-guarded, so a visitor or an expired session gets a sign-in prompt instead. */
export function ManagePage() {
  const { status } = useSession();
  const [params, setParams] = useSearchParams();
  const current: TabKey = TABS.find((tab) => tab.key === params.get('tab'))?.key ?? 'active';
  const data = useManageData(status === 'in');
  // The three labels fit from tablet width up; narrower screens scroll them, with arrows as a hint.
  const tabsFit = useMediaQuery((theme: Theme) => theme.breakpoints.up('md'));

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
      <Typography variant="h2" component="h1" gutterBottom>
        Manage Data
      </Typography>
      {status === 'unknown' ? null : status === 'out' || data.needsSignIn ? (
        <SignInPrompt />
      ) : (
        <Paper variant="outlined">
          <Tabs
            value={current}
            onChange={(_event, key: TabKey) =>
              setParams(key === 'active' ? {} : { tab: key }, { replace: true })
            }
            variant={tabsFit ? 'standard' : 'scrollable'}
            allowScrollButtonsMobile={!tabsFit}
            aria-label="Manage data sections"
          >
            {TABS.map((tab) => (
              <Tab
                key={tab.key}
                value={tab.key}
                label={tab.label}
                id={`manage-tab-${tab.key}`}
                aria-controls={`manage-panel-${tab.key}`}
              />
            ))}
          </Tabs>
          <Box
            role="tabpanel"
            id={`manage-panel-${current}`}
            aria-labelledby={`manage-tab-${current}`}
            sx={{ p: { xs: 2, md: 3 } }}
          >
            {current === 'active' && <ActiveTab data={data} />}
            {current === 'uploaded' && <UploadedTab data={data} />}
            {current === 'stream' && <StreamTab data={data} />}
          </Box>
        </Paper>
      )}
      {status === 'in' && !data.needsSignIn && <SubscriptionsSection />}
    </Container>
  );
}

function SignInPrompt() {
  const location = useLocation();
  return (
    <Alert
      severity="info"
      action={
        <Button component={RouterLink} to={loginPath(location)} color="inherit" size="small">
          Login
        </Button>
      }
    >
      Please log in to manage your datasets, connectors and streams.
    </Alert>
  );
}
