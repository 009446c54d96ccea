import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { FormEvent, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import {
  OrganisationRole,
  useChangeRole,
  useInvitations,
  useInvite,
  useLeaveOrganisation,
  useMembers,
  useOrganisation,
  useRemoveMember,
  useRevokeInvitation,
} from '../../api/organisations';
import { failureText } from '../../api/users';
import { useNotify } from '../../components/useNotify';
import { TokensSection } from '../Account/TokensSection';
import { OrganisationAuditSection } from './OrganisationAuditSection';
import { OrganisationSsoSection } from './OrganisationSsoSection';
import { managesMembers, mayManageMember, ROLE_LABELS, rolesAssignableBy } from './organisationRoles';

const FAILURE = { fallback: 'That did not work', network: 'Network error' };

/**
 * /organisations/:id: members and their roles, invitations, API tokens, single sign-on and the
 * audit log (owners and admins), and leaving.
 */
export function OrganisationSettingsPage() {
  const { id = '' } = useParams();
  const organisation = useOrganisation(id);
  const myRole = organisation.data?.my_role ?? 'viewer';
  const manager = managesMembers(myRole);
  const members = useMembers(id);
  const invitations = useInvitations(id, organisation.isSuccess && manager);
  const changeRole = useChangeRole(id);
  const remove = useRemoveMember(id);
  const leave = useLeaveOrganisation(id);
  const invite = useInvite(id);
  const revoke = useRevokeInvitation(id);
  const notify = useNotify();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<OrganisationRole>('viewer');
  const onError = (error: unknown) => notify(failureText(error, FAILURE), 'error');

  if (organisation.isPending) return <Skeleton variant="rounded" height={200} sx={{ m: 4 }} />;
  if (organisation.error) {
    return (
      <Container maxWidth="md" sx={{ py: 4 }}>
        <Typography>Organisation not found.</Typography>
      </Container>
    );
  }

  const sendInvitation = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate(
      { email, role },
      {
        onSuccess: () => {
          notify(`Invitation sent to ${email}.`, 'success');
          setEmail('');
        },
        onError,
      },
    );
  };

  return (
    <Container maxWidth="md" sx={{ py: 4 }}>
      <Typography variant="h4" component="h1">
        {organisation.data.name}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {organisation.data.slug} · you are {ROLE_LABELS[myRole].toLowerCase()}
      </Typography>

      <Paper variant="outlined" component="section" aria-labelledby="members-heading" sx={{ p: 3, mb: 3 }}>
        <Typography id="members-heading" variant="h5" component="h2" sx={{ mb: 2 }}>
          Members
        </Typography>
        {members.isPending ? (
          <Skeleton variant="rounded" height={60} />
        ) : members.error ? (
          <Typography color="text.secondary">The members could not be loaded.</Typography>
        ) : (
          <Stack component="ul" spacing={1.5} sx={{ p: 0, m: 0, listStyle: 'none' }} aria-label="Members">
            {members.data.map((member) => (
              <Stack
                component="li"
                key={member.user_id}
                direction="row"
                sx={{ alignItems: 'center', gap: 1 }}
              >
                <div style={{ flex: 1, minWidth: 0 }}>
                  <Typography sx={{ fontWeight: 600 }}>{member.name}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    {member.email}
                  </Typography>
                </div>
                {mayManageMember(myRole, member.role) ? (
                  <>
                    <TextField
                      select
                      size="small"
                      label="Role"
                      value={member.role}
                      onChange={(event) =>
                        changeRole.mutate(
                          { userId: member.user_id, role: event.target.value as OrganisationRole },
                          { onError },
                        )
                      }
                    >
                      {rolesAssignableBy(myRole).map((option) => (
                        <MenuItem key={option} value={option}>
                          {ROLE_LABELS[option]}
                        </MenuItem>
                      ))}
                    </TextField>
                    <Button
                      color="error"
                      size="small"
                      aria-label={`Remove ${member.name}`}
                      onClick={() => remove.mutate(member.user_id, { onError })}
                    >
                      Remove
                    </Button>
                  </>
                ) : (
                  <Typography variant="body2">{ROLE_LABELS[member.role]}</Typography>
                )}
              </Stack>
            ))}
          </Stack>
        )}
      </Paper>

      {manager && (
        <Paper
          variant="outlined"
          component="section"
          aria-labelledby="invitations-heading"
          sx={{ p: 3, mb: 3 }}
        >
          <Typography id="invitations-heading" variant="h5" component="h2" sx={{ mb: 2 }}>
            Invitations
          </Typography>
          <Stack
            component="form"
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1}
            onSubmit={sendInvitation}
          >
            <TextField
              label="E-mail"
              type="email"
              required
              size="small"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              sx={{ flex: 1 }}
            />
            <TextField
              select
              size="small"
              label="Role"
              value={role}
              onChange={(event) => setRole(event.target.value as OrganisationRole)}
            >
              {rolesAssignableBy(myRole).map((option) => (
                <MenuItem key={option} value={option}>
                  {ROLE_LABELS[option]}
                </MenuItem>
              ))}
            </TextField>
            <Button type="submit" variant="contained" disabled={invite.isPending}>
              Invite
            </Button>
          </Stack>
          {invitations.data && invitations.data.length > 0 && (
            <Stack
              component="ul"
              spacing={1}
              sx={{ p: 0, mt: 2, mb: 0, listStyle: 'none' }}
              aria-label="Pending invitations"
            >
              {invitations.data.map((invitation) => (
                <Stack
                  component="li"
                  key={invitation.id}
                  direction="row"
                  sx={{ alignItems: 'center', gap: 1 }}
                >
                  <Typography sx={{ flex: 1, overflowWrap: 'anywhere' }}>
                    {invitation.email} · {ROLE_LABELS[invitation.role]}
                    {invitation.expired ? ' · expired' : ''}
                  </Typography>
                  <Button
                    size="small"
                    color="error"
                    aria-label={`Revoke the invitation of ${invitation.email}`}
                    onClick={() => revoke.mutate(invitation.id, { onError })}
                  >
                    Revoke
                  </Button>
                </Stack>
              ))}
            </Stack>
          )}
        </Paper>
      )}

      {manager && <OrganisationSsoSection organisationId={id} />}
      {manager && <TokensSection organisationId={id} />}

      {manager && <OrganisationAuditSection organisationId={id} members={members.data} />}

      <Button
        color="error"
        variant="outlined"
        disabled={leave.isPending}
        onClick={() =>
          leave.mutate(undefined, {
            onSuccess: (answer) => {
              notify(answer.message, 'success');
              navigate('/organisations');
            },
            onError,
          })
        }
      >
        Leave organisation
      </Button>
    </Container>
  );
}
