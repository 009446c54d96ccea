import type { Member } from '../../api/organisations';
import { auditEventLabel } from '../Account/auditEventLabel';

/**
 * The organisation's audit log on screen: its events worded from the organisation's side (the
 * personal log says "Joined an organisation", here a member joined), and who acted.
 */
const LABELS: Record<string, string> = {
  organisation_created: 'Organisation created',
  organisation_member_invited: 'Member invited',
  organisation_member_joined: 'Member joined',
  organisation_member_role_changed: 'Member’s role changed',
  organisation_member_removed: 'Member removed',
  organisation_member_left: 'Member left',
};

/** What the filter offers: the organisation's own events first, then those about its data. */
export const ORGANISATION_AUDIT_FILTERS = [
  'organisation_created',
  'organisation_member_invited',
  'organisation_member_joined',
  'organisation_member_role_changed',
  'organisation_member_removed',
  'organisation_member_left',
  'organisation_sso_configured',
  'organisation_sso_required',
  'organisation_sso_optional',
  'organisation_sso_domain_added',
  'organisation_sso_domain_verified',
  'organisation_sso_domain_removed',
  'sign_in',
  'listing_published',
  'listing_unpublished',
  'dataset_deleted',
  'connection_deleted',
] as const;

export function organisationAuditLabel(type: string): string {
  return LABELS[type] ?? auditEventLabel(type);
}

/** A current member by name; someone who has since left (or deleted the account) is not named. */
export function actorName(userId: string | null, members: readonly Member[] | undefined): string {
  if (!userId) return 'Nobody signed in';
  return members?.find((member) => member.user_id === userId)?.name ?? 'A former member';
}
