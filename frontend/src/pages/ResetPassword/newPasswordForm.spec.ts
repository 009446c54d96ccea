import { newPasswordProblem } from './newPasswordForm';

describe('newPasswordProblem', () => {
  it('asks for 8 characters, typed the same twice', () => {
    expect(newPasswordProblem('short', 'short')).toBe('The new password needs at least 8 characters');
    expect(newPasswordProblem('long-enough', 'long-enoug')).toBe('The passwords do not match');
    expect(newPasswordProblem('long-enough', 'long-enough')).toBeNull();
  });
});
