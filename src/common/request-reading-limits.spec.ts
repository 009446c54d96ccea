import { createServer } from 'node:http';
import { HEADERS_TIMEOUT_MS, limitRequestReading } from './request-reading-limits';

describe('limits on reading a request', () => {
  it('gives headers 20 s and leaves bodies to their inactivity deadline, not a whole-request cut', () => {
    const server = createServer();
    limitRequestReading(server);
    expect(server.headersTimeout).toBe(HEADERS_TIMEOUT_MS);
    expect(HEADERS_TIMEOUT_MS).toBe(20_000);
    expect(server.requestTimeout).toBe(0);
  });
});
