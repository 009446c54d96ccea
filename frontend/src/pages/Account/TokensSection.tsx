import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { ApiToken, useApiTokens, useRevokeApiToken } from '../../api/tokens';
import { failureText } from '../../api/users';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useNotify } from '../../components/useNotify';
import { tokenDetails } from '../../features/account/tokenText';
import { CreateTokenDialog } from './CreateTokenDialog';

const PERSONAL_INTRO =
  'One token for each tool that reads your data (Power BI, a script, a notebook), so you can revoke one without touching the others. They work wherever the personal API key does.';
const ORGANISATION_INTRO =
  'Tokens that act as the organisation: they read what it owns or holds, nothing personal of whoever made them, and keep working when that person leaves. Revoking one ends it at once.';

/**
 * Named tokens, one per integration: the caller's own (Account, beside the personal key of
 * Manage → Stream Data), or an organisation's on its page (owners and admins).
 */
export function TokensSection({ organisationId }: { organisationId?: string } = {}) {
  const tokens = useApiTokens(organisationId);
  const revoke = useRevokeApiToken(organisationId);
  const notify = useNotify();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const now = new Date();

  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => notify(`Token “${revoking.name}” revoked.`, 'success'),
      onError: (error) =>
        notify(
          failureText(error, { fallback: 'Failed to revoke the token', network: 'Error revoking the token' }),
          'error',
        ),
      onSettled: () => setRevoking(null),
    });
  };

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="tokens-heading"
      // On an organisation's page it sits among that page's sections, spaced as they are.
      sx={organisationId ? { p: 3, mb: 3 } : { p: { xs: 3, sm: 4 }, mt: 3 }}
    >
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1, gap: 2 }}>
        <Typography id="tokens-heading" variant="h5" component="h2">
          API tokens
        </Typography>
        <Button variant="outlined" onClick={() => setCreating(true)}>
          New token
        </Button>
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {organisationId ? ORGANISATION_INTRO : PERSONAL_INTRO}
      </Typography>
      {tokens.isPending ? (
        <Skeleton variant="rounded" height={60} />
      ) : tokens.error ? (
        <Typography color="text.secondary">The tokens could not be loaded.</Typography>
      ) : tokens.data.length === 0 ? (
        <Typography color="text.secondary">No tokens yet.</Typography>
      ) : (
        <Stack component="ul" spacing={1.5} sx={{ p: 0, m: 0, listStyle: 'none' }} aria-label="API tokens">
          {tokens.data.map((token) => (
            <Stack component="li" key={token.id} direction="row" sx={{ alignItems: 'center', gap: 1 }}>
              <div style={{ flex: 1, minWidth: 0 }}>
                <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                  {token.name}{' '}
                  <Typography component="code" variant="body2" sx={{ fontFamily: 'monospace' }}>
                    {token.hint}
                  </Typography>
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {tokenDetails(token, now)}
                </Typography>
              </div>
              <Button
                color="error"
                size="small"
                onClick={() => setRevoking(token)}
                aria-label={`Revoke ${token.name}`}
              >
                Revoke
              </Button>
            </Stack>
          ))}
        </Stack>
      )}
      <CreateTokenDialog open={creating} organisationId={organisationId} onClose={() => setCreating(false)} />
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke token?"
        message={`Tools using “${revoking?.name ?? ''}” lose access at once.`}
        confirmLabel="Revoke"
        destructive
        busy={revoke.isPending}
        onConfirm={confirmRevoke}
        onCancel={() => setRevoking(null)}
      />
    </Paper>
  );
}
