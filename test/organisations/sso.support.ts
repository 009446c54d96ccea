import { randomUUID } from 'node:crypto';
import { PROVIDER_CLIENT_SECRET, LocalProvider } from '../support/oidc/local-provider';
import { TEST_ORIGIN, TestApp } from '../support/test-app';
import { Agent, createTeam, Team } from './support';

export const CALLBACK_URL = `${TEST_ORIGIN}/api/auth/sso/callback`;

export function uniqueDomain(): string {
  return `acme-${randomUUID().slice(0, 8)}.test`;
}

/** The token of the newest domain verification link mailed to the address. */
export async function domainTokenFor(testApp: TestApp, email: string): Promise<string> {
  const response = await testApp.http.get('/api/dev/outbox').query({ email }).expect(200);
  const link = (response.body as Array<{ links: string[] }>)[0]?.links.find((candidate) =>
    candidate.includes('/sso/verify-domain?token='),
  );
  if (!link) throw new Error(`No domain verification link in the outbox for ${email}`);
  return new URL(link).searchParams.get('token')!;
}

export function addDomain(
  agent: Agent,
  organisationId: string,
  domain: string,
  email = `postmaster@${domain}`,
) {
  return agent
    .post(`/api/organisations/${organisationId}/sso/domains`)
    .set('Origin', TEST_ORIGIN)
    .send({ domain, email });
}

export function verifyDomain(testApp: TestApp, token: string) {
  return testApp.http.post('/api/auth/sso/verify-domain').set('Origin', TEST_ORIGIN).send({ token });
}

export function configure(agent: Agent, organisationId: string, body: Record<string, unknown>) {
  return agent.patch(`/api/organisations/${organisationId}/sso`).set('Origin', TEST_ORIGIN).send(body);
}

/** A team (one member per role) whose provider is the local one, with one verified domain. */
export async function ssoTeam(
  testApp: TestApp,
  provider: LocalProvider,
  clientId = 'marketplace',
): Promise<Team & { domain: string }> {
  const team = await createTeam(testApp);
  const owner = team.people.owner.agent;
  await configure(owner, team.id, {
    issuer: provider.issuer,
    client_id: clientId,
    client_secret: PROVIDER_CLIENT_SECRET,
  }).expect(200);
  const domain = uniqueDomain();
  await addDomain(owner, team.id, domain).expect(201);
  await verifyDomain(testApp, await domainTokenFor(testApp, `postmaster@${domain}`)).expect(200);
  return { ...team, domain };
}

/** The session id in the agent's cookie for the app (unsigned part). */
export function sessionIdOf(setCookie: string[] | string | undefined): string | undefined {
  const cookies = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const cookie = cookies.find((candidate) => candidate.startsWith('dm.sid='));
  return cookie && decodeURIComponent(cookie.split(';')[0].slice('dm.sid='.length)).split('.')[0];
}
