import { ApiError } from './client';
import { failureText } from './users';

const texts = { fallback: 'Login failed', network: 'Error logging in' };

describe('failureText', () => {
  it("shows the server's message", () => {
    const error = new ApiError(401, 'Invalid email or password', {
      error: 'Invalid email or password',
      message: 'Invalid email or password',
      statusCode: 401,
    });
    expect(failureText(error, texts)).toBe('Invalid email or password');
  });

  it('reads the message field when there is no error field', () => {
    expect(failureText(new ApiError(403, 'Forbidden', { message: 'Please verify your email' }), texts)).toBe(
      'Please verify your email',
    );
  });

  it('falls back to the screen text when the server sent no message', () => {
    expect(failureText(new ApiError(502, 'Bad Gateway', '<html>proxy error</html>'), texts)).toBe(
      'Login failed',
    );
    expect(failureText(new ApiError(500, 'Internal Server Error', undefined), texts)).toBe('Login failed');
  });

  it('shows the network text when the request got no answer', () => {
    expect(failureText(new TypeError('Failed to fetch'), texts)).toBe('Error logging in');
  });

  it('treats anything else as a plain failure', () => {
    expect(failureText(new Error('odd'), texts)).toBe('Login failed');
  });
});
