import { Authenticator } from './auth/authenticator';
import { decodeJson } from './decoder';
import type { EngineLimits } from './engine-limits';
import { Paginator } from './paginator';
import { iterationsOf, partitionSettings } from './partitions';
import { Requester } from './requester';
import { extractRecords, valueAtResponsePath } from './response-path';
import type { FetchedPage, RunPlan } from './run-plan';
import { SafeHttpClient } from './safe-http-client';

export interface RunProgress {
  pages: number;
  rows: number;
  /** Why the run may not hold everything the upstream has (a cap stopped it); shown on the run. */
  warnings: string[];
}

export function newProgress(): RunProgress {
  return { pages: 0, rows: 0, warnings: [] };
}

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
    }
  }

  private async *stream(plan: RunPlan, progress: RunProgress, stored: boolean): AsyncGenerator<FetchedPage> {
    const auth = new Authenticator(plan, (request) => this.requester.sendRaw(request));
    for await (const partition of this.partitionsOf(plan, progress)) {
      const settings = partitionSettings(plan.settings, partition);
      const paginator = new Paginator(plan.pagination ?? { type: 'none' });
      for (;;) {
        if (progress.pages >= this.limits.maxPagesPerRun) {
          warn(
            progress,
            `Stopped at the limit of ${this.limits.maxPagesPerRun} pages per run while more pages were due: more data may exist`,
          );
          throw new CapReached();
        }
        const token = paginator.params();
        const accepted = await this.requester.send(
          plan,
          auth,
          (credentials) => this.requester.build(plan, credentials, settings, token),
          decodeJson,
        );
        progress.pages++;
        if (!accepted) break;
        let records = extractRecords(accepted.document, plan.responsePath);
        const room = this.limits.maxRowsPerRun - progress.rows;
        const cut = stored && records.length > room;
        if (cut) records = records.slice(0, room);
        if (stored) progress.rows += records.length;
        if (records.length > 0) yield { records, iteration: partition };
        if (cut) {
          warn(
            progress,
            `Stopped at the limit of ${this.limits.maxRowsPerRun} rows per run: more data may exist`,
          );
          throw new CapReached();
        }
        const more = paginator.advance({
          records,
          document: accepted.document,
          headers: accepted.response.headers,
          url: accepted.response.url,
        });
        if (paginator.capped) {
          warn(
            progress,
            `Stopped at max_pages (${plan.pagination?.max_pages}) while the upstream had more pages: more data may exist`,
          );
        }
        if (!more) break;
      }
    }
  }

  /**
   * The partitions of a plan: each combination of iterated values, and with a parent stream,
   * each of those once per parent record (its field placed in the `as` setting).
   */
  private async *partitionsOf(plan: RunPlan, progress: RunProgress): AsyncGenerator<Record<string, unknown>> {
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
        for (const iteration of iterations) yield { ...iteration, [as]: value };
      }
    }
  }

  /** The decoded first page of a plan, without pagination (options look-ups). */
  async fetchOnce(plan: RunPlan, settings: Record<string, unknown>): Promise<unknown> {
    const auth = new Authenticator(plan, (request) => this.requester.sendRaw(request));
    const token = { query: {}, headers: {}, body: {}, pathToken: '' };
    const accepted = await this.requester.send(
      plan,
      auth,
      (credentials) => this.requester.build(plan, credentials, settings, token),
      decodeJson,
    );
    return accepted?.document ?? null;
  }
}

function warn(progress: RunProgress, text: string): void {
  if (!progress.warnings.includes(text)) progress.warnings.push(text);
}
