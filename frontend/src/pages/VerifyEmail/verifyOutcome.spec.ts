import { ApiError } from '../../api/client';
import { verifyOutcome } from './verifyOutcome';

describe('verifyOutcome', () => {
  it("says '✅ Email verified!' and goes to /login on success", () => {
    expect(verifyOutcome(null)).toEqual({ text: '✅ Email verified!', severity: 'success', next: '/login' });
  });

  it("shows the server's message and goes to /register when the link is refused", () => {
    const error = new ApiError(400, 'This verification link has expired', {
      error: 'This verification link has expired',
    });
    expect(verifyOutcome(error)).toEqual({
      text: 'This verification link has expired',
      severity: 'error',
      next: '/register',
    });
  });

  it("says 'Verification failed' and goes to /register when the server gave no message", () => {
    expect(verifyOutcome(new ApiError(500, 'Internal Server Error', undefined))).toEqual({
      text: 'Verification failed',
      severity: 'error',
      next: '/register',
    });
  });

  it('sends someone logged in (so verified already) on to /manage when a used link is opened again', () => {
    const used = new ApiError(400, 'This verification link was already used', {
      error: 'This verification link was already used',
    });
    expect(verifyOutcome(used, true)).toEqual({
      text: 'Your email is already verified.',
      severity: 'success',
      next: '/manage',
    });
    expect(verifyOutcome(null, true).next).toBe('/manage');
  });

  it("says 'Error verifying' and stays for another try when the network failed", () => {
    expect(verifyOutcome(new TypeError('Failed to fetch'))).toEqual({
      text: 'Error verifying',
      severity: 'error',
      next: null,
    });
  });
});
