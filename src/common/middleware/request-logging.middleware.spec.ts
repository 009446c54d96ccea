import { Logger, LoggerService, LogLevel } from '@nestjs/common';
import express from 'express';
import request from 'supertest';
import { redactUrl, requestLogLevel, requestLogging } from './request-logging.middleware';

describe('requestLogging', () => {
  const lines: Array<{ level: string; message: string }> = [];
  const capture: LoggerService = {
    log: (message: string) => void lines.push({ level: 'log', message }),
    debug: (message: string) => void lines.push({ level: 'debug', message }),
    warn: (message: string) => void lines.push({ level: 'warn', message }),
    error: (message: string) => void lines.push({ level: 'error', message }),
  };
  const app = express();
  app.use(requestLogging);
  app.get('/api/ok', (_request, response) => void response.json({ ok: true }));
  app.get('/api/broken', (_request, response) => void response.status(500).json({ ok: false }));
  app.get('/api/users/me', (_request, response) => void response.status(401).json({ error: 'Unauthorized' }));
  app.get(
    '/api/assets/mine',
    (_request, response) => void response.status(401).json({ error: 'Unauthorized' }),
  );
  app.get('/assets/index-abc123.js', (_request, response) => void response.type('js').send('export {};'));

  async function linesAt(levels: LogLevel[], path: string) {
    lines.length = 0;
    Logger.overrideLogger(capture);
    Logger.overrideLogger(levels);
    const response = await request(app).get(`${path}?api_key=secret`);
    return { lines: [...lines], requestId: response.headers['x-request-id'] };
  }

  afterAll(() => Logger.overrideLogger(['log', 'warn', 'error']));

  it('writes one line per request with its id, redacted URL, status and time', async () => {
    const { lines: written, requestId } = await linesAt(['log', 'warn', 'error'], '/api/ok');
    expect(written).toHaveLength(1);
    expect(written[0].level).toBe('log');
    expect(JSON.parse(written[0].message)).toMatchObject({
      requestId,
      method: 'GET',
      url: '/api/ok?api_key=[redacted]',
      status: 200,
    });
  });

  it('writes nothing for a success when only warnings are kept, and a warning for a server error', async () => {
    expect((await linesAt(['warn', 'error'], '/api/ok')).lines).toEqual([]);
    const { lines: written } = await linesAt(['warn', 'error'], '/api/broken');
    expect(written).toHaveLength(1);
    expect(written[0].level).toBe('warn');
    expect(JSON.parse(written[0].message)).toMatchObject({
      status: 500,
      url: '/api/broken?api_key=[redacted]',
    });
  });

  it('writes a static file and the 401 of an anonymous users/me at debug only', async () => {
    const defaultLevels: LogLevel[] = ['log', 'warn', 'error'];
    expect((await linesAt(defaultLevels, '/assets/index-abc123.js')).lines).toEqual([]);
    expect((await linesAt(defaultLevels, '/api/users/me')).lines).toEqual([]);
    const debugLevels: LogLevel[] = [...defaultLevels, 'debug'];
    expect((await linesAt(debugLevels, '/assets/index-abc123.js')).lines.map((line) => line.level)).toEqual([
      'debug',
    ]);
    expect((await linesAt(debugLevels, '/api/users/me')).lines.map((line) => line.level)).toEqual(['debug']);
  });

  it('still logs a missing file and a 401 anywhere but users/me', async () => {
    const defaultLevels: LogLevel[] = ['log', 'warn', 'error'];
    const missing = await linesAt(defaultLevels, '/assets/gone-123.js');
    expect(missing.lines.map((line) => line.level)).toEqual(['log']);
    expect(JSON.parse(missing.lines[0].message)).toMatchObject({ status: 404 });
    const refused = await linesAt(defaultLevels, '/api/assets/mine');
    expect(refused.lines.map((line) => line.level)).toEqual(['log']);
    expect(JSON.parse(refused.lines[0].message)).toMatchObject({ status: 401 });
  });
});

