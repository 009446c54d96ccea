import { generate } from 'otplib';
import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { outboxFor, OutboxMessage } from '../../factories/mail.factory';
import { TEST_ORIGIN, TestApp } from '../../support/test-app';

type Agent = TestAgent<Test>;

/** The TOTP time step (30 s) of now. */
export function currentTimeStep(): number {
  return Math.floor(Date.now() / 30_000);
}

/** The code an authenticator app would show at that time step. */
export function totpAt(secret: string, timeStep: number): Promise<string> {
  return generate({ secret, epoch: timeStep * 30 });
}

/** Turns two-factor sign-in on through the API; answers the secret, recovery codes and the step used. */
export async function enableTwoFactor(agent: Agent) {
  const setup = await agent.post('/api/users/two-factor/setup').set('Origin', TEST_ORIGIN).expect(200);
  const secret: string = setup.body.secret;
  const timeStep = currentTimeStep();
  const enabled = await agent
    .post('/api/users/two-factor/enable')
    .set('Origin', TEST_ORIGIN)
    .send({ code: await totpAt(secret, timeStep) })
    .expect(200);
  return { secret, timeStep, recoveryCodes: enabled.body.recovery_codes as string[] };
}

/** The newest mail with that subject to the address, waiting a little: some mail is sent after the answer. */
export async function waitForMail(testApp: TestApp, email: string, subject: string): Promise<OutboxMessage> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const message = (await outboxFor(testApp, email)).find((candidate) => candidate.subject === subject);
    if (message) return message;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No mail "${subject}" to ${email}`);
}

/** The Set-Cookie line of a cookie, if the response set it. */
export function setCookieLine(headers: Record<string, unknown>, name: string): string | undefined {
  const raw = headers['set-cookie'];
  const lines = Array.isArray(raw) ? (raw as string[]) : typeof raw === 'string' ? [raw] : [];
  return lines.find((line) => line.startsWith(`${name}=`));
}
