import { TEST_ORIGIN, TestApp } from '../support/test-app';

export interface OutboxMessage {
  id: string;
  recipient: string;
  subject: string;
  text: string;
  html: string | null;
  links: string[];
  created_at: string;
}

/** Messages the dev outbox (GET /api/dev/outbox) holds for one recipient, newest first. */
export async function outboxFor(testApp: TestApp, email: string): Promise<OutboxMessage[]> {
  const response = await testApp.http.get('/api/dev/outbox').query({ email }).expect(200);
  return response.body as OutboxMessage[];
}

/** The token of the newest verification link mailed to the address. */
export async function verificationTokenFor(testApp: TestApp, email: string): Promise<string> {
  const [message] = await outboxFor(testApp, email);
  const link = message?.links.find((candidate) => candidate.includes('/verify-email/'));
  if (!link) throw new Error(`No verification link in the outbox for ${email}`);
  return link.split('/verify-email/')[1];
}

/** Registers through the API and answers with the verification token from the outbox. */
export async function registerThroughApi(
  testApp: TestApp,
  input: { name?: string; email: string; password?: string },
): Promise<string> {
  await testApp.http
    .post('/api/users/register')
    .set('Origin', TEST_ORIGIN)
    .send({
      name: input.name ?? 'New User',
      email: input.email,
      password: input.password ?? 'long-enough-password',
    })
    .expect(201);
  return verificationTokenFor(testApp, input.email);
}
