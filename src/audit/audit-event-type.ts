/** Every event the audit log records; the screen and the filter offer exactly these. */
export const AUDIT_EVENT_TYPES = [
  'sign_in',
  'sign_in_failed',
  'sign_out',
  'password_changed',
  'password_reset',
  'two_factor_enabled',
  'two_factor_disabled',
  'api_key_rotated',
  'api_token_created',
  'api_token_revoked',
  'purchase_granted',
  'refund',
  'listing_published',
  'listing_unpublished',
  'dataset_deleted',
  'connection_deleted',
  'paid_data_queried',
  'organisation_created',
  'organisation_deleted',
  'organisation_member_invited',
  'organisation_member_joined',
  'organisation_member_role_changed',
  'organisation_member_removed',
  'organisation_member_left',
  'dataset_moved_to_organisation',
  'organisation_sso_configured',
  'organisation_sso_required',
  'organisation_sso_optional',
  'organisation_sso_domain_added',
  'organisation_sso_domain_verified',
  'organisation_sso_domain_removed',
] as const;
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/** Ids and small facts only: never a secret, a token, a password or a whole query. */
export type AuditDetail = Record<string, string | number | boolean | null | string[]>;
