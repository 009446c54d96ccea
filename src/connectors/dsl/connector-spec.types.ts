import type { SchemaField } from '../entities/connector.entity';

/** The connector upload DSL (documented on the /documentation page), as the JSON Schema in connector-spec.schema.ts accepts it. */
export type AuthType = 'none' | 'bearer' | 'api_key' | 'basic' | 'header' | 'oauth2' | 'session';

export interface SpecAuthField {
  key: string;
  label?: string;
  required?: boolean;
}

export interface SpecAuth {
  type: AuthType;
  /** api_key only: where the key goes. */
  in?: 'header' | 'query';
  /** Header or query parameter name (api_key, header). */
  name?: string;
  /** Value template, e.g. "Token {{api_key}}"; defaults per type. */
  format?: string;
  fields?: SpecAuthField[];
  /** oauth2 only: exchange credentials for a token instead of using a supplied one. */
  grant_type?: 'client_credentials' | 'refresh_token';
  token_url?: string;
  scopes?: string[];
  /** Extra form fields sent to the token URL (templates over the auth fields). */
  token_params?: Record<string, string>;
  /** session only: the login request whose answer gives the token. */
  login?: SessionLogin;
}

export interface SessionLogin {
  url_path: string;
  method?: 'GET' | 'POST';
  /** Body of the login request; templates over the auth fields. */
  body?: Record<string, unknown>;
  body_format?: BodyFormat;
  headers?: Record<string, string>;
  /** Where the token is in the login answer: a body path, or a response header. */
  token_path?: string;
  token_header?: string;
}

export type BodyFormat = 'json' | 'form';

export type PaginationType = 'none' | 'page' | 'cursor' | 'offset' | 'link_header' | 'next_url';

export interface PaginationSpec {
  type: PaginationType;
  page_param?: string;
  start_page?: number;
  size_param?: string;
  page_size?: number;
  offset_param?: string;
  limit_param?: string;
  cursor_param?: string;
  /** Where the next cursor sits in the response (dotted path). */
  cursor_path?: string;
  /** Where the total record count sits in the response (dotted path). */
  total_path?: string;
  max_pages?: number;
  /** cursor from a response header instead of a body path. */
  cursor_header?: string;
  /** cursor = this field of the page's last record (e.g. Stripe's starting_after = id). */
  cursor_record_field?: string;
  /** next_url: where the full next URL sits in the body (e.g. links.next). */
  next_url_path?: string;
  /** Where the page token (page, offset or cursor) goes; `path` fills {{page_token}}. */
  inject_into?: 'query' | 'body' | 'header' | 'path';
  /** Stop when this boolean in the body is false (e.g. has_more). */
  has_more_path?: string;
  /** Whether a page shorter than page_size ends the sequence (default: page and offset only). */
  stop_on_short_page?: boolean;
}

/** What to do with an answer: by status, by a header value or by a value in the body. */
export interface ResponseFilter {
  http_codes?: number[];
  /** Body path whose value is compared with `equals`. */
  path?: string;
  header?: string;
  equals?: string | number | boolean | null;
  action: 'ignore' | 'fail' | 'retry';
  /** Body path of the upstream's own error message (fail). */
  message_path?: string;
}

/** Per-connector request behaviour, held within the server's limits. */
export interface RequestOptions {
  timeout_seconds?: number;
  retries?: number;
  backoff?: 'exponential' | 'constant';
  backoff_seconds?: number;
  /** At most `requests` requests every `per_seconds` across every run of the connector. */
  rate_limit?: { requests: number; per_seconds: number };
}

/** A child operation runs once per record of its parent operation (substreams). */
export interface ParentStream {
  operation: string;
  /** Field of the parent record (dotted path). */
  field: string;
  /** Setting key the value is placed in for the child's templates. */
  as: string;
}

export interface OperationSpec {
  id: string;
  name?: string;
  method?: 'GET' | 'POST';
  url_path: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  params_fields?: SchemaField[];
  pagination?: PaginationSpec;
  response_path?: string;
  body_format?: BodyFormat;
  response_filters?: ResponseFilter[];
  parent?: ParentStream;
  /** How the answer is decoded: JSON (default), JSON Lines or CSV. */
  format?: ResponseFormat;
  /** Which values of the answer are records, and how each is shaped into a row. */
  records?: RecordShaping;
  /** Read only what changed since the last committed run. */
  incremental?: IncrementalSpec;
  /** Fields identifying a record: rows are upserted on them instead of appended. */
  primary_key?: string[];
  /** Keep the answer's ETag / Last-Modified and ask next time only for a newer version (304: no change). */
  conditional_requests?: boolean;
}

export interface ResponseFormat {
  type: 'json' | 'jsonl' | 'csv';
  /** csv only: the field separator (default `,`). */
  delimiter?: string;
}

/** A comparison on one field of a shaped record; records for which it is false are dropped. */
export interface RecordFilter {
  field: string;
  op: 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'exists' | 'not_exists';
  value?: string | number | boolean | null | Array<string | number | boolean>;
}

/**
 * Record selection and shaping, applied in this order: path (with `*` wildcards), header_row, zip, flatten,
 * add_fields, remove_fields, rename_fields, filter.
 */
export interface RecordShaping {
  /** Dotted path to the records; `*` steps over every item of an array or value of an object. */
  path?: string;
  /** With a `*` over object values: the key of each value is kept in this field. */
  key_field?: string;
  /** The selected values are arrays: the first names the fields, each later one is a record (Google Sheets). */
  header_row?: true;
  /** Parallel arrays of each selected object (all of them with `true`) become one row per index. */
  zip?: true | string[];
  /** Nested objects become `parent_child` fields, down to this depth (1 = one level). */
  flatten_depth?: number;
  /** Field -> template: settings, {{partition.key}}, {{parent.field}}, {{record.field}}, date functions. */
  add_fields?: Record<string, string>;
  remove_fields?: string[];
  /** Old field -> new field. */
  rename_fields?: Record<string, string>;
  filter?: RecordFilter;
}

/** How the last committed cursor value (or a start value) is sent to read only what is new. */
export interface IncrementalSpec {
  /** Field of the shaped record whose greatest value is saved when the run commits. */
  cursor_field: string;
  /** Query or body parameter the cursor is sent in (not needed when templates use {{state.cursor}}). */
  param?: string;
  in?: 'query' | 'body';
  /** How the cursor is written: iso (default), date (yyyy-MM-dd), unix, unix_ms, rfc2822, http, or a luxon format. */
  format?: string;
  /**
   * How the records write the cursor, when not ISO: rfc2822, http, unix, unix_ms, or a luxon
   * format. Cursors are then compared as instants and sent back in `format`.
   */
  cursor_format?: string;
  /** Setting key holding the first run's start value (a date or a number). */
  start_setting?: string;
  /** Start value when neither a state nor the setting has one (ISO date, or a duration back from now: -P30D). */
  start?: string;
  /** ISO-8601 duration re-read before the cursor on every run (late updates), e.g. PT1H. */
  lookback?: string;
  /** Date ranges: one request sequence per window from the start to now. */
  window?: {
    /** ISO-8601 duration of one window, e.g. P1D or P30D. */
    step: string;
    start_param?: string;
    end_param?: string;
  };
}

export interface ConnectorSpec {
  title?: string;
  description?: string;
  category?: string;
  protocol?: string;
  base_url?: string;
  auth?: SpecAuth;
  requests?: RequestOptions;
  operations: OperationSpec[];
  fields?: SchemaField[];
}
