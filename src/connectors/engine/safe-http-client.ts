import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import http, { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, LookupFunction } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate, gunzipSync } from 'node:zlib';
import { Readable } from 'node:stream';
import { isBlockedAddress } from './address-policy';
import { ConnectorFetchError } from './connector-fetch-error';
import type { EngineLimits } from './engine-limits';

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Per-request timeout (a spec's own, never above the engine's). */
  timeoutMs?: number;
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The URL that finally answered, after redirects. */
  url: string;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers carrying credentials: never forwarded to another origin on a redirect. */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];
const ADDRESS_REFUSED = 'ERR_CONNECTOR_ADDRESS_REFUSED';

/** Where a request went, for error texts: host and path only, never the query (it may hold keys). */
export function describeUrl(url: string | URL): string {
  const parsed = typeof url === 'string' ? new URL(url) : url;
  return `${parsed.host}${parsed.pathname}`;
}

/**
 * One text for a host that does not resolve and one that resolves to a refused address, so a run's
 * error cannot be used to map which internal names exist.
 */
export function unreachableHostMessage(host: string): string {
  return `Refused to connect to ${host}: the host does not resolve to an allowed public address (private, loopback, link-local and metadata addresses are not allowed)`;
}

function refusal(host: string, options?: { retryable?: boolean }): ConnectorFetchError {
  return new ConnectorFetchError(unreachableHostMessage(host), options);
}

/**
 * HTTP(S) client for connector runs. Unless private networks are allowed it refuses blocked
 * addresses after DNS resolution (the custom lookup hands the socket exactly the address it
 * checked, so DNS cannot change its answer in between), for literal IPs, and on every redirect,
 * which it follows itself. It enforces a timeout and a response size limit (after decompression).
 */
