import { ApiError } from '../../../api/client';

/** The server's reason in one line: its error text, or every validation message. */
export function ownerErrorText(error: unknown): string {
  if (error instanceof ApiError) {
    const body = error.body as { errors?: unknown; message?: unknown } | undefined;
    const messages = [body?.errors, body?.message]
      .flat()
      .filter((text): text is string => typeof text === 'string');
    const unique = [...new Set([error.message, ...messages])].filter(Boolean);
    return unique.join(' ');
  }
  return error instanceof Error ? error.message : 'Something went wrong. Please try again.';
}
