import type { OrganisationRole } from '../../api/organisations';

export const ROLE_LABELS: Record<OrganisationRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  editor: 'Editor',
  viewer: 'Viewer',
};

const ALL_ROLES: OrganisationRole[] = ['owner', 'admin', 'editor', 'viewer'];

/** Owners and admins manage members and invitations (the API decides; the screen only follows it). */
export function managesMembers(role: OrganisationRole): boolean {
  return role === 'owner' || role === 'admin';
}

/** The roles the caller may give: only owners make owners. */
export function rolesAssignableBy(myRole: OrganisationRole): OrganisationRole[] {
  if (myRole === 'owner') return ALL_ROLES;
  if (myRole === 'admin') return ALL_ROLES.filter((role) => role !== 'owner');
  return [];
}

/** Whether the caller may change or remove a member of that role: admins leave owners alone. */
export function mayManageMember(myRole: OrganisationRole, memberRole: OrganisationRole): boolean {
  if (!managesMembers(myRole)) return false;
  return memberRole !== 'owner' || myRole === 'owner';
}
