import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import type { components } from './schema';

/** Organisations the caller belongs to, their members and pending invitations. */

export type Organisation = components['schemas']['OrganisationResponse'];
export type Member = components['schemas']['MemberResponse'];
export type Invitation = components['schemas']['InvitationResponse'];
export type OrganisationRole = Member['role'];
type CreateInput = components['schemas']['CreateOrganisationDto'];
type MessageAnswer = components['schemas']['MessageResponse'];

export const organisationKeys = {
  all: ['organisations'] as const,
  one: (id: string) => ['organisations', id] as const,
  members: (id: string) => ['organisations', id, 'members'] as const,
  invitations: (id: string) => ['organisations', id, 'invitations'] as const,
};

const path = (id: string, rest = '') => `organisations/${encodeURIComponent(id)}${rest}`;

export function useOrganisations(enabled = true) {
  return useQuery({
    queryKey: organisationKeys.all,
    queryFn: () => api<Organisation[]>('organisations'),
    enabled,
  });
}

export function useOrganisation(id: string) {
  return useQuery({ queryKey: organisationKeys.one(id), queryFn: () => api<Organisation>(path(id)) });
}

export function useMembers(id: string) {
  return useQuery({
    queryKey: organisationKeys.members(id),
    queryFn: () => api<Member[]>(path(id, '/members')),
  });
}

export function useInvitations(id: string, enabled: boolean) {
  return useQuery({
    queryKey: organisationKeys.invitations(id),
    queryFn: () => api<Invitation[]>(path(id, '/invitations')),
    enabled,
  });
}

/** Every change refreshes whatever of the organisations the screen shows. */
function useOrganisationMutation<Input, Answer>(run: (input: Input) => Promise<Answer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => queryClient.invalidateQueries({ queryKey: organisationKeys.all }),
  });
}

export function useCreateOrganisation() {
  return useOrganisationMutation((input: CreateInput) =>
    api<Organisation>('organisations', { method: 'POST', body: input }),
  );
}

export function useChangeRole(id: string) {
  return useOrganisationMutation(({ userId, role }: { userId: string; role: OrganisationRole }) =>
    api<Member>(path(id, `/members/${encodeURIComponent(userId)}`), { method: 'PATCH', body: { role } }),
  );
}

export function useRemoveMember(id: string) {
  return useOrganisationMutation((userId: string) =>
    api<MessageAnswer>(path(id, `/members/${encodeURIComponent(userId)}`), { method: 'DELETE' }),
  );
}

export function useLeaveOrganisation(id: string) {
  return useOrganisationMutation(() => api<MessageAnswer>(path(id, '/leave'), { method: 'POST' }));
}

export function useInvite(id: string) {
  return useOrganisationMutation((input: { email: string; role: OrganisationRole }) =>
    api<Invitation>(path(id, '/invitations'), { method: 'POST', body: input }),
  );
}

export function useRevokeInvitation(id: string) {
  return useOrganisationMutation((invitationId: string) =>
    api<MessageAnswer>(path(id, `/invitations/${encodeURIComponent(invitationId)}`), { method: 'DELETE' }),
  );
}

export function useAnswerInvitation() {
  return useOrganisationMutation(({ token, accept }: { token: string; accept: boolean }) =>
    api<Organisation | MessageAnswer>(`organisations/invitations/${accept ? 'accept' : 'decline'}`, {
      method: 'POST',
      body: { token },
    }),
  );
}

/**
 * The caller's organisations they may get, buy or move datasets for (editor and above); none for
 * a visitor, whose list is never asked for.
 */
export function useEditableOrganisations(enabled: boolean): Organisation[] {
  const organisations = useOrganisations(enabled);
  return (organisations.data ?? []).filter((organisation) =>
    ['owner', 'admin', 'editor'].includes(organisation.my_role),
  );
}
