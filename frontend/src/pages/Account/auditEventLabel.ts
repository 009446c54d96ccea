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
};

/** The activity log's words for an event type; an unknown (newer) type shows as it is. */
export function auditEventLabel(type: string): string {
  return LABELS[type] ?? type;
}
