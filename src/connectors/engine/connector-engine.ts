import { STATUS_CODES } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConnectorFetchError } from './connector-fetch-error';
import type { EngineLimits } from './engine-limits';
import { Paginator } from './paginator';
import { applyAuth } from './request-auth';
import { extractRecords } from './response-path';
import type { FetchedPage, RunPlan } from './run-plan';
import { describeUrl, HttpRequest, SafeHttpClient } from './safe-http-client';
import {
  fillJsonTemplate,
  fillText,
  fillUrlTemplate,
  placeholdersOf,
  scalarText,
  valueAtPath,
} from './template';

/** Setting keys with a meaning of their own, never sent upstream. */
const RESERVED_SETTINGS = new Set(['override']);
const EXCERPT_LENGTH = 200;

export interface RunProgress {
  pages: number;
  rows: number;
}

/**
 * Turns a run plan into pages of records: builds each request (template, settings, headers,
 * body, auth, pagination), fetches it through the SSRF-safe client with retries and limits,
 * and extracts the records at `response_path`. Pages are yielded as they arrive so the writer
 * can stream them into the table.
 */
export class ConnectorEngine {
  private readonly http: SafeHttpClient;

  constructor(readonly limits: EngineLimits) {
    this.http = new SafeHttpClient(limits);
  }

  destroy(): void {
    this.http.destroy();
  }

  async *pages(plan: RunPlan, progress: RunProgress = { pages: 0, rows: 0 }): AsyncGenerator<FetchedPage> {
    for (const iteration of this.iterationsOf(plan)) {
      const settings = structuredClone(plan.settings);
      for (const [key, value] of Object.entries(iteration)) setAtPath(settings, key, value);
      const paginator = new Paginator(plan.pagination ?? { type: 'none' });
      for (;;) {
        // More pages are due but the run has had its share: fail rather than keep a silent cut.
        if (progress.pages >= this.limits.maxPagesPerRun) {
          throw new ConnectorFetchError(
            `The run needed more than ${this.limits.maxPagesPerRun} pages, the limit per run; set max_pages in the pagination to stop earlier`,
          );
        }
        const request = this.buildRequest(plan, settings, paginator.params());
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

  /** Fetches one URL and parses its JSON, retrying network errors, 429 and 5xx with backoff. */
  async fetchJson(request: HttpRequest): Promise<unknown> {
    const where = describeUrl(request.url);
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await this.http.request(request);
        if (response.status === 429 || response.status >= 500) {
          throw new ConnectorFetchError(httpErrorText(response.status, where, response.body), {
            retryable: true,
            status: response.status,
            retryAfterMs: parseRetryAfter(response.headers['retry-after']),
          });
        }
        if (response.status < 200 || response.status >= 300) {
          throw new ConnectorFetchError(httpErrorText(response.status, where, response.body), {
            status: response.status,
          });
        }
        const text = response.body.toString('utf8');
        if (text.trim() === '') return null;
        try {
          return JSON.parse(text);
        } catch (error) {
          throw new ConnectorFetchError(
            `Response from ${where} is not valid JSON (${(error as Error).message}): ${excerpt(response.body)}`,
          );
        }
      } catch (error) {
        const failure = error instanceof ConnectorFetchError ? error : new ConnectorFetchError(String(error));
        if (!failure.retryable || attempt >= this.limits.retries) {
          if (attempt > 0 && failure.retryable) failure.message += ` (gave up after ${attempt + 1} attempts)`;
          throw failure;
        }
        const backoff = this.limits.retryBaseDelayMs * 2 ** attempt;
        await sleep(Math.min(failure.options.retryAfterMs ?? backoff, this.limits.maxRetryDelayMs));
      }
    }
  }

  /** The concrete request for one page of a sequence. */
  buildRequest(
    plan: RunPlan,
    settings: Record<string, unknown>,
    pageParams: Record<string, string>,
  ): HttpRequest {
    const context = { ...settings, ...plan.authData };
    let url: URL;
    try {
      url = new URL(fillUrlTemplate(plan.urlTemplate, context));
    } catch {
      throw new ConnectorFetchError('The URL template did not produce a valid URL with these settings');
    }
    const consumed = consumedKeys(plan);
    for (const [key, value] of flattenSettings(settings)) {
      if (consumed.has(key) || url.searchParams.has(key)) continue;
      url.searchParams.set(key, value);
    }
    for (const [name, value] of Object.entries(pageParams)) url.searchParams.set(name, value);

    // Some APIs (GitHub) refuse requests without a User-Agent.
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': 'data-marketplace-connector/1.0',
    };
    for (const [name, template] of Object.entries(plan.headers ?? {}))
      headers[name] = fillText(template, context);
    applyAuth(plan.auth, plan.authData, url, headers);

    let body: string | undefined;
    if (plan.method === 'POST') {
      body = plan.bodyTemplate ? fillJsonTemplate(plan.bodyTemplate, context) : '{}';
      try {
        JSON.parse(body);
      } catch {
        throw new ConnectorFetchError(
          'The POST body template is not valid JSON once the settings are filled in',
        );
      }
      if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
        headers['content-type'] = 'application/json';
      }
    }
    return { method: plan.method, url: url.toString(), headers, body };
  }

  /** Every combination of the iterated settings' values ([{}] without iterations). */
  private iterationsOf(plan: RunPlan): Array<Record<string, unknown>> {
    let combinations: Array<Record<string, unknown>> = [{}];
    for (const key of plan.iterations ?? []) {
      const raw = valueAtPath(plan.settings, key);
      const values = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
      combinations = combinations.flatMap((combination) =>
        values.map((value) => ({ ...combination, [key]: value })),
      );
      if (combinations.length > this.limits.maxIterations) {
        throw new ConnectorFetchError(
          `Iterations expand into more than ${this.limits.maxIterations} request sequences`,
        );
      }
    }
    return combinations;
  }
}

/** Settings keys some template already uses, so they are not repeated as query parameters. */
function consumedKeys(plan: RunPlan): Set<string> {
  const templates = [
    plan.urlTemplate,
    plan.bodyTemplate ?? '',
    plan.auth?.format ?? '',
    ...Object.values(plan.headers ?? {}),
  ];
  return new Set(templates.flatMap(placeholdersOf));
}

/** Settings as dotted key/text pairs, leaving out empty values and reserved keys. */
function flattenSettings(settings: Record<string, unknown>, prefix = ''): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(settings)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (!prefix && RESERVED_SETTINGS.has(key)) continue;
    if (value === undefined || value === null || value === '') continue;
    if (typeof value === 'object' && !Array.isArray(value)) {
      pairs.push(...flattenSettings(value as Record<string, unknown>, path));
    } else if (!Array.isArray(value) || value.length > 0) {
      pairs.push([path, scalarText(value)]);
    }
  }
  return pairs;
}

export function setAtPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let current = target;
  for (const part of parts.slice(0, -1)) {
    if (current[part] === null || typeof current[part] !== 'object') current[part] = {};
    current = current[part] as Record<string, unknown>;
  }
  current[parts[parts.length - 1]] = value;
}

function excerpt(body: Buffer): string {
  const text = body
    .subarray(0, EXCERPT_LENGTH * 4)
    .toString('utf8')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH)}…` : text;
}

function httpErrorText(status: number, where: string, body: Buffer): string {
  const reason = STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : '';
  const sample = excerpt(body);
  return `HTTP ${status}${reason} from ${where}${sample ? `: ${sample}` : ''}`;
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
