import { auditEventLabel } from './auditEventLabel';

describe('auditEventLabel', () => {
  it('words the recorded event types for people', () => {
    expect(auditEventLabel('sign_in_failed')).toBe('Failed sign-in (wrong password)');
    expect(auditEventLabel('paid_data_queried')).toBe('Query over bought data');
    expect(auditEventLabel('organisation_member_joined')).toBe('Joined an organisation');
    expect(auditEventLabel('dataset_moved_to_organisation')).toBe('Dataset moved into an organisation');
    expect(auditEventLabel('organisation_sso_required')).toBe('Single sign-on required');
    expect(auditEventLabel('organisation_sso_domain_verified')).toBe('Domain verified for single sign-on');
  });

  it('shows a type it does not know yet as it is', () => {
    expect(auditEventLabel('role_changed')).toBe('role_changed');
  });
});
