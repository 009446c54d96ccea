import { ConnectorFetchError } from './connector-fetch-error';
import { decodeJson } from './decoder';
import type { EngineLimits } from './engine-limits';
import { Paginator } from './paginator';
import { iterationsOf, partitionSettings } from './partitions';
import { Requester } from './requester';
import { extractRecords } from './response-path';
import type { FetchedPage, RunPlan } from './run-plan';
import { describeUrl, HttpRequest, SafeHttpClient } from './safe-http-client';

export interface RunProgress {
  pages: number;
  rows: number;
}

/**
 * Runs the pipeline of a run plan: for each partition (iteration values), the requester builds
 * and sends each page's request, the decoder parses it, the extractor finds the records and the
 * paginator decides what comes next. Pages are yielded as they arrive so the writer can stream
 * them into the table.
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

  async *pages(plan: RunPlan, progress: RunProgress = { pages: 0, rows: 0 }): AsyncGenerator<FetchedPage> {
    for (const iteration of iterationsOf(plan, this.limits.maxIterations)) {
      const settings = partitionSettings(plan.settings, iteration);
      const paginator = new Paginator(plan.pagination ?? { type: 'none' });
      for (;;) {
        // More pages are due but the run has had its share: fail rather than keep a silent cut.
        if (progress.pages >= this.limits.maxPagesPerRun) {
          throw new ConnectorFetchError(
            `The run needed more than ${this.limits.maxPagesPerRun} pages, the limit per run; set max_pages in the pagination to stop earlier`,
          );
        }
        const request = this.requester.build(plan, settings, paginator.params());
        const document = await this.fetchJson(request);
        const records = extractRecords(document, plan.responsePath);
        progress.pages++;
        progress.rows += records.length;
        if (progress.rows > this.limits.maxRowsPerRun) {
          throw new ConnectorFetchError(
            `The run fetched more than ${this.limits.maxRowsPerRun} rows, the limit per run`,
          );
        }
        if (records.length > 0) yield { records, iteration };
        if (!paginator.advance(records.length, document)) break;
      }
    }
  }

  /** Fetches one URL and parses its JSON (options look-ups use it too). */
  async fetchJson(request: HttpRequest): Promise<unknown> {
    const response = await this.requester.send(request);
    return decodeJson(response, describeUrl(request.url));
  }

  /** The concrete request for one page of a sequence. */
  buildRequest(
    plan: RunPlan,
    settings: Record<string, unknown>,
    pageParams: Record<string, string>,
  ): HttpRequest {
    return this.requester.build(plan, settings, pageParams);
  }
}
