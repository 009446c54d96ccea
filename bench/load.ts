import { Agent, request } from 'node:http';
import { percentile } from './measure';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/** One GET on a kept-alive connection; answers the status once the whole body is read. */
function get(url: URL, agent: Agent, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { agent, headers }, (response) => {
      response.on('data', () => undefined);
      response.once('end', () => resolve(response.statusCode ?? 0));
      response.once('error', reject);
    });
    outgoing.once('error', reject);
    outgoing.end();
  });
}

/**
 * Closed-loop load: `connections` clients each send the next request as soon as the previous
 * answer is complete, for `seconds`. Every non-200 answer or socket error counts as an error.
 */
export async function runLoad(options: {
  url: string;
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
}): Promise<LoadResult> {
  const url = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const latenciesMs: number[] = [];
  let errors = 0;
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(Math.round(options.seconds * 1e9));
  const client = async () => {
    while (process.hrtime.bigint() < deadline) {
      const sent = process.hrtime.bigint();
      try {
        if ((await get(url, agent, options.headers ?? {})) !== 200) errors++;
      } catch {
        errors++;
      }
      latenciesMs.push(Number(process.hrtime.bigint() - sent) / 1e6);
    }
  };
  await Promise.all(Array.from({ length: options.connections }, client));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  agent.destroy();
  return {
    requests: latenciesMs.length,
    errors,
    seconds,
    requestsPerSecond: latenciesMs.length / seconds,
    p50Ms: percentile(latenciesMs, 0.5),
    p99Ms: percentile(latenciesMs, 0.99),
  };
}
