import { refreshInstance } from './connectors';

/** Manage's Refresh: a run the server stopped waiting for (202) is followed until it ends. */
describe('refreshInstance', () => {
  const realFetch = global.fetch;
  let answers: Array<{ status: number; body: unknown }>;
  const calls: string[] = [];

  beforeEach(() => {
    calls.splice(0);
    global.fetch = (async (url: string, init?: RequestInit) => {
      calls.push(`${init?.method ?? 'GET'} ${url}`);
      const next = answers.shift();
      if (!next) throw new Error(`No answer left for ${url}`);
      return new Response(JSON.stringify(next.body), { status: next.status });
    }) as typeof fetch;
  });
  afterAll(() => {
    global.fetch = realFetch;
  });

  it('answers the row count at once when the run ended within the wait', async () => {
    answers = [{ status: 200, body: { rowCount: 12, run_id: 'r1', warning: null } }];
    await expect(refreshInstance('i1', 1)).resolves.toEqual({ rowCount: 12, warning: null });
    expect(calls).toEqual(['POST /api/connectors/run/i1']);
  });

  it('carries the warning of a run that ended within the wait', async () => {
    const warning = 'Ignored 1 response (HTTP 404) for city=Atlantis';
    answers = [{ status: 200, body: { rowCount: 19, run_id: 'r1', warning } }];
    await expect(refreshInstance('i1', 1)).resolves.toEqual({ rowCount: 19, warning });
  });

  it('carries the warning of a followed run', async () => {
    const warning = 'Stopped at max_pages (5) while the upstream had more pages: more data may exist';
    answers = [
      { status: 202, body: { run_id: 'r1', status: 'running' } },
      { status: 200, body: [{ id: 'r1', status: 'succeeded', row_count: 50, error: null, warning }] },
    ];
    await expect(refreshInstance('i1', 1)).resolves.toEqual({ rowCount: 50, warning });
  });

  it('follows a run that outlasted the wait until it succeeds', async () => {
    answers = [
      { status: 202, body: { run_id: 'r1', status: 'running' } },
      { status: 200, body: [{ id: 'r1', status: 'running', row_count: 0, error: null }] },
      { status: 200, body: [{ id: 'r1', status: 'succeeded', row_count: 7, error: null }] },
    ];
    await expect(refreshInstance('i1', 1)).resolves.toEqual({ rowCount: 7, warning: null });
    expect(calls).toEqual([
      'POST /api/connectors/run/i1',
      'GET /api/connectors/instance/i1/runs',
      'GET /api/connectors/instance/i1/runs',
    ]);
  });

  it('fails like a failed refresh when the followed run fails', async () => {
    answers = [
      { status: 202, body: { run_id: 'r1', status: 'running' } },
      { status: 200, body: [{ id: 'r1', status: 'failed', row_count: 0, error: 'HTTP 500 from upstream' }] },
    ];
    await expect(refreshInstance('i1', 1)).rejects.toThrow('Run failed: HTTP 500 from upstream');
  });
});
