import type { RunningProcess } from './api-process';
import type { BenchUser } from './session';

export interface BenchSettings {
  /** Rows of the generated CSV (BENCH_ROWS). */
  rows: number;
  /** Repetitions of every measured figure (BENCH_RUNS). */
  runs: number;
  /** Seconds of each catalogue load run (BENCH_LOAD_SECONDS). */
  loadSeconds: number;
  /** Concurrent connections of the catalogue load (BENCH_CONNECTIONS). */
  connections: number;
  /** Catalogue size (BENCH_ASSETS). */
  catalogueAssets: number;
  /** Requests per run of the general stream (BENCH_GENERAL_REQUESTS). */
  generalRequests: number;
  /** Records and pages the fake API serves to the connector (BENCH_CONNECTOR_RECORDS, BENCH_CONNECTOR_PAGES). */
  connectorRecords: number;
  connectorPages: number;
  /** Records of the published table the live-refresh row refreshes (BENCH_LIVE_RECORDS, a multiple of 1,000). */
  liveRecords: number;
  /** Benchmarks to run (BENCH_ONLY, comma-separated); the streams, OData, refresh and query need the ingest's dataset. */
  only: BenchName[];
}

export const BENCH_NAMES = [
  'ingest',
  'dialect-ingest',
  'streams',
  'gzip-streams',
  'parquet',
  'odata',
  'refresh',
  'catalogue',
  'scale-out',
  'connector',
  'incremental',
  'query',
  'live-refresh',
  'tenant-isolation',
] as const;
export type BenchName = (typeof BENCH_NAMES)[number];

function benchList(raw: string | undefined): BenchName[] {
  if (!raw) return [...BENCH_NAMES];
  const names = raw.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(BENCH_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(`BENCH_ONLY: unknown ${unknown.join(', ')}; use ${BENCH_NAMES.join(', ')}`);
  const chosen = BENCH_NAMES.filter((name) => names.includes(name));
  const needsIngest = chosen.some((name) =>
    ['streams', 'gzip-streams', 'parquet', 'odata', 'refresh', 'query'].includes(name),
  );
  // Two processes are measured on the catalogue the catalogue row inserts.
  const withCatalogue =
    chosen.includes('scale-out') && !chosen.includes('catalogue')
      ? BENCH_NAMES.filter((name) => name === 'catalogue' || chosen.includes(name))
      : chosen;
  return needsIngest && !withCatalogue.includes('ingest') ? ['ingest', ...withCatalogue] : withCatalogue;
}

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number`);
  return value;
}

export function readSettings(): BenchSettings {
  const settings = {
    rows: positiveInteger('BENCH_ROWS', 1_000_000),
    runs: positiveInteger('BENCH_RUNS', 5),
    loadSeconds: positiveInteger('BENCH_LOAD_SECONDS', 10),
    connections: positiveInteger('BENCH_CONNECTIONS', 8),
    catalogueAssets: positiveInteger('BENCH_ASSETS', 10_000),
    generalRequests: positiveInteger('BENCH_GENERAL_REQUESTS', 50),
    connectorRecords: positiveInteger('BENCH_CONNECTOR_RECORDS', 100_000),
    connectorPages: positiveInteger('BENCH_CONNECTOR_PAGES', 100),
    liveRecords: positiveInteger('BENCH_LIVE_RECORDS', 1_000_000),
    only: benchList(process.env.BENCH_ONLY),
  };
  if (settings.liveRecords % 1000 !== 0) throw new Error('BENCH_LIVE_RECORDS must be a multiple of 1000');
  if (settings.connectorRecords % settings.connectorPages !== 0) {
    throw new Error('BENCH_CONNECTOR_RECORDS must be a multiple of BENCH_CONNECTOR_PAGES');
  }
  return settings;
}

export interface BenchContext {
  settings: BenchSettings;
  databaseUrl: string;
  api: RunningProcess;
  user: BenchUser;
  csv: { path: string; bytes: number };
  /** Folder of the results and the API processes' logs. */
  results: string;
  log(message: string): void;
}

/** Alternates which side goes first from run to run, so a slow moment does not always hit the same one. */
export async function inTurn(
  run: number,
  first: () => Promise<void>,
  second: () => Promise<void>,
): Promise<void> {
  if (run % 2 === 0) {
    await first();
    await second();
  } else {
    await second();
    await first();
  }
}
