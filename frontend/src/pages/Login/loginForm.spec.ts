import { canSubmitLogin, loginCodeInput } from './loginForm';

describe('canSubmitLogin', () => {
  it('needs both e-mail and password', () => {
    expect(canSubmitLogin('ada@example.com', 'secret-pass')).toBe(true);
    expect(canSubmitLogin('', 'secret-pass')).toBe(false);
    expect(canSubmitLogin('  ', 'secret-pass')).toBe(false);
    expect(canSubmitLogin('ada@example.com', '')).toBe(false);
  });
});

describe('loginCodeInput', () => {
  it('sends six digits as an app code, spaces taken out', () => {
    expect(loginCodeInput(' 123 456 ', false)).toEqual({ code: '123456' });
    expect(loginCodeInput('12345', false)).toBeNull();
    expect(loginCodeInput('abcdef', false)).toBeNull();
  });

  it('sends any typed recovery code as it is, trimmed', () => {
    expect(loginCodeInput(' k3xq-9fmz-a2pt-7wne ', true)).toEqual({ recovery_code: 'k3xq-9fmz-a2pt-7wne' });
    expect(loginCodeInput('  ', true)).toBeNull();
  });
});
