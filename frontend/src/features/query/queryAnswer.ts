import { isSafeNumber, parse } from 'lossless-json';

/**
 * Reads the JSON answer of a query without losing digits: a number JavaScript cannot hold
 * exactly (a bigint id, a long numeric) stays the text PostgreSQL wrote.
 */
export function parseQueryAnswer<T>(text: string): T {
  return parse(text, null, (value) => (isSafeNumber(value) ? Number(value) : value)) as T;
}
