import { DEFAULT_AFTER_LOGIN, loginPath, pathAfterLogin, safeNextPath } from './loginReturn';

describe('returning after login', () => {
  it('goes back to a path on this site, with its query', () => {
    expect(pathAfterLogin('/dataset_profile/42?tab=data')).toBe('/dataset_profile/42?tab=data');
  });

  it('goes to /manage when there is nowhere (or nowhere safe) to return to', () => {
    expect(pathAfterLogin(null)).toBe(DEFAULT_AFTER_LOGIN);
    expect(pathAfterLogin('')).toBe('/manage');
  });

  it.each([
    '//evil.com',
    '//evil.com/path',
    'https://evil.com/',
    'http://evil.com',
    'javascript:alert(1)',
    '/\\evil.com',
    '/\\\\evil.com',
    '/%0a/evil.com'.replace('%0a', '\n'),
    'evil.com',
    '/login',
    '/register?x=1',
    '/verify-email/token',
  ])('refuses %j as a place to return to', (next) => {
    expect(safeNextPath(next)).toBeNull();
    expect(pathAfterLogin(next)).toBe('/manage');
  });

  it('builds the /login address that remembers the current screen', () => {
    expect(loginPath({ pathname: '/dataset_profile/42', search: '?a=1' })).toBe(
      '/login?next=%2Fdataset_profile%2F42%3Fa%3D1',
    );
    expect(loginPath({ pathname: '/login' })).toBe('/login');
  });
});
