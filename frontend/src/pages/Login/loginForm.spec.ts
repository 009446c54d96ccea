import { canSubmitLogin, pathAfterLogin } from './loginForm';

describe('canSubmitLogin', () => {
  it('needs both e-mail and password', () => {
    expect(canSubmitLogin('ada@example.com', 'secret-pass')).toBe(true);
    expect(canSubmitLogin('', 'secret-pass')).toBe(false);
    expect(canSubmitLogin('  ', 'secret-pass')).toBe(false);
    expect(canSubmitLogin('ada@example.com', '')).toBe(false);
  });
});

describe('pathAfterLogin', () => {
  it('goes to /manage by default', () => {
    expect(pathAfterLogin(null)).toBe('/manage');
    expect(pathAfterLogin(undefined)).toBe('/manage');
    expect(pathAfterLogin({})).toBe('/manage');
  });

  it('returns to the guarded page that sent the visitor to login', () => {
    expect(pathAfterLogin({ from: '/connector-setup/42?tab=1' })).toBe('/connector-setup/42?tab=1');
  });

  it('never follows a path off the site or back to login', () => {
    expect(pathAfterLogin({ from: '//evil.example/x' })).toBe('/manage');
    expect(pathAfterLogin({ from: 'https://evil.example' })).toBe('/manage');
    expect(pathAfterLogin({ from: '/login' })).toBe('/manage');
  });
});
