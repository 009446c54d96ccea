import type { Member } from '../../api/organisations';
import { actorName, ORGANISATION_AUDIT_FILTERS, organisationAuditLabel } from './organisationAuditLog';

describe('the organisation’s audit log on screen', () => {
  it('words membership events from the organisation’s side, others as the personal log does', () => {
    expect(organisationAuditLabel('organisation_member_joined')).toBe('Member joined');
    expect(organisationAuditLabel('organisation_member_left')).toBe('Member left');
    expect(organisationAuditLabel('dataset_deleted')).toBe('Dataset deleted');
    expect(organisationAuditLabel('something_new')).toBe('something_new');
  });

  it('offers a label for every type in its filter', () => {
    for (const type of ORGANISATION_AUDIT_FILTERS) expect(organisationAuditLabel(type)).not.toBe(type);
  });

  it('names a current member who acted, and not someone who has left', () => {
    const members = [{ user_id: 'u1', name: 'Ada Admin' }] as Member[];
    expect(actorName('u1', members)).toBe('Ada Admin');
    expect(actorName('u2', members)).toBe('A former member');
    expect(actorName('u1', undefined)).toBe('A former member');
    expect(actorName(null, members)).toBe('Nobody signed in');
  });
});
