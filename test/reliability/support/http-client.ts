import { request as httpRequest } from 'node:http';

export interface Answer<T = unknown> {
  status: number;
  body: T;
  text: string;
}

export interface SendOptions {
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * One client of a running app: keeps its cookies (the session's, the visitor's) like a browser and
 * sends the app's Origin on every call, so state-changing requests pass the same-origin check.
 */
export class HttpClient {
  /** Cookie name → `name=value`, each kept until the app sets it again. */
  private readonly cookies = new Map<string, string>();

  private get cookie(): string | undefined {
    return this.cookies.size > 0 ? [...this.cookies.values()].join('; ') : undefined;
  }

  constructor(
    readonly baseUrl: string,
    /** Sent as X-Forwarded-For: a client address of its own when the app trusts the proxy header. */
    readonly clientAddress?: string,
  ) {}

  async send<T = unknown>(method: string, path: string, options: SendOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { origin: this.baseUrl, ...options.headers };
    if (this.cookie) headers.cookie = this.cookie;
    if (this.clientAddress) headers['x-forwarded-for'] = this.clientAddress;
    let body: string | FormData | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      body = options.form;
    }
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body,
      signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
    for (const setCookie of response.headers.getSetCookie()) {
      const pair = setCookie.split(';')[0];
      this.cookies.set(pair.split('=')[0], pair);
    }
    const text = await response.text();
    let parsed: unknown = text;
    if (response.headers.get('content-type')?.includes('application/json')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: response.status, body: parsed as T, text };
  }

  /** Sends and fails with the answer's text unless the status is the expected one. */
  async expect<T = unknown>(
    method: string,
    path: string,
    status: number,
    options: SendOptions = {},
  ): Promise<T> {
    const answer = await this.send<T>(method, path, options);
    if (answer.status !== status) {
      throw new Error(
        `${method} ${path} answered ${answer.status}, not ${status}: ${answer.text.slice(0, 300)}`,
      );
    }
    return answer.body;
  }

  async login(email: string, password: string): Promise<void> {
    await this.expect('POST', '/api/users/login', 200, { json: { email, password } });
  }

  /** Uploads a small CSV through the multipart form, like the Upload Dataset tab. */
  uploadCsv(
    csv: string,
    fields: Record<string, string>,
    timeoutMs?: number,
  ): Promise<Answer<{ id: string }>> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'data.csv');
    return this.send('POST', '/api/assets/upload-csv', { form, timeoutMs });
  }

  /**
   * Streams a generated CSV as the multipart file part without holding it in memory (chunked
   * request body, written with back-pressure). Settles when the app answers or the connection
   * drops; `stop()` ends the generation early.
   */
  streamCsvUpload(
    fields: Record<string, string>,
    chunks: Iterator<string>,
  ): { done: Promise<{ status?: number; error?: string }>; stop(): void } {
    const boundary = `----reliability${Date.now().toString(16)}`;
    const head =
      Object.entries(fields)
        .map(
          ([name, value]) =>
            `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
        )
        .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="large.csv"\r\nContent-Type: text/csv\r\n\r\n`;
    const tail = `\r\n--${boundary}--\r\n`;
    let stopped = false;
    const outgoing = httpRequest(`${this.baseUrl}/api/assets/upload-csv`, {
      method: 'POST',
      headers: {
        origin: this.baseUrl,
        cookie: this.cookie ?? '',
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
    });
    let answered = false;
    const done = new Promise<{ status?: number; error?: string }>((resolve) => {
      outgoing.once('response', (response) => {
        answered = true;
        response.resume();
        response.once('end', () => resolve({ status: response.statusCode }));
        response.once('error', (error) => resolve({ status: response.statusCode, error: error.message }));
      });
      outgoing.once('error', (error) => {
        stopped = true;
        resolve({ error: error.message });
      });
      outgoing.once('close', () => {
        stopped = true;
        if (!answered) resolve({ error: 'closed before an answer' });
      });
    });
    const pump = () => {
      while (!stopped) {
        const next = chunks.next();
        if (next.done) {
          outgoing.end(tail);
          return;
        }
        if (!outgoing.write(next.value)) {
          outgoing.once('drain', pump);
          return;
        }
      }
    };
    outgoing.write(head);
    pump();
    return {
      done,
      stop: () => {
        stopped = true;
        outgoing.destroy();
      },
    };
  }
}
