import { SESSION_COOKIE } from '../../../src/app.setup';

/** The full Set-Cookie line for the session cookie, if the response set one. */
export function sessionSetCookie(headers: Record<string, unknown>): string | undefined {
  const raw = headers['set-cookie'];
  const lines = Array.isArray(raw) ? (raw as string[]) : typeof raw === 'string' ? [raw] : [];
  return lines.find((line) => line.startsWith(`${SESSION_COOKIE}=`));
}

/** `dm.sid=<value>` ready for a Cookie header. */
export function sessionCookie(headers: Record<string, unknown>): string {
  const line = sessionSetCookie(headers);
  if (!line) throw new Error('The response set no session cookie');
  return line.split(';')[0];
}
