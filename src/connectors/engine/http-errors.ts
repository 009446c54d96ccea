import { STATUS_CODES } from 'node:http';

const EXCERPT_LENGTH = 200;

/** Control characters other than whitespace: PostgreSQL text cannot hold NUL, and none reads as text. */
// eslint-disable-next-line no-control-regex -- finding control characters is what it is for
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/** Text fit for a message: control characters (a NUL from a binary answer) shown as U+FFFD. */
export function printable(text: string): string {
  return text.replace(CONTROL_CHARACTERS, '\uFFFD');
}

/** Whether a body's start is binary data (a NUL, or mostly bytes that are not UTF-8 text). */
function looksBinary(sample: Buffer): boolean {
  if (sample.includes(0)) return true;
  const text = sample.toString('utf8');
  // eslint-disable-next-line no-control-regex -- counting control characters is what it is for
  const unreadable = text.match(/[\uFFFD\u0000-\u0008\u000E-\u001F]/g)?.length ?? 0;
  return unreadable > text.length / 10;
}

/** The start of a response body on one line, for error texts; binary data only by its size. */
export function excerpt(body: Buffer): string {
  const sample = body.subarray(0, EXCERPT_LENGTH * 4);
  if (looksBinary(sample)) return `(${body.length} bytes of binary data)`;
  const text = printable(sample.toString('utf8')).replace(/\s+/g, ' ').trim();
  return text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH)}…` : text;
}

/**
 * A parser's complaint about a body, for an error text: JSON.parse quotes the text it choked on,
 * so for binary data only the excerpt's size is kept.
 */
export function parseProblem(error: unknown, body: Buffer): string {
  const sample = excerpt(body);
  if (sample.endsWith('bytes of binary data)')) return sample;
  const reason = printable(error instanceof Error ? error.message : String(error));
  return `(${reason}): ${sample}`;
}

export function httpErrorText(status: number, where: string, body: Buffer): string {
  const reason = STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : '';
  const sample = excerpt(body);
  return `HTTP ${status}${reason} from ${where}${sample ? `: ${sample}` : ''}`;
}
