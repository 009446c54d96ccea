import { EMPTY_PASSWORD_FORM, passwordFormProblem } from './passwordForm';

const valid = { current: 'old-password', next: 'new-password', confirmation: 'new-password' };

describe('passwordFormProblem', () => {
  it('lets a complete, matching form be sent', () => {
    expect(passwordFormProblem(valid)).toBeNull();
  });

  it('asks for the current password first', () => {
    expect(passwordFormProblem(EMPTY_PASSWORD_FORM)).toBe('Enter your current password');
  });

  it('applies the 8-character rule to the new password', () => {
    expect(passwordFormProblem({ ...valid, next: 'short', confirmation: 'short' })).toBe(
      'The new password needs at least 8 characters',
    );
  });

  it('refuses a new password equal to the current one', () => {
    expect(
      passwordFormProblem({ current: 'same-password', next: 'same-password', confirmation: 'same-password' }),
    ).toBe('The new password must differ from the current one');
  });

  it('needs the confirmation to match', () => {
    expect(passwordFormProblem({ ...valid, confirmation: 'new-passwort' })).toBe(
      'The passwords do not match',
    );
  });
});
