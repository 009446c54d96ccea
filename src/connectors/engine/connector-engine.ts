import { DateTime } from 'luxon';
import { Authenticator } from './auth/authenticator';
import {
  conditionalRequest,
  NOT_MODIFIED_NOTE,
  ResponseValidators,
  validatorsOf,
} from './conditional-request';
import { decodeJson, decoderFor } from './decoder';
import type { EngineLimits } from './engine-limits';
import {
  CursorSeen,
  foldCursor,
  incrementalRead,
  IncrementalRead,
  isoText,
  KEPT_STATE_WARNING,
  keepsPreviousState,
  noCursorSeen,
  requireCursorSeen,
} from './incremental';
import type { PageToken } from './paginator';
import { Paginator } from './paginator';
import { ignoredWarning, IgnoredResponse } from './ignored-responses';
import { iterationsOf, partitionSettings } from './partitions';
import { shapePage } from './record-shaping';
import type { RequestLogEntry } from './requester';
import { Requester } from './requester';
import { valueAtResponsePath } from './response-path';
import type { FetchedPage, RunPlan } from './run-plan';
import { SafeHttpClient } from './safe-http-client';

export interface RunProgress {
  pages: number;
  rows: number;
  /** Why the run may not hold everything the upstream has (a cap stopped it); shown on the run. */
  warnings: string[];
  /** Answers a response filter ignored; summed up in one warning when the pages end. */
  ignored: IgnoredResponse[];
  /** Incremental runs: the cursor values of the rows read (the greatest is saved when they commit). */
  cursor: CursorSeen;
  /** Whether a cap (max_pages, the engine's page or row limit) ended the run before its end. */
  capped: boolean;
  /** Conditional requests: the answer's version, kept when the rows commit. */
  validators?: ResponseValidators;
  /** Conditional requests: the upstream answered 304, so the table stays as it is. */
  unchanged?: boolean;
  /** When set (test read), every request made is noted here. */
  requests?: RequestLogEntry[];
  /** A tighter row cap for this run (test read). */
  maxRows?: number;
  /** A tighter page cap for this run (test read). */
  maxPages?: number;
  /**
   * The tokens the auth stage obtained (access, session and refresh tokens): secrets like the
   * auth data, so masked wherever the run's errors and requests are shown, kept or logged.
   */
  obtainedTokens: Set<string>;
}

export function newProgress(): RunProgress {
  return {
    pages: 0,
    rows: 0,
    warnings: [],
    obtainedTokens: new Set(),
    ignored: [],
    cursor: noCursorSeen(),
    capped: false,
  };
}

/** Marks the parent record on a partition (a symbol: never a column, never a setting). */
const PARENT_RECORD = Symbol('parent record');
type Partition = Record<string, unknown> & { [PARENT_RECORD]?: Record<string, unknown> };

/** Thrown inside the pipeline when a run-wide cap is reached: the run ends, with a warning. */
class CapReached extends Error {}

/**
 * Runs the pipeline of a run plan. Partitions (iteration values, parent records) wrap it; for
 * each, the auth stage supplies credentials, the requester builds and sends each page's
 * request, the decoder parses it, the extractor finds the records and the paginator decides
 * what comes next. Pages are yielded as they arrive so the writer can stream them into the
 * table. A cap (max_pages, the engine's page or row limits) ends the run with a warning on
 * `progress`, never silently.
 */
export class ConnectorEngine {
  private readonly http: SafeHttpClient;
  private readonly requester: Requester;

  constructor(readonly limits: EngineLimits) {
    this.http = new SafeHttpClient(limits);
    this.requester = new Requester(this.http, limits);
  }

  destroy(): void {
    this.http.destroy();
  }

  async *pages(plan: RunPlan, progress: RunProgress = newProgress()): AsyncGenerator<FetchedPage> {
    try {
      yield* this.stream(plan, progress, true);
    } catch (error) {
      if (!(error instanceof CapReached)) throw error;
    } finally {
      const ignored = ignoredWarning(progress.ignored);
      if (ignored) warn(progress, ignored);
    }
    if (plan.incremental) {
      requireCursorSeen(plan.incremental, progress.rows, progress.cursor);
      if (keepsPreviousState(progress.cursor, progress.capped)) warn(progress, KEPT_STATE_WARNING);
    }
  }

