import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopChild } from '../listening-child';

const CHILD = join(__dirname, 'oidc-provider-child.mjs');
/** Every client of the local provider has this secret (see oidc-provider-child.mjs). */
export const PROVIDER_CLIENT_SECRET = 'provider-client-secret-0123456789';

export interface LocalProvider {
  issuer: string;
  /** Signs in at the provider from an authorization URL; answers the app's callback path and query. */
  signIn(authorizationUrl: string, account: string): Promise<string>;
  stop(): Promise<void>;
}

/** Starts the provider (ESM-only, so in its own Node process) with the app's callback registered. */
export async function startLocalProvider(redirectUri: string): Promise<LocalProvider> {
  const folder = mkdtempSync(join(tmpdir(), 'dm-oidc-'));
  const child = spawn(process.execPath, [CHILD, redirectUri], {
    cwd: folder,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const port = await portOf(child);
  const issuer = `http://127.0.0.1:${port}`;
  return {
    issuer,
    signIn: (authorizationUrl, account) => drive(issuer, redirectUri, authorizationUrl, account),
    stop: () => stopChild(child, folder),
  };
}

function portOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', () => reject(new Error('The OIDC provider exited at start')));
  });
}

/**
 * A browser at the provider, over plain HTTP: follows its redirects with its cookies, fills the
 * login form (devInteractions) with the account and confirms the consent form, until the
 * provider sends the browser back to the app.
 */
async function drive(issuer: string, redirectUri: string, start: string, account: string): Promise<string> {
  const cookies = new Map<string, string>();
  let next: { url: string; form?: URLSearchParams } = { url: start };
  for (let step = 0; step < 20; step += 1) {
    if (next.url.startsWith(redirectUri)) {
      const back = new URL(next.url);
      return back.pathname + back.search;
    }
    const response = await fetch(next.url, {
      method: next.form ? 'POST' : 'GET',
      body: next.form,
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = response.headers.get('location');
    if (location) {
      next = { url: new URL(location, issuer).href };
      continue;
    }
    const page = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    if (!action || !prompt)
      throw new Error(`The provider answered ${response.status} without a form: ${page.slice(0, 300)}`);
    const form = new URLSearchParams({ prompt });
    if (prompt === 'login') {
      form.set('login', account);
      form.set('password', 'any');
    }
    next = { url: new URL(action.replace(/&amp;/g, '&'), issuer).href, form };
  }
  throw new Error('The provider did not send the browser back');
}
