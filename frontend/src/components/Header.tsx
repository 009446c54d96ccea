import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Toolbar from '@mui/material/Toolbar';
import { NavLink } from 'react-router-dom';
import { useSession } from '../auth/useSession';
import { AccountMenu } from './AccountMenu';
import { BrandLink } from './BrandLink';
import { HEADER_LINKS } from './nav-links';
import { OrganisationSwitcher } from './OrganisationSwitcher';
import { PhoneMenu } from './PhoneMenu';

const navButton = { minWidth: 0, px: 1.5, '&.active': { color: 'primary.main', bgcolor: 'action.selected' } };

export function Header() {
  const { status } = useSession();
  return (
    <AppBar position="sticky" sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
      <Container maxWidth="lg">
        <Toolbar disableGutters sx={{ gap: 1 }}>
          {/* The brand keeps its one line on phones; the organisation switcher gives way instead. */}
          <Box sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}>
            <BrandLink />
          </Box>
          <Box
            component="nav"
            aria-label="Main"
            sx={{ display: { xs: 'none', md: 'flex' }, gap: 0.5, ml: 3 }}
          >
            {HEADER_LINKS.map((link) => (
              <Button key={link.to} component={NavLink} to={link.to} color="inherit" sx={navButton}>
                {link.label}
              </Button>
            ))}
          </Box>
          <Box sx={{ flexGrow: 1 }} />
          {status === 'in' && <OrganisationSwitcher />}
          <Box sx={{ display: { xs: 'none', md: 'flex' }, gap: 1, alignItems: 'center' }}>
            {status === 'in' && <AccountMenu />}
            {status === 'out' && (
              <>
                <Button component={NavLink} to="/register" variant="contained">
                  Register
                </Button>
                <Button component={NavLink} to="/login" variant="outlined">
                  Login
                </Button>
              </>
            )}
          </Box>
          <Box sx={{ display: { xs: 'flex', md: 'none' }, flexShrink: 0 }}>
            <PhoneMenu />
          </Box>
        </Toolbar>
      </Container>
    </AppBar>
  );
}
