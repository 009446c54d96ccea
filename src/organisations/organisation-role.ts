/**
 * A member's role in an organisation. Owners hold everything, including the organisation itself
 * and who else is an owner; admins manage members and billing; editors create and change
 * listings, connections and queries; viewers read what the organisation holds.
 */
export const ORGANISATION_ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type OrganisationRole = (typeof ORGANISATION_ROLES)[number];

/** Owners and admins manage the organisation's details, members and invitations. */
export function managesMembers(role: OrganisationRole): boolean {
  return role === 'owner' || role === 'admin';
}

/** Roles that act as owner of what the organisation owns (change, replace, delete, publish), and get or buy for it. */
export const EDITING_ROLES: readonly OrganisationRole[] = ['owner', 'admin', 'editor'];

export function edits(role: OrganisationRole): boolean {
  return EDITING_ROLES.includes(role);
}
