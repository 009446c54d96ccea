import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { FormEvent, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { useCreateOrganisation, useOrganisations } from '../../api/organisations';
import { failureText } from '../../api/users';
import { useNotify } from '../../components/useNotify';
import { ROLE_LABELS } from './organisationRoles';

/** /organisations: the caller's organisations and a form to create one. */
export function OrganisationsPage() {
  const organisations = useOrganisations();
  const create = useCreateOrganisation();
  const notify = useNotify();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name, slug },
      {
        onSuccess: (created) => navigate(`/organisations/${created.id}`),
        onError: (error) =>
          notify(
            failureText(error, { fallback: 'Could not create the organisation', network: 'Network error' }),
            'error',
          ),
      },
    );
  };

  return (
    <Container maxWidth="md" sx={{ py: 4 }}>
      <Typography variant="h4" component="h1" sx={{ mb: 3 }}>
        Organisations
      </Typography>
      <Paper variant="outlined" component="section" aria-labelledby="mine-heading" sx={{ p: 3, mb: 3 }}>
        <Typography id="mine-heading" variant="h5" component="h2" sx={{ mb: 2 }}>
          Yours
        </Typography>
        {organisations.isPending ? (
          <Skeleton variant="rounded" height={60} />
        ) : organisations.error ? (
          <Typography color="text.secondary">Your organisations could not be loaded.</Typography>
        ) : organisations.data.length === 0 ? (
          <Typography color="text.secondary">You are not a member of any organisation yet.</Typography>
        ) : (
          <Stack component="ul" spacing={1} sx={{ p: 0, m: 0, listStyle: 'none' }}>
            {organisations.data.map((organisation) => (
              <li key={organisation.id}>
                <Link component={RouterLink} to={`/organisations/${organisation.id}`}>
                  {organisation.name}
                </Link>{' '}
                <Typography component="span" variant="body2" color="text.secondary">
                  ({ROLE_LABELS[organisation.my_role]})
                </Typography>
              </li>
            ))}
          </Stack>
        )}
      </Paper>
      <Paper variant="outlined" component="section" aria-labelledby="new-heading" sx={{ p: 3 }}>
        <Typography id="new-heading" variant="h5" component="h2" sx={{ mb: 2 }}>
          New organisation
        </Typography>
        <Stack component="form" spacing={2} onSubmit={submit}>
          <TextField label="Name" required value={name} onChange={(event) => setName(event.target.value)} />
          <TextField
            label="Slug"
            required
            helperText="Lower-case letters, digits and hyphens, e.g. acme-analytics"
            value={slug}
            onChange={(event) => setSlug(event.target.value)}
          />
          <div>
            <Button type="submit" variant="contained" disabled={create.isPending}>
              Create
            </Button>
          </div>
        </Stack>
      </Paper>
    </Container>
  );
}
