import { randomUUID } from 'node:crypto';
import { hash } from 'argon2';
import { DataSource } from 'typeorm';
import { TEST_ORIGIN, TestApp } from '../support/test-app';

export interface TestUser {
  id: string;
  email: string;
  password: string;
  name: string;
}

export interface UserOptions {
  email?: string;
  password?: string;
  name?: string;
  verified?: boolean;
  proUser?: boolean;
  blogEditor?: boolean;
}

/**
 * Argon2id at its cheapest for users the tests insert: the app checks a stored hash with the
 * parameters written in it, so logging these users in takes a few milliseconds instead of the
 * quarter second (on two cores) of the app's own parameters, which registration, password
 * changes and resets through the API still use.
 */
export const TEST_PASSWORD_HASH = { memoryCost: 1024, timeCost: 2, parallelism: 1 };

/** Inserts a user straight into the database (verified unless told otherwise). */
export async function createUser(dataSource: DataSource, options: UserOptions = {}): Promise<TestUser> {
  const email = options.email ?? `user-${randomUUID()}@example.test`;
  const password = options.password ?? 'correct-horse-battery';
  const name = options.name ?? 'Test User';
  const [row] = await dataSource.query(
    `INSERT INTO users (email, name, password_hash, email_verified_at, pro_user, blog_editor)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [
      email,
      name,
      await hash(password, TEST_PASSWORD_HASH),
      options.verified === false ? null : new Date(),
      options.proUser ?? false,
      options.blogEditor ?? false,
    ],
  );
  return { id: row.id, email, password, name };
}

/** A cookie-keeping agent logged in as the user through the real login call. */
export async function loginAs(testApp: TestApp, user: TestUser) {
  const agent = testApp.agent();
  await agent
    .post('/api/users/login')
    .set('Origin', TEST_ORIGIN)
    .send({ email: user.email, password: user.password })
    .expect(200);
  return agent;
}

/** Creates a verified user and returns it with a logged-in agent. */
export async function createLoggedInUser(testApp: TestApp, options: UserOptions = {}) {
  const user = await createUser(testApp.dataSource, options);
  return { user, agent: await loginAs(testApp, user) };
}
