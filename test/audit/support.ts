import { TestApp } from '../support/test-app';

export interface StoredEvent {
  id: string;
  user_id: string | null;
  type: string;
  detail: Record<string, unknown>;
  credential_kind: string;
  credential_id: string | null;
  ip: string | null;
  user_agent: string | null;
}

/** The user's newest event of that type, straight from the table. */
export async function lastEvent(
  testApp: TestApp,
  userId: string,
  type: string,
): Promise<StoredEvent | undefined> {
  const [row] = await testApp.dataSource.query(
    `SELECT id::text, user_id, type, detail, credential_kind, credential_id, ip, user_agent
       FROM audit_events WHERE user_id = $1 AND type = $2 ORDER BY id DESC LIMIT 1`,
    [userId, type],
  );
  return row;
}

export async function countEvents(testApp: TestApp, userId: string, type: string): Promise<number> {
  const [row] = await testApp.dataSource.query(
    `SELECT count(*)::int AS n FROM audit_events WHERE user_id = $1 AND type = $2`,
    [userId, type],
  );
  return row.n;
}
