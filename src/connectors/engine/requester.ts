import { setTimeout as sleep } from 'node:timers/promises';
import { ConnectorFetchError } from './connector-fetch-error';
import type { EngineLimits } from './engine-limits';
import { httpErrorText } from './http-errors';
import { applyAuth } from './request-auth';
import { parseRetryAfter } from './retry-timing';
import type { RunPlan } from './run-plan';
import { describeUrl, HttpRequest, HttpResponse, SafeHttpClient } from './safe-http-client';
import { fillJsonTemplate, fillText, fillUrlTemplate, placeholdersOf, scalarText } from './template';

/** Setting keys with a meaning of their own, never sent upstream. */
const RESERVED_SETTINGS = new Set(['override']);

/**
 * The requester stage: builds the concrete request of one page (templates, settings, headers,
 * body, auth, page parameters) and sends it through the SSRF-safe client, retrying network
 * errors, 429 and 5xx with backoff.
 */
export class Requester {
  constructor(
    private readonly http: SafeHttpClient,
    private readonly limits: EngineLimits,
  ) {}

  build(plan: RunPlan, settings: Record<string, unknown>, pageParams: Record<string, string>): HttpRequest {
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

  /** Sends a request until it answers 2xx, retrying what is worth retrying. */
  async send(request: HttpRequest): Promise<HttpResponse> {
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
        return response;
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
