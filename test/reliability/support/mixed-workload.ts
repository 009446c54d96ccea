import { Answer, HttpClient } from './http-client';

export interface CatalogueDataset {
  id: string;
  paid: boolean;
  rows: number;
  /** The name a user's SQL reads the dataset by. */
  table: string;
}

export interface WorkloadTargets {
  datasets: CatalogueDataset[];
  postSlugs: string[];
}

/** What one client did and saw; the suite compares it with the database afterwards. */
export interface ClientRecord {
  userId: string;
  /** Catalogue datasets this client holds at the end, by its own successful grants and removals. */
  held: Set<string>;
  /** Paid datasets this client was granted: each must have been charged exactly once, re-grants included. */
  purchases: Map<string, number>;
  uploads: string[];
  likes: Map<string, number[]>;
  views: Map<string, number>;
  /** Answers that break the contract: any 5xx, network error, timeout or unexpected status. */
  failures: string[];
  latencies: Map<string, number[]>;
  /** Queries refused with 429 because the statements running at once were at their cap. */
  queriesQueuedOut: number;
}

type Operation = 'catalogue' | 'preview' | 'grant' | 'upload' | 'stream' | 'like' | 'blog' | 'query' | 'login';

/** Relative weights of the operations a client picks from. */
const MIX: Array<[Operation, number]> = [
  ['catalogue', 26],
  ['preview', 16],
  ['grant', 22],
  ['stream', 12],
  ['blog', 8],
  ['like', 8],
  ['upload', 4],
  ['query', 10],
  ['login', 2],
];
const TOTAL_WEIGHT = MIX.reduce((sum, [, weight]) => sum + weight, 0);
const UPLOAD_ROWS = 20;

function pick<T>(list: T[]): T {
  return list[Math.floor(Math.random() * list.length)];
}

function pickOperation(): Operation {
  let roll = Math.random() * TOTAL_WEIGHT;
  for (const [operation, weight] of MIX) {
    roll -= weight;
    if (roll < 0) return operation;
  }
  return 'catalogue';
}

function smallCsv(label: string): string {
  let csv = 'label,position,value\n';
  for (let position = 1; position <= UPLOAD_ROWS; position++)
    csv += `${label},${position},${position * 3}.5\n`;
  return csv;
}

/**
 * One logged-in user with an API key, looping over a random mix of what visitors and members do
 * until the deadline. Requests run one after another, except the deliberate double click on Get.
 */
export class WorkloadClient {
  readonly record: ClientRecord;
  private uploadCount = 0;

  constructor(
    private readonly http: HttpClient,
    userId: string,
    private readonly apiKey: string,
    private readonly targets: WorkloadTargets,
    private readonly name: string,
    private readonly credentials: { email: string; password: string },
  ) {
    this.record = {
      userId,
      held: new Set(),
      purchases: new Map(),
      uploads: [],
      likes: new Map(),
      views: new Map(),
      failures: [],
      latencies: new Map(),
      queriesQueuedOut: 0,
    };
  }

  async run(deadline: number): Promise<void> {
    while (Date.now() < deadline) {
      const operation = pickOperation();
      const started = Date.now();
      try {
        await this[operation]();
      } catch (error) {
        this.record.failures.push(`${operation}: ${error instanceof Error ? error.message : String(error)}`);
      }
      const latencies = this.record.latencies.get(operation) ?? [];
      latencies.push(Date.now() - started);
      this.record.latencies.set(operation, latencies);
    }
  }

  /** Records the answer as a failure unless its status is one of the allowed ones. */
  private check(operation: string, answer: Answer, ...allowed: number[]): boolean {
    if (allowed.includes(answer.status)) return true;
    this.record.failures.push(`${operation}: ${answer.status} ${answer.text.slice(0, 200)}`);
    return false;
  }

  private async catalogue(): Promise<void> {
    const dataset = pick(this.targets.datasets);
    const path = pick([
      '/api/assets?limit=50',
      '/api/assets?search=Load&limit=20',
      `/api/assets/${dataset.id}`,
      '/api/access/my',
      '/api/assets?scope=accessible',
    ]);
    this.check(`GET ${path}`, await this.http.send('GET', path), 200);
  }

  private async preview(): Promise<void> {
    const dataset = pick(this.targets.datasets);
    const answer = await this.http.send<{ rows: unknown[] }>(
      'GET',
      `/api/assets/${dataset.id}/data?limit=10`,
    );
    if (this.check('preview', answer, 200) && answer.body.rows.length !== 10) {
      this.record.failures.push(`preview: ${answer.body.rows.length} rows instead of 10`);
    }
  }

