import type { Request } from 'express';

/** Whether the request carries a cookie of that name, whatever its value (signed or not). */
export function carriesCookie(request: Request, name: string): boolean {
  const cookies = request.headers.cookie;
  if (!cookies) return false;
  return cookies.split(';').some((cookie) => cookie.trim().startsWith(`${name}=`));
}
