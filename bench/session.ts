import { randomUUID } from 'node:crypto';
import { hash } from 'argon2';
import { withClient } from './database';
import { BenchClient } from './http-client';

export interface BenchUser {
  id: string;
  email: string;
  client: BenchClient;
  apiKey: string;
}

/**
 * A verified user inserted straight into the database, logged in through the real login call
 * (so the client holds a session cookie) and holding a personal API key for the stream routes.
 */
export async function createBenchUser(databaseUrl: string, origin: string, name: string): Promise<BenchUser> {
  const email = `${name}-${randomUUID().slice(0, 8)}@bench.test`;
  const password = `bench-password-${randomUUID()}`;
  const id = await withClient(databaseUrl, async (client) => {
    const { rows } = await client.query(
      `INSERT INTO users (email, name, password_hash, email_verified_at, pro_user)
       VALUES ($1, $2, $3, now(), true) RETURNING id`,
      [email, name, await hash(password)],
    );
    return rows[0].id as string;
  });
  const client = new BenchClient(origin);
  await client.json('POST', '/api/users/login', 200, { json: { email, password } });
  const { api_key: apiKey } = await client.json<{ api_key: string }>('POST', '/api/dev/apikey', 200, {
    json: { email },
  });
  return { id, email, client, apiKey };
}
