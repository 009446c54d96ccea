// A real OpenID Connect provider (oidc-provider, ESM-only) for the single sign-on suites, in a
// child process: `node oidc-provider-child.mjs <redirect_uri>`. It listens on a free loopback
// port and prints `listening <port>` once ready. Accounts need no registration: the login form
// (oidc-provider's devInteractions) takes any address as the account, whose email claim it is;
// an address starting with "unverified:" has email_verified false. Two clients misbehave on
// purpose, re-signing their id_token with the provider's own key: one for another audience, one
// already expired, so the app's checks meet real signed tokens that fail only that check.
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';
import process from 'node:process';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import Provider from 'oidc-provider';

const redirectUri = process.argv[2];
const SECRET = 'provider-client-secret-0123456789';

const { privateKey } = await generateKeyPair('RS256', { extractable: true });
const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };

const client = (client_id) => ({
  client_id,
  client_secret: SECRET,
  redirect_uris: [redirectUri],
  grant_types: ['authorization_code'],
  response_types: ['code'],
});

const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address();

const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [client('marketplace'), client('marketplace-other-audience'), client('marketplace-expired')],
  jwks: { keys: [jwk] },
  cookies: { keys: ['test-cookie-key-0123456789'] },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  // The claims the scopes grant go in the id_token too, as most providers do for e-mail.
  conformIdTokenClaims: false,
  features: { devInteractions: { enabled: true } },
  async findAccount(_ctx, accountId) {
    const unverified = accountId.startsWith('unverified:');
    const email = accountId.replace(/^unverified:/, '');
    return {
      accountId,
      claims: () => ({
        sub: accountId,
        email,
        email_verified: !unverified,
        name: `SSO ${email.split('@')[0]}`,
      }),
    };
  },
});

provider.use(async (ctx, next) => {
  await next();
  const clientId = ctx.oidc?.client?.clientId;
  if (ctx.path !== '/token' || ctx.status !== 200 || !ctx.body?.id_token) return;
  if (clientId !== 'marketplace-other-audience' && clientId !== 'marketplace-expired') return;
  const payload = JSON.parse(Buffer.from(ctx.body.id_token.split('.')[1], 'base64url').toString());
  const now = Math.floor(Date.now() / 1000);
  if (clientId === 'marketplace-other-audience') payload.aud = 'another-application';
  else Object.assign(payload, { iat: now - 7200, exp: now - 3600 });
  ctx.body = {
    ...ctx.body,
    id_token: await new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: jwk.kid }).sign(privateKey),
  };
});

server.on('request', provider.callback());
process.stdout.write(`listening ${port}\n`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
