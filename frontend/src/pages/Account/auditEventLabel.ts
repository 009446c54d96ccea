const LABELS: Record<string, string> = {
  sign_in: 'Signed in',
  sign_in_failed: 'Failed sign-in (wrong password)',
  sign_out: 'Signed out',
  password_changed: 'Password changed',
  password_reset: 'Password reset by e-mail link',
  two_factor_enabled: 'Two-factor sign-in turned on',
  two_factor_disabled: 'Two-factor sign-in turned off',
  api_key_rotated: 'New personal API key',
  api_token_created: 'API token created',
  api_token_revoked: 'API token revoked',
  purchase_granted: 'Dataset bought',
  refund: 'Purchase refunded',
  listing_published: 'Dataset published',
  listing_unpublished: 'Dataset unpublished',
  dataset_deleted: 'Dataset deleted',
  connection_deleted: 'Connection deleted',
  paid_data_queried: 'Query over bought data',
  organisation_created: 'Organisation created',
  organisation_deleted: 'Organisation deleted',
  organisation_member_invited: 'Member invited to an organisation',
  organisation_member_joined: 'Joined an organisation',
  organisation_member_role_changed: 'Organisation member’s role changed',
  organisation_member_removed: 'Member removed from an organisation',
  organisation_member_left: 'Left an organisation',
  dataset_moved_to_organisation: 'Dataset moved into an organisation',
  organisation_sso_configured: 'Single sign-on provider set',
  organisation_sso_required: 'Single sign-on required',
  organisation_sso_optional: 'Single sign-on no longer required',
  organisation_sso_domain_added: 'Domain added for single sign-on',
  organisation_sso_domain_verified: 'Domain verified for single sign-on',
  organisation_sso_domain_removed: 'Domain removed from single sign-on',
};

/** The activity log's words for an event type; an unknown (newer) type shows as it is. */
export function auditEventLabel(type: string): string {
  return LABELS[type] ?? type;
}
