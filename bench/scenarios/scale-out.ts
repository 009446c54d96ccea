import { HaProxy } from '../../test/reliability/support/haproxy';
import { startApi } from '../api-process';
import { BenchContext, inTurn } from '../context';
import { LoadResult, runLoad } from '../load';
import { summarise } from '../measure';
import type { BenchRow } from '../report';

const QUERY = '/api/assets?search=weather&limit=20';
const WARM_UP_SECONDS = 5;

/**
 * Catalogue searches per second from one API process, and from two behind HAProxy (the
 * deployment of docs/deployment.md), in turns within the same run, on the catalogue the catalogue
 * row inserted. Both sides get the same load (connections, seconds) from the same generator.
 */
export async function benchScaleOut(context: BenchContext): Promise<BenchRow> {
  const { settings, databaseUrl, api } = context;
  const second = await startApi(databaseUrl, 'bench/results/api-server-second.log');
  const proxy = await HaProxy.start([Number(new URL(api.origin).port), Number(new URL(second.origin).port)]);
  const load = (origin: string, seconds: number) =>
    runLoad({ url: `${origin}${QUERY}`, connections: settings.connections, seconds });
  const two: LoadResult[] = [];
  const one: LoadResult[] = [];
  try {
    await load(proxy.baseUrl, WARM_UP_SECONDS);
    for (let run = 0; run < settings.runs; run++) {
      await inTurn(
        run,
        async () => void two.push(await load(proxy.baseUrl, settings.loadSeconds)),
        async () => void one.push(await load(api.origin, settings.loadSeconds)),
      );
      context.log(
        `scale-out run ${run + 1}: two processes ${two[run].requestsPerSecond.toFixed(0)} req/s, ` +
          `one ${one[run].requestsPerSecond.toFixed(0)} req/s`,
      );
    }
  } finally {
    await proxy.stop();
    await second.stop();
  }
  const twoRate = summarise(two.map((result) => result.requestsPerSecond));
  const oneRate = summarise(one.map((result) => result.requestsPerSecond));
  const errors = [...two, ...one].reduce((sum, result) => sum + result.errors, 0);
  const ratio = twoRate.median / oneRate.median;
  return {
    what: 'Catalogue search, two web processes behind HAProxy',
    ourPath: `GET ${QUERY} through HAProxy to two API processes, ${settings.connections} connections, ${settings.loadSeconds} s per run`,
    baselinePath: 'the same load on one API process, straight',
    unit: 'req/s',
    ours: twoRate,
    baseline: oneRate,
    ratio,
    target: 'measured: > 1× where cores are free',
    met: ratio > 1 && errors === 0,
    side: [{ label: 'two processes p99', figure: summarise(two.map((result) => result.p99Ms)), unit: 'ms' }],
    notes: [
      `${errors} failed requests. On a machine with two shared cores, the second process, HAProxy, PostgreSQL and the load generator compete for the same CPU: the gain shows where cores are free.`,
    ],
  };
}
