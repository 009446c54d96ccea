import MenuIcon from '@mui/icons-material/Menu';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useSession } from '../auth/useSession';
import { ACCOUNT_LINKS, HEADER_LINKS } from './nav-links';
import { useLogoutAndGoHome } from './useLogoutAndGoHome';

/** On phones the header collapses into this menu button and side drawer. */
export function PhoneMenu() {
  const [open, setOpen] = useState(false);
  const { status } = useSession();
  const logout = useLogoutAndGoHome();
  const close = () => setOpen(false);

  const item = (label: string, to: string) => (
    <ListItemButton key={to} component={RouterLink} to={to} onClick={close}>
      <ListItemText primary={label} />
    </ListItemButton>
  );

  return (
    <>
      <IconButton color="inherit" edge="end" aria-label="Open menu" onClick={() => setOpen(true)}>
        <MenuIcon />
      </IconButton>
      <Drawer anchor="right" open={open} onClose={close}>
        <nav aria-label="Main menu" style={{ width: 260 }}>
          <List>{HEADER_LINKS.map((link) => item(link.label, link.to))}</List>
          <Divider />
          {status === 'in' ? (
            <List subheader={<ListSubheader>Account</ListSubheader>}>
              {ACCOUNT_LINKS.map((link) => item(link.label, link.to))}
              <ListItemButton
                onClick={() => {
                  close();
                  void logout();
                }}
              >
                <ListItemText primary="Logout" />
              </ListItemButton>
            </List>
          ) : status === 'out' ? (
            <List>
              {item('Register', '/register')}
              {item('Login', '/login')}
            </List>
          ) : null}
        </nav>
      </Drawer>
    </>
  );
}
