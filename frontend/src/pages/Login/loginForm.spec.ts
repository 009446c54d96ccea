import { canSubmitLogin } from './loginForm';

describe('canSubmitLogin', () => {
  it('needs both e-mail and password', () => {
    expect(canSubmitLogin('ada@example.com', 'secret-pass')).toBe(true);
    expect(canSubmitLogin('', 'secret-pass')).toBe(false);
    expect(canSubmitLogin('  ', 'secret-pass')).toBe(false);
    expect(canSubmitLogin('ada@example.com', '')).toBe(false);
  });
});
