import { once } from 'node:events';
import { createServer, get, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGunzip, gunzipSync } from 'node:zlib';
import express from 'express';
import { compressedAnswers } from './compression.middleware';

const BURST = `${JSON.stringify({ value: 'x'.repeat(4_000) })}\n`;
const PAUSE_MS = 3_000;

function app(): express.Express {
  const application = express();
  application.use(compressedAnswers());
  // A stream whose rows stop coming for a while, as behind a slow filter.
  application.get('/api/burst', (_request, response) => {
    response.type('application/x-ndjson');
    response.write(BURST);
    setTimeout(() => response.end(BURST), PAUSE_MS);
  });
  application.get('/api/small', (_request, response) => {
    response.json({ ok: true });
  });
  application.get('/page', (_request, response) => {
    response.type('text/html').send(`<p>${'x'.repeat(5_000)}</p>`);
  });
  return application;
}

function request(origin: string, path: string, headers: Record<string, string>): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => get(`${origin}${path}`, { headers }, resolve).on('error', reject));
}

async function bodyOf(response: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('compressedAnswers', () => {
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    server = createServer(app());
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('hands over what a paused stream wrote within a second or so, not only when it ends', async () => {
    const started = Date.now();
    const response = await request(origin, '/api/burst', { 'Accept-Encoding': 'gzip' });
    expect(response.headers['content-encoding']).toBe('gzip');
    const gunzip = createGunzip();
    response.pipe(gunzip);
    let decoded = '';
    for await (const chunk of gunzip) {
      decoded += (chunk as Buffer).toString();
      if (decoded.length >= BURST.length) break;
    }
    expect(decoded).toBe(BURST);
    expect(Date.now() - started).toBeLessThan(PAUSE_MS - 500);
    response.destroy();
  });

  it('compresses JSON Lines, which the list of compressible types does not name', async () => {
    const response = await request(origin, '/api/burst', { 'Accept-Encoding': 'gzip' });
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers.vary).toMatch(/Accept-Encoding/i);
    expect(gunzipSync(await bodyOf(response)).toString()).toBe(BURST + BURST);
  });

  it('sends answers under 1 KiB as they are', async () => {
    const response = await request(origin, '/api/small', { 'Accept-Encoding': 'gzip' });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse((await bodyOf(response)).toString())).toEqual({ ok: true });
  });

  it('leaves answers outside the API alone: the web app sends its files pre-compressed', async () => {
    const response = await request(origin, '/page', { 'Accept-Encoding': 'gzip, br' });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect((await bodyOf(response)).toString()).toContain('xxxx</p>');
  });
});
