import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { FormEvent, useState } from 'react';
import { useAddSsoDomain, useRemoveSsoDomain, useSsoSettings, useUpdateSso } from '../../api/sso';
import { failureText } from '../../api/users';
import { useNotify } from '../../components/useNotify';

const FAILURE = { fallback: 'That did not work', network: 'Network error' };

/**
 * Single sign-on for owners and admins: the OpenID Connect provider (the client secret is only
 * ever sent, never shown), the e-mail domains it vouches for, and whether members must use it.
 */
export function OrganisationSsoSection({ organisationId }: { organisationId: string }) {
  const settings = useSsoSettings(organisationId, true);
  const update = useUpdateSso(organisationId);
  const addDomain = useAddSsoDomain(organisationId);
  const removeDomain = useRemoveSsoDomain(organisationId);
  const notify = useNotify();
  const onError = (error: unknown) => notify(failureText(error, FAILURE), 'error');
  const [provider, setProvider] = useState<{ issuer?: string; client_id?: string; client_secret: string }>({
    client_secret: '',
  });
  const [domain, setDomain] = useState({ domain: '', email: '' });

  if (settings.isPending) return <Skeleton variant="rounded" height={120} sx={{ mb: 3 }} />;
  if (settings.error) return null;
  const current = settings.data;
  const issuer = provider.issuer ?? current.issuer ?? '';
  const clientId = provider.client_id ?? current.client_id ?? '';

  const saveProvider = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(
      {
        issuer,
        client_id: clientId,
        ...(provider.client_secret ? { client_secret: provider.client_secret } : {}),
      },
      {
        onSuccess: () => {
          notify('Single sign-on provider saved.', 'success');
          setProvider({ client_secret: '' });
        },
        onError,
      },
    );
  };

  const sendVerification = (event: FormEvent) => {
    event.preventDefault();
    addDomain.mutate(domain, {
      onSuccess: () => {
        notify(`Verification link sent to ${domain.email}.`, 'success');
        setDomain({ domain: '', email: '' });
      },
      onError,
    });
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby="sso-heading" sx={{ p: 3, mb: 3 }}>
      <Typography id="sso-heading" variant="h5" component="h2" sx={{ mb: 2 }}>
        Single sign-on
      </Typography>
      <Stack component="form" spacing={1.5} onSubmit={saveProvider} aria-label="Provider">
        <TextField
          label="Issuer URL"
          size="small"
          required
          value={issuer}
          onChange={(event) => setProvider({ ...provider, issuer: event.target.value })}
          helperText="Your OpenID Connect provider, e.g. https://login.example.com"
        />
        <TextField
          label="Client id"
          size="small"
          required
          value={clientId}
          onChange={(event) => setProvider({ ...provider, client_id: event.target.value })}
        />
        <TextField
          label={current.client_secret_set ? 'Replace client secret' : 'Client secret'}
          size="small"
          type="password"
          autoComplete="new-password"
          required={!current.client_secret_set}
          value={provider.client_secret}
          onChange={(event) => setProvider({ ...provider, client_secret: event.target.value })}
          helperText={current.client_secret_set ? 'A secret is set. Leave empty to keep it.' : undefined}
        />
        <div>
          <Button type="submit" variant="contained" disabled={update.isPending}>
            Save provider
          </Button>
        </div>
      </Stack>

      <Typography variant="h6" component="h3" sx={{ mt: 3, mb: 1 }}>
        Domains
      </Typography>
      {current.domains.length > 0 && (
        <Stack component="ul" spacing={1} sx={{ p: 0, mt: 0, listStyle: 'none' }} aria-label="Domains">
          {current.domains.map((item) => (
            <Stack component="li" key={item.id} direction="row" sx={{ alignItems: 'center', gap: 1 }}>
              <Typography sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>{item.domain}</Typography>
              <Chip
                size="small"
                color={item.verified ? 'success' : 'default'}
                label={item.verified ? 'Verified' : `Link sent to ${item.verification_email}`}
                sx={{ maxWidth: '50%' }}
              />
              <Button
                size="small"
                color="error"
                aria-label={`Remove ${item.domain}`}
                onClick={() => removeDomain.mutate(item.id, { onError })}
              >
                Remove
              </Button>
            </Stack>
          ))}
        </Stack>
      )}
      <Stack
        component="form"
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        onSubmit={sendVerification}
        aria-label="Add a domain"
      >
        <TextField
          label="Domain"
          size="small"
          required
          value={domain.domain}
          onChange={(event) => setDomain({ ...domain, domain: event.target.value })}
          sx={{ flex: 1 }}
        />
        <TextField
          label="Send the link to"
          type="email"
          size="small"
          required
          value={domain.email}
          onChange={(event) => setDomain({ ...domain, email: event.target.value })}
          helperText="admin@, administrator@, hostmaster@, postmaster@ or webmaster@ at that domain"
          sx={{ flex: 1 }}
        />
        <Button type="submit" disabled={addDomain.isPending}>
          Verify
        </Button>
      </Stack>

      <FormControlLabel
        sx={{ mt: 2 }}
        control={
          <Switch
            checked={current.required}
            disabled={update.isPending}
            onChange={(event) => update.mutate({ required: event.target.checked }, { onError })}
          />
        }
        label="Require single sign-on for members at these domains"
      />
      <Typography variant="body2" color="text.secondary">
        Owners can still sign in with their password, so an outage of the provider cannot lock everyone out.
        Sessions already signed in with a password run on until they end.
      </Typography>
    </Paper>
  );
}
