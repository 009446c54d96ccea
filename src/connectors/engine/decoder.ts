import { ConnectorFetchError } from './connector-fetch-error';
import { excerpt } from './http-errors';
import type { HttpResponse } from './safe-http-client';

/** Decodes a response body as JSON (an empty body is null). */
export function decodeJson(response: HttpResponse, where: string): unknown {
  const text = response.body.toString('utf8');
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ConnectorFetchError(
      `Response from ${where} is not valid JSON (${(error as Error).message}): ${excerpt(response.body)}`,
    );
  }
}