export class SafeHttpClient {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(private readonly limits: EngineLimits) {
    const lookup = this.lookup.bind(this) as LookupFunction;
    // Keep-alive matters for paged runs: one connection serves every page.
    this.httpAgent = new http.Agent({ keepAlive: true, maxSockets: 16, lookup } as http.AgentOptions);
    this.httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 16, lookup } as https.AgentOptions);
  }

  destroy(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  async request(request: HttpRequest): Promise<HttpResponse> {
    let current: HttpRequest = { ...request };
    for (let hop = 0; ; hop++) {
      const response = await this.once(current);
      const location = response.headers.location;
      if (!REDIRECT_STATUSES.has(response.status) || !location) return response;
      if (hop >= this.limits.maxRedirects) {
        throw new ConnectorFetchError(`Too many redirects (more than ${this.limits.maxRedirects})`);
      }
      const next = new URL(location, current.url);
      const sameOrigin = next.origin === new URL(current.url).origin;
      const headers = Object.fromEntries(
        Object.entries(current.headers).filter(
          ([name]) => sameOrigin || !CREDENTIAL_HEADERS.includes(name.toLowerCase()),
        ),
      );
      const keepsBody = response.status === 307 || response.status === 308;
      current = {
        method: keepsBody ? current.method : 'GET',
        url: next.toString(),
        headers: keepsBody ? headers : withoutBodyHeaders(headers),
        body: keepsBody ? current.body : undefined,
        timeoutMs: current.timeoutMs,
      };
    }
  }

  private isExempt(hostname: string): boolean {
    return (
      this.limits.allowPrivateNetworks || this.limits.allowedHosts.includes(hostname.replace(/^\[|\]$/g, ''))
    );
  }

  private lookup(
    hostname: string,
    options: { all?: boolean; family?: number },
    callback: (
      error: NodeJS.ErrnoException | null,
      address: string | LookupAddress[],
      family?: number,
    ) => void,
  ): void {
    dnsLookup(hostname, { family: options.family ?? 0, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const allowed = this.isExempt(hostname)
        ? addresses
        : addresses.filter((entry) => !isBlockedAddress(entry.address));
      if (allowed.length === 0) {
        const refused = Object.assign(refusal(hostname), { code: ADDRESS_REFUSED });
        return callback(refused, []);
      }
      if (options.all) return callback(null, allowed);
      return callback(null, allowed[0].address, allowed[0].family);
    });
  }

  private once(request: HttpRequest): Promise<HttpResponse> {
    const url = new URL(request.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return Promise.reject(
        new ConnectorFetchError(`Unsupported URL scheme ${url.protocol} (only http and https)`),
      );
    }
    const literalHost = url.hostname.replace(/^\[|\]$/g, '');
    const exemptUrl = this.limits.allowedUrls.includes(`${url.origin}${url.pathname}`);
    if (isIP(literalHost) && !exemptUrl && !this.isExempt(literalHost) && isBlockedAddress(literalHost)) {
      return Promise.reject(refusal(url.host));
    }
    const transport = url.protocol === 'https:' ? https : http;
    const where = describeUrl(url);
    const timeoutMs = Math.min(request.timeoutMs ?? this.limits.timeoutMs, this.limits.timeoutMs);

    return new Promise<HttpResponse>((resolve, reject) => {
      let settled = false;
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outgoing.destroy();
        reject(toFetchError(error, where, url.hostname));
      };
      const outgoing = transport.request(
        url,
        {
          method: request.method,
          agent: url.protocol === 'https:' ? this.httpsAgent : this.httpAgent,
          headers: {
            'accept-encoding': 'gzip, deflate, br',
            ...request.headers,
            ...(request.body !== undefined
              ? { 'content-length': String(Buffer.byteLength(request.body)) }
              : {}),
          },
        },
        (incoming) => {
          this.readBody(incoming, where).then((body) => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve({
              status: incoming.statusCode ?? 0,
              headers: incoming.headers,
              body,
              url: url.toString(),
            });
          }, fail);
        },
      );
      const timer = setTimeout(
        () =>
          fail(
            new ConnectorFetchError(`Request to ${where} timed out after ${timeoutMs} ms`, {
              retryable: true,
            }),
          ),
        timeoutMs,
      );
      outgoing.on('error', fail);
      outgoing.end(request.body);
    });
  }

  private async readBody(incoming: IncomingMessage, where: string): Promise<Buffer> {
    const limit = this.limits.maxResponseBytes;
    const tooLarge = () =>
      new ConnectorFetchError(`Response from ${where} is larger than the limit of ${formatBytes(limit)}`);
    const declared = Number(incoming.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      incoming.destroy();
      throw tooLarge();
    }
    const encoding = String(incoming.headers['content-encoding'] ?? '').toLowerCase();
    let stream: Readable = incoming;
    if (encoding === 'gzip' || encoding === 'x-gzip') stream = incoming.pipe(createGunzip());
    else if (encoding === 'deflate') stream = incoming.pipe(createInflate());
    else if (encoding === 'br') stream = incoming.pipe(createBrotliDecompress());

    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > limit) {
        incoming.destroy();
        stream.destroy();
        throw tooLarge();
      }
      chunks.push(chunk as Buffer);
    }
    return unpackGzipFile(Buffer.concat(chunks, size), limit, where, tooLarge);
  }
}

/** The two bytes every gzip stream starts with; no JSON, JSON Lines or CSV text does. */
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

/**
 * A gzip file served as itself (`data.json.gz` as application/gzip, no Content-Encoding) is
 * unpacked by its magic bytes, within the same size limit as any answer.
 */
function unpackGzipFile(
  body: Buffer,
  limit: number,
  where: string,
  tooLarge: () => ConnectorFetchError,
): Buffer {
  if (body.length < 2 || !body.subarray(0, 2).equals(GZIP_MAGIC)) return body;
  try {
    return gunzipSync(body, { maxOutputLength: limit });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
    throw new ConnectorFetchError(
      `Response from ${where} is gzip data that could not be unpacked (${(error as Error).message})`,
    );
  }
}

function withoutBodyHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(
      ([name]) => !['content-type', 'content-length'].includes(name.toLowerCase()),
    ),
  );
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${bytes} bytes`;
}

function toFetchError(error: unknown, where: string, host: string): ConnectorFetchError {
  if (error instanceof ConnectorFetchError) return error;
  const failure = error as NodeJS.ErrnoException & { errors?: NodeJS.ErrnoException[] };
  const nested = failure.errors?.find((inner) => inner.code === ADDRESS_REFUSED);
  if (failure.code === ADDRESS_REFUSED || nested) return new ConnectorFetchError((nested ?? failure).message);
  if (failure.code === 'ENOTFOUND' || failure.code === 'EAI_AGAIN') {
    return refusal(host, { retryable: failure.code === 'EAI_AGAIN' });
  }
  const code = failure.code ? ` (${failure.code})` : '';
  return new ConnectorFetchError(`Network error talking to ${where}${code}: ${failure.message}`, {
    retryable: true,
  });
}
