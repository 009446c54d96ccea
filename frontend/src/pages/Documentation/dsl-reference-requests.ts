import type { FieldRow } from './FieldTable';

export const REQUEST_OPTIONS: FieldRow[] = [
  {
    name: 'timeout_seconds',
    type: 'number',
    description: 'Per-request timeout, at most 30 (the server limit, also the default).',
  },
  { name: 'retries', type: 'integer', description: 'Retries after the first attempt, 0 to 10 (default 3).' },
  {
    name: 'backoff / backoff_seconds',
    type: '"exponential" | "constant" / number',
    description:
      'Wait between retries: doubling from backoff_seconds (default 0.5), or always the same. Retry-After (seconds, decimals or an HTTP date) and X-RateLimit-Reset win when the API sends them.',
  },
  {
    name: 'rate_limit',
    type: '{ requests, per_seconds }',
    description:
      'At most requests requests every per_seconds seconds, shared by every run of the connector at the same time.',
  },
];

export const RESPONSE_FILTER_FIELDS: FieldRow[] = [
  { name: 'http_codes', type: 'number[]', description: 'Match these statuses.' },
  {
    name: 'header / equals',
    type: 'string / value',
    description: 'Match when this response header has this value.',
  },
  { name: 'path / equals', type: 'string / value', description: 'Match when this body path has this value.' },
  {
    name: 'action',
    type: '"ignore" | "fail" | "retry"',
    description:
      'ignore: skip the answer and end that request sequence (the other iterations go on; the run warns which were skipped); fail: end the run with the message at message_path; retry: retry like a 429.',
  },
  { name: 'message_path', type: 'string', description: "fail: where the API's own error message is." },
];
