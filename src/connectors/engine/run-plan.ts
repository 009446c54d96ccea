import type { PaginationSpec, SpecAuth } from '../dsl/connector-spec.types';

/** Everything the engine needs to execute one run, already resolved from connector + instance. */
export interface RunPlan {
  /** URL template with {{placeholders}} (query included). */
  urlTemplate: string;
  method: 'GET' | 'POST';
  /** Header name -> value template. */
  headers: Record<string, string>;
  /** JSON body template (POST only). */
  bodyTemplate?: string | null;
  auth?: SpecAuth | null;
  authData: Record<string, string>;
  pagination?: PaginationSpec | null;
  responsePath?: string | null;
  /** Nested settings; placeholders and query parameters come from here. */
  settings: Record<string, unknown>;
  /** Setting keys (dotted) whose array values each get their own request sequence. */
  iterations?: string[];
}

/** One page of records, tagged with the iteration values that produced it. */
export interface FetchedPage {
  records: Record<string, unknown>[];
  /** Iterated setting key -> the value of this request sequence. */
  iteration: Record<string, unknown>;
}
