import type {
  BodyFormat,
  IncrementalSpec,
  PaginationSpec,
  RecordShaping,
  ResponseFormat,
  RequestOptions,
  ResponseFilter,
  SpecAuth,
} from '../dsl/connector-spec.types';
import type { TokenStore } from './auth/token-store';
import type { ResponseValidators } from './conditional-request';

/** Everything the engine needs to execute one run, already resolved from connector + instance. */
export interface RunPlan {
  /** URL template with {{placeholders}} (query included). */
  urlTemplate: string;
  method: 'GET' | 'POST';
  /** Header name -> value template. */
  headers: Record<string, string>;
  /** JSON body template (POST only). */
  bodyTemplate?: string | null;
  /** How the body is sent: JSON (default) or application/x-www-form-urlencoded. */
  bodyFormat?: BodyFormat;
  auth?: SpecAuth | null;
  authData: Record<string, string>;
  /** The spec's base_url: the session login and relative token URLs resolve against it. */
  baseUrl?: string | null;
  /** Where an OAuth2 token obtained by exchange is cached between runs. */
  tokenStore?: TokenStore;
  pagination?: PaginationSpec | null;
  responsePath?: string | null;
  /** Nested settings; placeholders and declared query parameters come from here. */
  settings: Record<string, unknown>;
  /**
   * Setting paths declared by the spec's fields that go to the query when no template uses
   * them. Settings not declared never reach the upstream.
   */
  declaredParams?: string[];
  /** Setting keys (dotted) whose array values each get their own request sequence. */
  iterations?: string[];
  responseFilters?: ResponseFilter[];
  requestOptions?: RequestOptions;
  /** Requests under one key share the rate budget (the connector id). */
  budgetKey?: string;
  /** Substream: run once per record of this parent plan, its field placed in a setting. */
  parent?: { plan: RunPlan; field: string; as: string };
  format?: ResponseFormat;
  records?: RecordShaping;
  incremental?: IncrementalSpec;
  /** Send the kept ETag / Last-Modified (`state.validators`): a 304 answer means no change. */
  conditional?: boolean;
  /** The saved state of an incremental instance (`{ cursor }`), read by templates as {{state.cursor}}. */
  state?: IncrementalState | null;
  /** The clock of the run (tests set it); now when absent. */
  now?: Date;
}

export interface IncrementalState {
  cursor?: string | number | null;
  /** Conditional requests: the version of the answer the table holds. */
  validators?: ResponseValidators;
}

/** One page of records, tagged with the iteration values that produced it. */
export interface FetchedPage {
  records: Record<string, unknown>[];
  /** Iterated setting key (or a parent's `as` key) -> the value of this request sequence. */
  iteration: Record<string, unknown>;
}
