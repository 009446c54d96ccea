import { mayManageMember, rolesAssignableBy } from './organisationRoles';

describe('organisation roles on screen', () => {
  it('offers owners every role, admins every role but owner, others none', () => {
    expect(rolesAssignableBy('owner')).toEqual(['owner', 'admin', 'editor', 'viewer']);
    expect(rolesAssignableBy('admin')).toEqual(['admin', 'editor', 'viewer']);
    expect(rolesAssignableBy('editor')).toEqual([]);
    expect(rolesAssignableBy('viewer')).toEqual([]);
  });

  it('lets admins manage everyone but owners, and owners everyone', () => {
    expect(mayManageMember('owner', 'owner')).toBe(true);
    expect(mayManageMember('admin', 'owner')).toBe(false);
    expect(mayManageMember('admin', 'viewer')).toBe(true);
    expect(mayManageMember('editor', 'viewer')).toBe(false);
  });
});
