import { auditQuery, organisationAuditExportUrl } from './audit';

describe('audit log requests', () => {
  it('repeats type for each chosen type and leaves out what is not given', () => {
    expect(auditQuery({ types: ['sign_in', 'sign_out'], limit: 20, before: undefined })).toBe(
      '?type=sign_in&type=sign_out&limit=20',
    );
    expect(auditQuery({ types: [], before: '41' })).toBe('?before=41');
    expect(auditQuery({})).toBe('');
  });

  it('downloads an organisation’s log in the chosen format with the filter on screen', () => {
    expect(organisationAuditExportUrl('org-1', 'jsonl', ['organisation_created'])).toBe(
      '/api/organisations/org-1/audit/export?type=organisation_created&format=jsonl',
    );
    expect(organisationAuditExportUrl('org-1', 'csv', [])).toBe(
      '/api/organisations/org-1/audit/export?format=csv',
    );
  });
});
