import { once } from 'node:events';
import { createReadStream, statSync } from 'node:fs';
import { Agent, IncomingMessage, request } from 'node:http';
import { pipeline } from 'node:stream/promises';

export interface HttpAnswer {
  status: number;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface SendOptions {
  json?: unknown;
  headers?: Record<string, string>;
}

/**
 * A tiny HTTP client for the benchmarks: keep-alive connections, one cookie jar (enough for a
 * session), and the Origin header the API wants on state-changing requests.
 */
export class BenchClient {
  private cookies = new Map<string, string>();

  constructor(
    readonly origin: string,
    readonly agent = new Agent({ keepAlive: true, maxSockets: 16 }),
  ) {}

  async send(method: string, path: string, options: SendOptions = {}): Promise<HttpAnswer> {
    const body = options.json === undefined ? undefined : Buffer.from(JSON.stringify(options.json));
    const headers: Record<string, string> = { ...this.baseHeaders(), ...options.headers };
    if (body) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(body.length);
    }
    const outgoing = request(new URL(path, this.origin), { method, headers, agent: this.agent });
    outgoing.end(body);
    const [response] = (await once(outgoing, 'response')) as [IncomingMessage];
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    this.keepCookies(response);
    return { status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) };
  }

  /** Sends and parses a JSON answer, failing loudly on an unexpected status. */
  async json<T>(method: string, path: string, expected: number, options: SendOptions = {}): Promise<T> {
    const answer = await this.send(method, path, options);
    if (answer.status !== expected) {
      throw new Error(`${method} ${path} answered ${answer.status}: ${answer.body.toString().slice(0, 300)}`);
    }
    return JSON.parse(answer.body.toString()) as T;
  }

  /**
   * GETs a response and counts its bytes as they come over the wire (compressed ones stay
   * compressed) without keeping them (a large stream stays cheap), apart from its last `keepTail`
   * bytes when asked for. With `json`, POSTs it as the request body.
   */
  async drain(
    path: string,
    headers: Record<string, string> = {},
    keepTail = 0,
    json?: unknown,
  ): Promise<{ status: number; headers: IncomingMessage['headers']; bytes: number; tail: Buffer }> {
    const body = json === undefined ? undefined : Buffer.from(JSON.stringify(json));
    const outgoing = request(new URL(path, this.origin), {
      method: body ? 'POST' : 'GET',
      headers: {
        ...this.baseHeaders(),
        ...headers,
        ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}),
      },
      agent: this.agent,
    });
    outgoing.end(body);
    const [response] = (await once(outgoing, 'response')) as [IncomingMessage];
    let bytes = 0;
    // The latest chunks, no more than the tail needs: nothing is copied until the end.
    let latest: Buffer[] = [];
    let latestBytes = 0;
    for await (const chunk of response) {
      bytes += (chunk as Buffer).length;
      if (keepTail === 0) continue;
      latest.push(chunk as Buffer);
      latestBytes += (chunk as Buffer).length;
      while (latest.length > 1 && latestBytes - latest[0].length >= keepTail) {
        latestBytes -= latest[0].length;
        latest = latest.slice(1);
      }
    }
    const tail = keepTail === 0 ? Buffer.alloc(0) : Buffer.concat(latest).subarray(-keepTail);
    return { status: response.statusCode ?? 0, headers: response.headers, bytes, tail };
  }

  /**
   * POSTs a multipart form whose file part is streamed from disk, the way a browser uploads it,
   * so the client never holds the file in memory.
   */
  async uploadFile(
    path: string,
    fields: Record<string, string>,
    file: { field: string; name: string; path: string },
  ): Promise<HttpAnswer> {
    const boundary = `----bench${Date.now().toString(16)}`;
    const fieldParts = Object.entries(fields)
      .map(
        ([name, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      )
      .join('');
    const head = Buffer.from(
      `${fieldParts}--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\n` +
        `Content-Type: text/csv\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const outgoing = request(new URL(path, this.origin), {
      method: 'POST',
      agent: this.agent,
      headers: {
        ...this.baseHeaders(),
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + statSync(file.path).size + tail.length),
      },
    });
    const answered = once(outgoing, 'response') as Promise<[IncomingMessage]>;
    async function* body(): AsyncGenerator<Buffer> {
      yield head;
      for await (const chunk of createReadStream(file.path, { highWaterMark: 256 * 1024 }))
        yield chunk as Buffer;
      yield tail;
    }
    await pipeline(body, outgoing);
    const [response] = await answered;
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    return { status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) };
  }

  private baseHeaders(): Record<string, string> {
    const headers: Record<string, string> = { origin: this.origin };
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    return headers;
  }

  private keepCookies(response: IncomingMessage): void {
    for (const line of response.headers['set-cookie'] ?? []) {
      const [pair] = line.split(';');
      const separator = pair.indexOf('=');
      this.cookies.set(pair.slice(0, separator).trim(), pair.slice(separator + 1).trim());
    }
  }
}