describe('requestLogLevel', () => {
  it('warns on a server error wherever it happens, a file of the app included', () => {
    expect(requestLogLevel('GET', '/assets/index-abc123.js', 500)).toBe('warn');
    expect(requestLogLevel('GET', '/api/users/me', 503)).toBe('warn');
  });

  it('treats /api itself and paths that only start like it as what they are', () => {
    expect(requestLogLevel('GET', '/api', 404)).toBe('log');
    expect(requestLogLevel('GET', '/apidocs.html', 200)).toBe('debug');
    expect(requestLogLevel('GET', '/api/users/me?fresh=1', 401)).toBe('debug');
    expect(requestLogLevel('POST', '/api/users/me', 401)).toBe('log');
  });

  it('writes the app’s session check at debug, but not when it fails', () => {
    expect(requestLogLevel('GET', '/api/users/session', 200)).toBe('debug');
    expect(requestLogLevel('GET', '/api/users/session', 503)).toBe('warn');
  });
});

describe('redactUrl', () => {
  it('redacts the API key however the parameter name is spelled or encoded', () => {
    expect(redactUrl('/api/stream/data?api_key=secret&format=csv')).toBe(
      '/api/stream/data?api_key=[redacted]&format=csv',
    );
    expect(redactUrl('/api/stream/data?format=csv&API_KEY=secret')).toBe(
      '/api/stream/data?format=csv&API_KEY=[redacted]',
    );
    expect(redactUrl('/api/stream/data?api%5Fkey=secret')).toBe('/api/stream/data?api%5Fkey=[redacted]');
    expect(redactUrl('/api/stream/data?%61pi_key=secret')).toBe('/api/stream/data?%61pi_key=[redacted]');
    expect(redactUrl('/api/stream/data?api_key[]=one&api_key[]=two')).toBe(
      '/api/stream/data?api_key[]=[redacted]&api_key[]=[redacted]',
    );
    expect(redactUrl('/api/stream/data?apikey=secret')).toBe('/api/stream/data?apikey=[redacted]');
    expect(redactUrl('/verify-email?token=abc#top')).toBe('/verify-email?token=[redacted]#top');
  });

  it('redacts other names for keys and tokens, path parameters and names with stray bytes', () => {
    expect(redactUrl('/api/stream/data/1?key=secret')).toBe('/api/stream/data/1?key=[redacted]');
    expect(redactUrl('/api/stream/data/1?access_token=secret')).toBe(
      '/api/stream/data/1?access_token=[redacted]',
    );
    expect(redactUrl('/api/stream/data/1;api_key=secret')).toBe('/api/stream/data/1;api_key=[redacted]');
    expect(redactUrl('/api/stream/data/1?api_key%00=secret')).toBe(
      '/api/stream/data/1?api_key%00=[redacted]',
    );
    expect(redactUrl('/x?API-KEY=secret&Password=hunter2')).toBe('/x?API-KEY=[redacted]&Password=[redacted]');
  });

  it('leaves other parameters, bare names and malformed encodings as they were', () => {
    expect(redactUrl('/api/assets?search=key&page=2')).toBe('/api/assets?search=key&page=2');
    expect(redactUrl('/api/assets?keyword=x&keys_sorted=1')).toBe('/api/assets?keyword=x&keys_sorted=1');
    expect(redactUrl('/api/assets')).toBe('/api/assets');
    expect(redactUrl('/api/assets?flag&x=%E0%A4%A')).toBe('/api/assets?flag&x=%E0%A4%A');
    expect(redactUrl('/api/stream/data?api_key')).toBe('/api/stream/data?api_key=[redacted]');
  });

  it('redacts a key whose separators were percent-encoded by mistake', () => {
    expect(redactUrl('/api/stream/data%3Fapi_key=secret')).toBe('/api/stream/data%3Fapi_key=[redacted]');
    expect(redactUrl('/api/stream/data?format=csv%26api_key=secret')).toBe(
      '/api/stream/data?format=csv%26api_key=[redacted]',
    );
    expect(redactUrl('/api/stream/data?api_key%3Dsecret')).toBe('/api/stream/data?api_key=[redacted]');
  });

  it('redacts the token of a verification link in the path', () => {
    expect(redactUrl('/api/users/verify-email/abc123def')).toBe('/api/users/verify-email/[redacted]');
    expect(redactUrl('/verify-email/abc123def?x=1')).toBe('/verify-email/[redacted]?x=1');
  });
});
