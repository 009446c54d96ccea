import { ApiError, refusalOr } from './client';

describe('refusalOr: the one message shown for a failed call', () => {
  it("shows the server's reason for a refusal", () => {
    const refused = new ApiError(400, 'City is required', { error: 'City is required' });
    expect(refusalOr(refused, 'Activation failed.')).toBe('City is required');
  });

  it("shows the screen's own text for a server failure, a status line or a lost connection", () => {
    const failed = new ApiError(500, 'Internal server error', { error: 'Internal server error' });
    expect(refusalOr(failed, 'Activation failed.')).toBe('Activation failed.');
    expect(refusalOr(new ApiError(400, 'Bad Request', '<html>'), 'Failed to save settings')).toBe(
      'Failed to save settings',
    );
    expect(refusalOr(new TypeError('Failed to fetch'), 'Failed to trigger run')).toBe(
      'Failed to trigger run',
    );
  });
});
