import ExpandMore from '@mui/icons-material/ExpandMore';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { useOrganisations } from '../api/organisations';
import { currentSpace, organisationPath, PERSONAL_HOME, PERSONAL_LABEL } from './organisationSwitcher';

/**
 * The header's space switcher for a signed-in user: "Personal" and each organisation they belong
 * to; choosing one opens its page. On narrow screens it shrinks to what the header leaves and cuts its
 * label short, so the header never overflows a phone.
 */
export function OrganisationSwitcher() {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const { pathname } = useLocation();
  const organisations = useOrganisations();
  const menuId = useId();
  const current = currentSpace(pathname, organisations.data);
  const close = () => setAnchor(null);

  return (
    <>
      <Button
        color="inherit"
        size="small"
        endIcon={<ExpandMore />}
        aria-label={`Switch organisation (now ${current.label})`}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? menuId : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        // Takes the room the header has left, down to an ellipsis; the arrow only where there is room.
        sx={{
          minWidth: 0,
          flexShrink: 1,
          maxWidth: 220,
          textTransform: 'none',
          '& .MuiButton-endIcon': { display: { xs: 'none', sm: 'inherit' } },
        }}
      >
        <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {current.label}
        </span>
      </Button>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { maxWidth: 'calc(100vw - 32px)' } } }}
      >
        <MenuItem component={RouterLink} to={PERSONAL_HOME} selected={current.id === null} onClick={close}>
          {PERSONAL_LABEL}
        </MenuItem>
        {(organisations.data ?? []).map((organisation) => (
          <MenuItem
            key={organisation.id}
            component={RouterLink}
            to={organisationPath(organisation.id)}
            selected={current.id === organisation.id}
            onClick={close}
          >
            <ListItemText primary={organisation.name} slotProps={{ primary: { noWrap: true } }} />
          </MenuItem>
        ))}
        <Divider />
        <MenuItem component={RouterLink} to="/organisations" onClick={close}>
          All organisations
        </MenuItem>
      </Menu>
    </>
  );
}