  /** Get (clicked twice at once) when not held, Remove when held. */
  private async grant(): Promise<void> {
    const dataset = pick(this.targets.datasets);
    if (this.record.held.has(dataset.id)) {
      const answer = await this.http.send<{ removed: boolean }>('POST', '/api/access/remove', {
        json: { assetId: dataset.id },
      });
      if (!this.check('remove', answer, 200)) return;
      if (!answer.body.removed)
        this.record.failures.push('remove: answered removed=false for a held dataset');
      this.record.held.delete(dataset.id);
      return;
    }
    const answers = await Promise.all(
      [0, 1].map(() =>
        this.http.send<{ granted: boolean; already: boolean; reason: string }>('POST', '/api/access/grant', {
          json: { assetId: dataset.id },
        }),
      ),
    );
    if (!answers.every((answer) => this.check('grant', answer, 200))) return;
    const fresh = answers.filter((answer) => !answer.body.already);
    if (fresh.length !== 1)
      this.record.failures.push(`grant: ${fresh.length} of 2 simultaneous grants were new`);
    this.record.held.add(dataset.id);
    // Bought once, owned for good: a grant after a Remove must not charge again.
    if (dataset.paid && fresh.length > 0) this.record.purchases.set(dataset.id, 1);
  }

  private async upload(): Promise<void> {
    this.uploadCount += 1;
    const title = `Load upload ${this.name} ${this.uploadCount}`;
    const answer = await this.http.uploadCsv(smallCsv(`${this.name}-${this.uploadCount}`), {
      title,
      is_public: 'false',
    });
    if (this.check('upload', answer, 201)) this.record.uploads.push(answer.body.id);
  }

  /** Every row of a held dataset (or an own upload) as JSON, with the personal API key. */
  private async stream(): Promise<void> {
    const held = this.targets.datasets.filter((dataset) => this.record.held.has(dataset.id));
    const source: { id: string; rows: number } | undefined =
      held.length > 0
        ? pick(held)
        : this.record.uploads.length > 0
          ? { id: pick(this.record.uploads), rows: UPLOAD_ROWS }
          : undefined;
    if (!source) {
      const answer = await this.http.send('GET', '/api/stream/data', {
        headers: { 'x-api-key': this.apiKey },
      });
      this.check('stream all', answer, 200);
      return;
    }
    const answer = await this.http.send<unknown[]>('GET', `/api/stream/data/${source.id}`, {
      headers: { 'x-api-key': this.apiKey },
    });
    if (this.check('stream', answer, 200) && answer.body.length !== source.rows) {
      this.record.failures.push(`stream: ${answer.body.length} rows instead of ${source.rows}`);
    }
  }

  private async blog(): Promise<void> {
    const slug = pick(this.targets.postSlugs);
    const answer = await this.http.send('GET', `/api/blog/${slug}`);
    if (this.check('blog post', answer, 200))
      this.record.views.set(slug, (this.record.views.get(slug) ?? 0) + 1);
  }

  /** A like counts (200) or is refused by the per-visitor limit (429); both are fine, nothing else. */
  private async like(): Promise<void> {
    const slug = pick(this.targets.postSlugs);
    const answer = await this.http.send<{ likes: number }>('POST', `/api/blog/${slug}/like`);
    if (!this.check('like', answer, 200, 429) || answer.status !== 200) return;
    const seen = this.record.likes.get(slug) ?? [];
    seen.push(answer.body.likes);
    this.record.likes.set(slug, seen);
  }

  /**
   * A GROUP BY over a held catalogue dataset in the query workspace. The answer must hold every
   * row; 429 (the statements running at once across the app are at their cap) is allowed.
   */
  private async query(): Promise<void> {
    const held = this.targets.datasets.filter((dataset) => this.record.held.has(dataset.id));
    if (held.length === 0) return this.grant();
    const dataset = pick(held);
    const answer = await this.http.send<{ rows: Array<[string, number]> }>(
      'POST',
      '/api/query',
      { json: { sql: `SELECT region, count(*) AS n FROM ${dataset.table} GROUP BY region` } },
    );
    if (!this.check('query', answer, 200, 429)) return;
    if (answer.status === 429) {
      this.record.queriesQueuedOut += 1;
      return;
    }
    const counted = answer.body.rows.reduce((sum, [, n]) => sum + n, 0);
    if (counted !== dataset.rows) this.record.failures.push(`query: counted ${counted} rows of ${dataset.rows}`);
  }

  /** A second browser of the same user signs in (a CPU-heavy password check); 429 is the login limit. */
  private async login(): Promise<void> {
    const browser = new HttpClient(this.http.baseUrl, this.http.clientAddress);
    const answer = await browser.send('POST', '/api/users/login', {
      json: this.credentials,
    });
    this.check('login', answer, 200, 429);
  }
}
