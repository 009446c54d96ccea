import { randomUUID } from 'node:crypto';
import type request from 'supertest';
import { createLoggedInUser, TestUser } from '../factories/user.factory';
import { TEST_ORIGIN, TestApp } from '../support/test-app';

export type Agent = ReturnType<typeof request.agent>;
export interface Person {
  user: TestUser;
  agent: Agent;
}
export const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];
/** Every kind of caller the role matrix asks about. */
export type Caller = Role | 'outsider';
export const CALLERS: Caller[] = [...ROLES, 'outsider'];

export interface Team {
  id: string;
  slug: string;
  people: Record<Caller, Person>;
}

export function uniqueSlug(prefix = 'team'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** Creates an organisation through the API as a new user (its owner). */
export async function createOrganisation(
  testApp: TestApp,
  owner?: Person,
  body: Record<string, unknown> = {},
) {
  const person = owner ?? (await createLoggedInUser(testApp, { name: 'Olive Owner' }));
  const slug = uniqueSlug();
  const response = await person.agent
    .post('/api/organisations')
    .set('Origin', TEST_ORIGIN)
    .send({ name: 'Acme Analytics', slug, ...body })
    .expect(201);
  return { owner: person, organisation: response.body as { id: string; slug: string; name: string } };
}

/** Adds a user with a role straight in the table: the matrix tests are not about how they joined. */
export async function addMember(testApp: TestApp, organisationId: string, userId: string, role: Role) {
  await testApp.dataSource.query(
    `INSERT INTO organisation_memberships (organisation_id, user_id, role) VALUES ($1, $2, $3)`,
    [organisationId, userId, role],
  );
}

/** An organisation with one member of each role and a logged-in outsider. */
export async function createTeam(testApp: TestApp): Promise<Team> {
  const { owner, organisation } = await createOrganisation(testApp);
  const people = { owner } as Record<Caller, Person>;
  for (const role of ['admin', 'editor', 'viewer'] as const) {
    people[role] = await createLoggedInUser(testApp, { name: `${role} member` });
    await addMember(testApp, organisation.id, people[role].user.id, role);
  }
  people.outsider = await createLoggedInUser(testApp, { name: 'Outsider' });
  return { id: organisation.id, slug: organisation.slug, people };
}

export async function roleOf(
  testApp: TestApp,
  organisationId: string,
  userId: string,
): Promise<string | null> {
  const rows = await testApp.dataSource.query(
    `SELECT role FROM organisation_memberships WHERE organisation_id = $1 AND user_id = $2`,
    [organisationId, userId],
  );
  return rows[0]?.role ?? null;
}

/** The token of the newest invitation link mailed to the address. */
export async function invitationTokenFor(testApp: TestApp, email: string): Promise<string> {
  const response = await testApp.http.get('/api/dev/outbox').query({ email }).expect(200);
  const link = (response.body as Array<{ links: string[] }>)[0]?.links.find((candidate) =>
    candidate.includes('/invitations?token='),
  );
  if (!link) throw new Error(`No invitation link in the outbox for ${email}`);
  return new URL(link).searchParams.get('token')!;
}

export async function eventsOf(testApp: TestApp, userId: string, type: string) {
  return (await testApp.dataSource.query(
    `SELECT type, detail FROM audit_events WHERE user_id = $1 AND type = $2 ORDER BY id`,
    [userId, type],
  )) as Array<{ type: string; detail: Record<string, unknown> }>;
}
