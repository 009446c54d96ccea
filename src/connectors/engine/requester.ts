import { setTimeout as sleep } from 'node:timers/promises';
import type { Authenticator } from './auth/authenticator';
import { applyAuth } from './auth/static-auth';
import { isConditional } from './conditional-request';
import { ConnectorFetchError } from './connector-fetch-error';
import type { EngineLimits } from './engine-limits';
import { excerpt, httpErrorText } from './http-errors';
import type { PageToken } from './paginator';
import { RateBudget } from './rate-budget';
import { encodeBody, withBodyValues } from './request-body';
import { filterMessage, matchFilter } from './response-filters';
import { upstreamDelay } from './retry-timing';
import type { RunPlan } from './run-plan';
import { describeUrl, HttpRequest, HttpResponse, SafeHttpClient } from './safe-http-client';
import {
  fillJsonTemplate,
  fillText,
  fillUrlTemplate,
  placeholdersOf,
  scalarText,
  valueAtPath,
} from './template';

/** Most retries a spec may ask for, whatever it says. */
export const MAX_SPEC_RETRIES = 10;

/** One request as a test read shows it: the URL without credentials, the status and the time taken. */
export interface RequestLogEntry {
  method: string;
  url: string;
  status: number | null;
  ms: number;
  error?: string;
}

/** An answer that passed the response filters, with its decoded body. */
export interface AcceptedResponse {
  response: HttpResponse;
  document: unknown;
  /** The URL asked for (the answer's may differ after redirects). */
  requestUrl: string;
}

/** An answer a response filter said to ignore: the partition ends there, and the run says so. */
export interface IgnoredAnswer {
  ignoredStatus: number;
}

/** A 304 to a conditional request: the upstream's data did not change since the version kept. */
export interface NotModifiedAnswer {
  notModified: true;
}

/**
 * The requester stage: builds the concrete request of one page (templates, declared settings,
 * headers, body, auth, page token) and sends it through the SSRF-safe client within the
 * connector's rate budget, applying the spec's response filters, retries, backoff and timeout
 * (held within the server's limits), and renewing an expired token once on a 401.
 */
export class Requester {
  private readonly budget = new RateBudget();

  constructor(
    private readonly http: SafeHttpClient,
    private readonly limits: EngineLimits,
  ) {}

  build(
    plan: RunPlan,
    credentials: Record<string, string>,
    settings: Record<string, unknown>,
    token: PageToken,
  ): HttpRequest {
    const context = { ...settings, ...credentials, page_token: token.pathToken };
    let url: URL;
    try {
      url = new URL(token.url ?? fillUrlTemplate(plan.urlTemplate, context));
    } catch {
      throw new ConnectorFetchError('The URL template did not produce a valid URL with these settings');
    }
    if (token.url === undefined) {
      const consumed = consumedKeys(plan);
      for (const key of plan.declaredParams ?? []) {
        const value = valueAtPath(settings, key);
        if (consumed.has(key) || url.searchParams.has(key) || isEmpty(value)) continue;
        url.searchParams.set(key, scalarText(value));
      }
      for (const [name, value] of Object.entries(token.query)) url.searchParams.set(name, value);
    }

    // Some APIs (GitHub) refuse requests without a User-Agent.
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': 'data-marketplace-connector/1.0',
    };
    for (const [name, template] of Object.entries(plan.headers ?? {}))
      headers[name] = fillText(template, context);
    Object.assign(headers, token.headers);
    applyAuth(plan.auth, credentials, url, headers);