  private async *stream(plan: RunPlan, progress: RunProgress, stored: boolean): AsyncGenerator<FetchedPage> {
    const auth = new Authenticator(
      plan,
      (request) => this.requester.sendRaw(request),
      progress.obtainedTokens,
    );
    const now = plan.now ? DateTime.fromJSDate(plan.now, { zone: 'utc' }) : DateTime.utc();
    const incremental = incrementalRead(plan, now);
    const decode = decoderFor(plan.format);
    const maxPages = Math.min(progress.maxPages ?? Infinity, this.limits.maxPagesPerRun);
    const maxRows = Math.min(progress.maxRows ?? Infinity, this.limits.maxRowsPerRun);
    const log = progress.requests ? (entry: RequestLogEntry) => progress.requests!.push(entry) : undefined;
    // Only an operation of one request has one version to ask about.
    const conditional =
      stored &&
      plan.conditional === true &&
      !plan.parent &&
      (plan.pagination?.type ?? 'none') === 'none' &&
      !incremental?.windows &&
      iterationsOf(plan, this.limits.maxIterations).length === 1;
    for await (const partition of this.partitionsOf(plan, progress)) {
      // Date-range reads: one request sequence per window, inside each partition.
      for (const window of incremental?.windows ?? [null]) {
        const settings = {
          ...partitionSettings(plan.settings, partition),
          ...runValues(plan, now, incremental, window),
        };
        const paginator = new Paginator(plan.pagination ?? { type: 'none' });
        for (;;) {
          if (progress.pages >= maxPages) {
            progress.capped = true;
            warn(
              progress,
              `Stopped at the limit of ${maxPages} pages per run while more pages were due: more data may exist`,
            );
            throw new CapReached();
          }
          const token = withIncrementalParams(paginator.params(), plan, incremental, window);
          const accepted = await this.requester.send(
            plan,
            auth,
            (credentials) => {
              const request = this.requester.build(plan, credentials, settings, token);
              return conditional ? conditionalRequest(request, plan.state?.validators) : request;
            },
            decode,
            log,
          );
          progress.pages++;
          if ('notModified' in accepted) {
            progress.unchanged = true;
            warn(progress, NOT_MODIFIED_NOTE);
            break;
          }
          if ('ignoredStatus' in accepted) {
            progress.ignored.push({ status: accepted.ignoredStatus, partition: { ...partition } });
            break;
          }
          if (conditional) progress.validators = validatorsOf(accepted.response, accepted.requestUrl);
          const fetched = shapePage(accepted.document, plan.responsePath, plan.records, {
            settings,
            partition: { ...partition },
            parent: partition[PARENT_RECORD],
          });
          // The paginator counts what the upstream answered (short pages), not what the filter kept.
          const answered = plan.records?.filter ? selectedOnly(accepted.document, plan) : fetched;
          if (paginator.repeatsShortPage(answered)) break;
          let records = fetched;
          const room = maxRows - progress.rows;
          const cut = stored && records.length > room;
          if (cut) records = records.slice(0, room);
          if (stored) progress.rows += records.length;
          if (stored && plan.incremental)
            progress.cursor = foldCursor(plan.incremental, records, progress.cursor);
          if (records.length > 0) yield { records, iteration: partition };
          if (cut) {
            progress.capped = true;
            warn(progress, `Stopped at the limit of ${maxRows} rows per run: more data may exist`);
            throw new CapReached();
          }
          const more = paginator.advance({
            records: answered,
            document: accepted.document,
            headers: accepted.response.headers,
            url: accepted.response.url,
          });
          if (paginator.capped) {
            progress.capped = true;
            warn(
              progress,
              paginator.capped === 'known'
                ? `Stopped at max_pages (${plan.pagination?.max_pages}) while the upstream had more pages: more data exists`
                : `Stopped at max_pages (${plan.pagination?.max_pages}) with a next page still to ask for: more data may exist`,
            );
          }
          if (!more) break;
        }
      }
    }
  }

  /**
   * The partitions of a plan: each combination of iterated values, and with a parent stream,
   * each of those once per parent record (its field placed in the `as` setting).
   */
  private async *partitionsOf(plan: RunPlan, progress: RunProgress): AsyncGenerator<Partition> {
    const iterations = iterationsOf(plan, this.limits.maxIterations);
    if (!plan.parent) {
      yield* iterations;
      return;
    }
    const { field, as } = plan.parent;
    for await (const page of this.stream(plan.parent.plan, progress, false)) {
      for (const record of page.records) {
        const value = valueAtResponsePath(record, field);
        if (value === undefined || value === null) continue;
        for (const iteration of iterations) yield { ...iteration, [as]: value, [PARENT_RECORD]: record };
      }
    }
  }

  /**
   * The decoded first page of a plan, without pagination (options look-ups). The tokens obtained
   * for it are added to `obtainedTokens`, for the caller to mask.
   */
  async fetchOnce(
    plan: RunPlan,
    settings: Record<string, unknown>,
    obtainedTokens: Set<string>,
  ): Promise<unknown> {
    const auth = new Authenticator(plan, (request) => this.requester.sendRaw(request), obtainedTokens);
    const token = { query: {}, headers: {}, body: {}, pathToken: '' };
    const accepted = await this.requester.send(
      plan,
      auth,
      (credentials) => this.requester.build(plan, credentials, settings, token),
      plan.format ? decoderFor(plan.format) : decodeJson,
    );
    return 'document' in accepted ? accepted.document : null;
  }
}

/** What templates read besides the settings: the clock, the saved state, the incremental start, the window. */
function runValues(
  plan: RunPlan,
  now: DateTime,
  incremental: IncrementalRead | null,
  window: { start: string | number; end: string | number } | null,
): Record<string, unknown> {
  const values: Record<string, unknown> = { now: isoText(now), state: plan.state ?? {} };
  if (incremental) values.incremental = { since: incremental.since };
  if (window) values.window = window;
  return values;
}

/** The page token with the incremental start (or the window's bounds) in the declared parameters. */
function withIncrementalParams(
  token: PageToken,
  plan: RunPlan,
  incremental: IncrementalRead | null,
  window: { start: string | number; end: string | number } | null,
): PageToken {
  const spec = plan.incremental;
  if (!spec || !incremental) return token;
  const values: Record<string, string | number> = {};
  if (window) {
    if (spec.window?.start_param) values[spec.window.start_param] = window.start;
    if (spec.window?.end_param) values[spec.window.end_param] = window.end;
  } else if (spec.param && incremental.since !== null) {
    values[spec.param] = incremental.since;
  }
  if (Object.keys(values).length === 0) return token;
  if (spec.in === 'body') return { ...token, body: { ...values, ...token.body } };
  const query = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, String(value)]));
  return { ...token, query: { ...query, ...token.query } };
}

/** The page's records before the filter, for the paginator's short-page rule. */
function selectedOnly(document: unknown, plan: RunPlan): Record<string, unknown>[] {
  const { filter: _filter, ...rest } = plan.records ?? {};
  return shapePage(document, plan.responsePath, rest, { settings: {}, partition: {} });
}

function warn(progress: RunProgress, text: string): void {
  if (!progress.warnings.includes(text)) progress.warnings.push(text);
}
