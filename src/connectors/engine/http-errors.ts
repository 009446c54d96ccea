import { STATUS_CODES } from 'node:http';

const EXCERPT_LENGTH = 200;

/** The start of a response body on one line, for error texts. */
export function excerpt(body: Buffer): string {
  const text = body
    .subarray(0, EXCERPT_LENGTH * 4)
    .toString('utf8')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH)}…` : text;
}

export function httpErrorText(status: number, where: string, body: Buffer): string {
  const reason = STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : '';
  const sample = excerpt(body);
  return `HTTP ${status}${reason} from ${where}${sample ? `: ${sample}` : ''}`;
}
