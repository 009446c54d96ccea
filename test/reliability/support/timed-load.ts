import type { TestUser } from '../../factories/user.factory';
import type { HttpClient } from './http-client';

/** What one client saw: the datasets it holds by its own answered writes, and what failed. */
export interface ClientLog {
  user: TestUser;
  held: Set<string>;
  /** A write without an answer: whether it happened is unknown, so its holdings are not compared. */
  unsure: boolean;
  failures: string[];
  /** Operations answered, of each kind. */
  done: { catalogue: number; preview: number; write: number };
  /** Operations begun once every fault had been injected. */
  afterFaults: number;
}

export function newClientLog(user: TestUser): ClientLog {
  return {
    user,
    held: new Set(),
    unsure: false,
    failures: [],
    done: { catalogue: 0, preview: 0, write: 0 },
    afterFaults: 0,
  };
}

/**
 * Operations each client still does after the last fault, whatever the clock says: one of each kind
 * (catalogue, preview, write), so every kind is seen to work in the state the faults left.
 */
const ROUNDS_AFTER_FAULTS = 3;

/**
 * The span of a timed load. Faults are injected at seconds into it; the load ends once its
 * duration is over and every fault has been injected and followed by a few operations of every
 * client, so a fault that waits for its moment on a busy machine still falls within the load.
 */
export class LoadWindow {
  private readonly startedAt = Date.now();
  private faultsOver = false;

  constructor(readonly seconds: number) {}

  /** Resolves once `second` seconds of the load have passed (at once if they already have). */
  at(second: number): Promise<void> {
    const remaining = this.startedAt + second * 1000 - Date.now();
    return new Promise((resolve) => setTimeout(resolve, Math.max(0, remaining)));
  }

  /** Seconds since the load began, for the log. */
  get elapsed(): string {
    return ((Date.now() - this.startedAt) / 1000).toFixed(1);
  }

  /** Called once the faults are all injected, or their injection failed: the load may end. */
  endFaults(): void {
    this.faultsOver = true;
  }

  get faultsEnded(): boolean {
    return this.faultsOver;
  }

  /** Whether a client begins another operation. */
  keepsGoing(log: ClientLog): boolean {
    if (this.faultsOver) log.afterFaults += 1;
    const durationOver = Date.now() >= this.startedAt + this.seconds * 1000;
    return !(durationOver && this.faultsOver && log.afterFaults > ROUNDS_AFTER_FAULTS);
  }
}

/** One request; a thrown fetch (connection reset by a dying process) answers status 0. */
async function attempt(http: HttpClient, method: string, path: string, json?: unknown) {
  try {
    return await http.send(method, path, json === undefined ? {} : { json });
  } catch (error) {
    return { status: 0, text: String(error), body: {} };
  }
}

/**
 * One client until the window closes: in turn the catalogue, a dataset's preview and a write that
 * takes the dataset (Get) or drops it (Remove) by what the client holds, each answer logged.
 */
export async function runClient(
  log: ClientLog,
  http: HttpClient,
  datasets: string[],
  window: LoadWindow,
): Promise<void> {
  for (let round = 0; window.keepsGoing(log); round++) {
    const dataset = datasets[(round + log.user.email.length) % datasets.length];
    const kind = (['catalogue', 'preview', 'write'] as const)[round % 3];
    const [method, path, json] =
      kind === 'catalogue'
        ? ['GET', '/api/assets?limit=20']
        : kind === 'preview'
          ? ['GET', `/api/assets/${dataset}/data?limit=5`]
          : log.held.has(dataset)
            ? ['POST', '/api/access/remove', { assetId: dataset }]
            : ['POST', '/api/access/grant', { assetId: dataset }];
    const answer = await attempt(http, method, path, json);
    if (answer.status === 200) {
      log.done[kind] += 1;
      if (path === '/api/access/grant') log.held.add(dataset);
      if (path === '/api/access/remove') log.held.delete(dataset);
    } else {
      // A reset connection has no status: it reads "network …", like a 502 or 503 one that says "try again".
      log.failures.push(`${answer.status || 'network'} ${method} ${path} ${answer.text.slice(0, 120)}`);
      if (method === 'POST') log.unsure = true;
    }
  }
}

/** One line on what the load did: operations answered by kind, failures, and the faults' moments. */
export function loadSummary(logs: ClientLog[], window: LoadWindow, faults: string[]): string {
  const total = (kind: keyof ClientLog['done']) => logs.reduce((sum, log) => sum + log.done[kind], 0);
  const failures = new Map<string, number>();
  for (const failure of logs.flatMap((log) => log.failures)) {
    // "503 GET" and whether the proxy said it had no process, or the app answered.
    const kind = `${failure.split(' ').slice(0, 2).join(' ')}${failure.includes('No server is available') ? ' (proxy)' : ''}`;
    failures.set(kind, (failures.get(kind) ?? 0) + 1);
  }
  const failed = [...failures].map(([kind, count]) => `${count} ${kind}`).join(', ') || 'none';
  return (
    `${logs.length} clients for ${window.elapsed} s: ${total('catalogue')} catalogue, ${total('preview')} previews, ` +
    `${total('write')} writes answered; failed: ${failed}; ${faults.join(', ')}`
  );
}