    let body: string | undefined;
    if (plan.method === 'POST') {
      const filled = plan.bodyTemplate ? fillJsonTemplate(plan.bodyTemplate, context) : '{}';
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(filled) as Record<string, unknown>;
      } catch {
        throw new ConnectorFetchError(
          'The POST body template is not valid JSON once the settings are filled in',
        );
      }
      const encoded = encodeBody(withBodyValues(parsed, token.body), plan.bodyFormat ?? 'json');
      body = encoded.body;
      if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
        headers['content-type'] = encoded.contentType;
      }
    }
    return { method: plan.method, url: url.toString(), headers, body, timeoutMs: this.timeoutOf(plan) };
  }

  /**
   * Sends the request `build` makes from the current credentials until an answer is accepted,
   * or a response filter says to ignore it.
   */
  async send(
    plan: RunPlan,
    auth: Authenticator,
    build: (credentials: Record<string, string>) => HttpRequest,
    decode: (response: HttpResponse, where: string) => unknown,
    log?: (entry: RequestLogEntry) => void,
  ): Promise<AcceptedResponse | IgnoredAnswer | NotModifiedAnswer> {
    const options = plan.requestOptions ?? {};
    const retries = Math.min(options.retries ?? this.limits.retries, MAX_SPEC_RETRIES);
    const baseDelay =
      options.backoff_seconds !== undefined ? options.backoff_seconds * 1000 : this.limits.retryBaseDelayMs;
    let renewed = false;
    for (let attempt = 0; ; attempt++) {
      try {
        const request = build(await auth.credentials());
        const where = describeUrl(request.url);
        if (options.rate_limit && plan.budgetKey) await this.budget.take(plan.budgetKey, options.rate_limit);
        const started = Date.now();
        const response = await this.http.request(request).catch((error: unknown) => {
          log?.({
            method: request.method,
            url: request.url,
            status: null,
            ms: Date.now() - started,
            error: String(error),
          });
          throw error;
        });
        log?.({
          method: request.method,
          url: request.url,
          status: response.status,
          ms: Date.now() - started,
        });
        if (response.status === 304 && isConditional(request)) return { notModified: true };
        let parsed: { value: unknown } | undefined;
        const document = () => (parsed ??= { value: safely(() => decode(response, where)) }).value;
        const filter = matchFilter(plan.responseFilters, response.status, response.headers, document);
        if (filter?.action === 'ignore') return { ignoredStatus: response.status };
        if (filter?.action === 'fail') {
          const message = filterMessage(filter, document()) ?? excerpt(response.body);
          throw new ConnectorFetchError(`${where} answered an error (HTTP ${response.status}): ${message}`, {
            status: response.status,
          });
        }
        if (filter?.action === 'retry' || response.status === 429 || response.status >= 500) {
          throw new ConnectorFetchError(httpErrorText(response.status, where, response.body), {
            retryable: true,
            status: response.status,
            retryAfterMs: upstreamDelay(response.headers),
          });
        }
        if (response.status === 401 && auth.renewable && !renewed) {
          renewed = true;
          await auth.renew();
          attempt--;
          continue;
        }
        if (response.status < 200 || response.status >= 300) {
          throw new ConnectorFetchError(httpErrorText(response.status, where, response.body), {
            status: response.status,
          });
        }
        return {
          response,
          document: parsed ? parsed.value : decode(response, where),
          requestUrl: request.url,
        };
      } catch (error) {
        const failure = error instanceof ConnectorFetchError ? error : new ConnectorFetchError(String(error));
        if (!failure.retryable || attempt >= retries) {
          if (attempt > 0 && failure.retryable) failure.message += ` (gave up after ${attempt + 1} attempts)`;
          throw failure;
        }
        const backoff = options.backoff === 'constant' ? baseDelay : baseDelay * 2 ** attempt;
        await sleep(Math.min(failure.options.retryAfterMs ?? backoff, this.limits.maxRetryDelayMs));
      }
    }
  }

  /** The raw client for auth requests (token exchange, session login): SSRF guard included. */
  sendRaw(request: HttpRequest): Promise<HttpResponse> {
    return this.http.request(request);
  }

  private timeoutOf(plan: RunPlan): number {
    const seconds = plan.requestOptions?.timeout_seconds;
    return seconds ? Math.min(seconds * 1000, this.limits.timeoutMs) : this.limits.timeoutMs;
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

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object';
}

function safely(read: () => unknown): unknown {
  try {
    return read();
  } catch {
    return undefined;
  }
}
