import { parse } from 'csv-parse/sync';
import { AuditService } from '../../src/audit/audit.service';
import { AuditEventOrganisation1796100000301 } from '../../src/database/migrations/1796100000301-AuditEventOrganisation';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { CALLERS, Caller, createOrganisation, createTeam, Team } from './support';

const AUDIT_LOG_FORBIDDEN = 'Only owners and admins of this organisation may read or export its audit log.';

interface Event {
  id: string;
  user_id: string | null;
  type: string;
  detail: Record<string, unknown>;
}

describe('organisations: the organisation’s own audit log (GET organisations/:id/audit)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  /** A team whose admin changed the viewer's role to editor and back: three events of its own. */
  async function busyTeam(): Promise<Team> {
    const team = await createTeam(testApp);
    for (const role of ['editor', 'viewer']) {
      await team.people.admin.agent
        .patch(`/api/organisations/${team.id}/members/${team.people.viewer.user.id}`)
        .set('Origin', TEST_ORIGIN)
        .send({ role })
        .expect(200);
    }
    return team;
  }

  const logOf = (team: Team, caller: Caller, query = '') =>
    team.people[caller].agent.get(`/api/organisations/${team.id}/audit${query}`);
  const exportOf = (team: Team, caller: Caller, query = '') =>
    team.people[caller].agent.get(`/api/organisations/${team.id}/audit/export${query}`);

  it('answers owners and admins, refuses editors and viewers (403) and hides it from others (404)', async () => {
    const team = await busyTeam();
    const expected: Record<Caller, number> = {
      owner: 200,
      admin: 200,
      editor: 403,
      viewer: 403,
      outsider: 404,
    };
    for (const caller of CALLERS) {
      for (const request of [logOf, exportOf]) {
        const response = await request(team, caller).expect(expected[caller]);
        if (expected[caller] === 403) expect(response.body.message).toBe(AUDIT_LOG_FORBIDDEN);
        if (expected[caller] === 404) expect(response.body.message).toBe('Organisation not found');
      }
    }
    await testApp.http.get(`/api/organisations/${team.id}/audit`).expect(401);
    await testApp.http.get(`/api/organisations/${team.id}/audit/export`).expect(401);
    await team.people.owner.agent.get('/api/organisations/not-a-uuid/audit').expect(404);
    await team.people.owner.agent.get('/api/organisations/not-a-uuid/audit/export').expect(404);
  });

  it('lists the organisation’s events newest first, with who acted, and no one’s personal events', async () => {
    const team = await busyTeam();
    const { owner, admin, viewer } = team.people;
    const events: Event[] = (await logOf(team, 'admin').expect(200)).body;
    expect(events.map((event) => [event.type, event.user_id])).toEqual([
      ['organisation_member_role_changed', admin.user.id],
      ['organisation_member_role_changed', admin.user.id],
      ['organisation_created', owner.user.id],
    ]);
    expect(events[0].detail).toEqual({
      organisation_id: team.id,
      member_id: viewer.user.id,
      role: 'viewer',
      previous_role: 'editor',
    });
    // The members' sign-ins are theirs alone.
    expect(events.some((event) => event.type === 'sign_in')).toBe(false);
    expect((await logOf(team, 'owner').expect(200)).body).toEqual(events);
  });

  it('attributes any event whose detail names the organisation, whoever records it', async () => {
    const team = await createTeam(testApp);
    const audit = testApp.app.get(AuditService);
    await audit.record(
      'dataset_deleted',
      { organisation_id: team.id, dataset_id: 'd-1' },
      team.people.editor.user.id,
    );
    await audit.record('dataset_deleted', { organisation_id: 'not-a-uuid' }, team.people.editor.user.id);
    const events: Event[] = (await logOf(team, 'admin', '?type=dataset_deleted').expect(200)).body;
    expect(events).toEqual([
      expect.objectContaining({
        user_id: team.people.editor.user.id,
        detail: { organisation_id: team.id, dataset_id: 'd-1' },
      }),
    ]);
    // The editor's own log shows it too.
    const mine: Event[] = (
      await team.people.editor.agent.get('/api/audit/me?type=dataset_deleted').expect(200)
    ).body;
    expect(mine).toHaveLength(2);
  });

  it('shows one organisation’s admin none of another’s events, even an admin of both', async () => {
    const first = await busyTeam();
    const second = await createTeam(testApp);
    const firstEvents: Event[] = (await logOf(first, 'admin').expect(200)).body;
    expect(firstEvents.every((event) => event.detail.organisation_id === first.id)).toBe(true);
    // The first team's admin is no member of the second: its log does not exist for them.
    await first.people.admin.agent.get(`/api/organisations/${second.id}/audit`).expect(404);
    await first.people.admin.agent.get(`/api/organisations/${second.id}/audit/export`).expect(404);

    // An admin of both reads each log apart.
    const { organisation: third } = await createOrganisation(testApp, first.people.admin);
    const thirdEvents: Event[] = (
      await first.people.admin.agent.get(`/api/organisations/${third.id}/audit`).expect(200)
    ).body;
    expect(thirdEvents.map((event) => [event.type, event.detail.organisation_id])).toEqual([
      ['organisation_created', third.id],
    ]);
    const exported = await exportOf(first, 'admin', '?format=jsonl').expect(200);
    expect(exported.text).not.toContain(third.id);
    expect(exported.text).not.toContain(second.id);
  });

  it('filters by type and time and pages like the personal log', async () => {
    const team = await busyTeam();
    const all: Event[] = (await logOf(team, 'owner').expect(200)).body;
    const created: Event[] = (await logOf(team, 'owner', '?type=organisation_created').expect(200)).body;
    expect(created.map((event) => event.id)).toEqual([all[2].id]);
    const both: Event[] = (
      await logOf(team, 'owner', '?type=organisation_created&type=organisation_member_role_changed').expect(
        200,
      )
    ).body;
    expect(both).toHaveLength(3);
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect((await logOf(team, 'owner', `?from=${future}`).expect(200)).body).toEqual([]);
    expect((await logOf(team, 'owner', `?to=${future}`).expect(200)).body).toHaveLength(3);
    const page: Event[] = (await logOf(team, 'owner', `?limit=1&before=${all[0].id}`).expect(200)).body;
    expect(page.map((event) => event.id)).toEqual([all[1].id]);
    await logOf(team, 'owner', '?type=not_a_type').expect(400);
    await logOf(team, 'owner', '?limit=0').expect(400);
    await exportOf(team, 'owner', '?from=yesterday').expect(400);
  });

  it('exports CSV (the personal export’s columns) and JSON Lines, with the filter, as downloads', async () => {
    const team = await busyTeam();
    const csv = await exportOf(team, 'admin', '?format=csv').expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="organisation-audit-log.csv"');
    expect(csv.headers['cache-control']).toBe('no-store');
    const personal = await team.people.admin.agent.get('/api/audit/me/export?format=csv').expect(200);
    expect(csv.text.split('\n')[0]).toBe(personal.text.split('\n')[0]);
    const rows: Array<Record<string, string>> = parse(csv.text, { columns: true });
    expect(rows.map((row) => row.type)).toEqual([
      'organisation_member_role_changed',
      'organisation_member_role_changed',
      'organisation_created',
    ]);
    expect(rows[2].user_id).toBe(team.people.owner.user.id);
    expect(JSON.parse(rows[2].detail)).toMatchObject({ organisation_id: team.id });
    expect(rows[0].credential_kind).toBe('session');

    const jsonl = await exportOf(team, 'owner', '?format=jsonl&type=organisation_created').expect(200);
    expect(jsonl.headers['content-type']).toMatch(/^application\/jsonl/);
    expect(jsonl.headers['content-disposition']).toBe('attachment; filename="organisation-audit-log.jsonl"');
    const lines = jsonl.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toEqual((await logOf(team, 'owner', '?type=organisation_created').expect(200)).body);
    // No format given: CSV, as the personal export.
    expect((await exportOf(team, 'owner').expect(200)).headers['content-type']).toMatch(/^text\/csv/);
    await exportOf(team, 'owner', '?format=xml').expect(400);
  });

  it('has no route that changes or removes an event', async () => {
    const team = await busyTeam();
    const [event] = (await logOf(team, 'owner').expect(200)).body as Event[];
    const base = `/api/organisations/${team.id}/audit`;
    for (const path of [base, `${base}/${event.id}`]) {
      for (const method of ['post', 'put', 'patch', 'delete'] as const) {
        await team.people.owner.agent[method](path).set('Origin', TEST_ORIGIN).send({}).expect(404);
      }
    }
    expect((await logOf(team, 'owner').expect(200)).body).toHaveLength(3);
  });

  it('the migration attributes earlier events by the organisation in their detail', async () => {
    const team = await createTeam(testApp);
    const runner = testApp.dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      // As before the migration: no column, events naming the organisation only in their detail.
      const migration = new AuditEventOrganisation1796100000301();
      await migration.down(runner);
      const [{ id: before }] = await runner.query(
        `SELECT coalesce(max(id), 0)::text AS id FROM audit_events`,
      );
      await runner.query(
        `INSERT INTO audit_events (user_id, credential_kind, type, detail)
         VALUES ($1, 'session', 'organisation_member_left', $2), ($1, 'session', 'sign_in', '{}'),
                ($1, 'session', 'dataset_deleted', '{"organisation_id": "not-a-uuid"}')`,
        [team.people.viewer.user.id, JSON.stringify({ organisation_id: team.id, role: 'viewer' })],
      );
      await migration.up(runner);
      const rows = await runner.query(
        `SELECT type, organisation_id FROM audit_events WHERE id > $1 ORDER BY id`,
        [before],
      );
      expect(rows).toEqual([
        { type: 'organisation_member_left', organisation_id: team.id },
        { type: 'sign_in', organisation_id: null },
        { type: 'dataset_deleted', organisation_id: null },
      ]);
      // The guard is back on once the backfill is done.
      await expect(
        runner.query(`UPDATE audit_events SET type = type WHERE id > $1`, [before]),
      ).rejects.toThrow(/append-only/);
    } finally {
      await runner.rollbackTransaction().catch(() => undefined);
      await runner.release();
    }
  });
});
