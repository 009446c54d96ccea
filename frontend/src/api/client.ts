/** The one place the SPA talks HTTP: same-origin `/api/...`, cookies included, JSON in and out. */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Sent as JSON unless it is FormData. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Server error text is read from an error field, or else from a message field (authentication answers). */
export function errorText(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const { error, message } = body as { error?: unknown; message?: unknown };
    if (typeof error === 'string' && error) return error;
    if (typeof message === 'string' && message) return message;
  }
  return undefined;
}

/**
 * The one message for a failed call: the server's own words for a refusal (4xx with an error
 * text), otherwise the screen's fallback. A 5xx's generic text or a proxy's status line means
 * nothing to the user.
 */
export function refusalOr(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500)
    return errorText(error.body) ?? fallback;
  return fallback;
}

/**
 * Calls `/api/<path>`. Resolves with the parsed body on 2xx; rejects with ApiError (status and
 * server text) otherwise, or with a TypeError when the network itself failed.
 */
export async function api<T>(path: string, options: ApiOptions = {}): Promise<T> {
  return (await apiWithHeaders<T>(path, options)).body;
}

/** Like api(), with the answer's headers too (the total of a paged list comes in X-Total-Count). */
export async function apiWithHeaders<T>(
  path: string,
  options: ApiOptions = {},
): Promise<{ body: T; headers: Headers }> {
  const isForm = typeof FormData !== 'undefined' && options.body instanceof FormData;
  const response = await fetch(`/api/${path.replace(/^\//, '')}`, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    credentials: 'include',
    headers: {
      Accept: 'application/json',
      ...(options.body !== undefined && !isForm ? { 'Content-Type': 'application/json' } : {}),
      ...options.headers,
    },
    body:
      options.body === undefined
        ? undefined
        : isForm
          ? (options.body as FormData)
          : JSON.stringify(options.body),
    signal: options.signal,
  });
  const body = parseBody(await response.text());
  if (!response.ok) {
    throw new ApiError(response.status, errorText(body) ?? response.statusText, body);
  }
  return { body: body as T, headers: response.headers };
}

/** JSON when the body is JSON, the text itself otherwise (a proxy's HTML error page), undefined when empty. */
export function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
