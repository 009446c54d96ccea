import { formatBytes, holdersLosingAccess } from './ownerRules';

describe('owner rules', () => {
  it('counts holders other than the owner', () => {
    expect(holdersLosingAccess(1)).toBe(0);
    expect(holdersLosingAccess(4)).toBe(3);
    expect(holdersLosingAccess(0)).toBe(0);
  });

  it('writes byte counts for people', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(20 * 1024 * 1024)).toBe('20 MB');
  });
});
