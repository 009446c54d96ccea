import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { loginPath } from '../../auth/loginReturn';
import { useSession } from '../../auth/useSession';
import { NOT_EDITOR_NOTICE, publishRights, VISITOR_NOTICE } from './publishRights';

/** At the top of /blog/new: who may publish, and for a visitor the way to log in (and back here). */
export function PublishRightsNotice() {
  const { status, user } = useSession();
  const location = useLocation();
  const rights = publishRights(status, user);
  if (rights === 'visitor')
    return (
      <Alert
        severity="info"
        role="status"
        sx={{ mb: 3 }}
        action={
          <Button component={RouterLink} to={loginPath(location)} color="inherit" size="small">
            Log in
          </Button>
        }
      >
        {VISITOR_NOTICE}
      </Alert>
    );
  if (rights === 'not-editor')
    return (
      <Alert severity="warning" role="status" sx={{ mb: 3 }}>
        {NOT_EDITOR_NOTICE}
      </Alert>
    );
  return null;
}
