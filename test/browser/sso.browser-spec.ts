import type { Browser, Page } from 'playwright-core';
import { LocalProvider, PROVIDER_CLIENT_SECRET, startLocalProvider } from '../support/oidc/local-provider';
import {
  createVerifiedAccount,
  expectSnackbar,
  freshEmail,
  horizontalOverflow,
  logInThroughForm,
} from './support/accounts';
import { baseUrl, launchBrowser, openPage } from './support/browser';
import { apiAs } from './support/journey';

const PASSWORD = 'sso-owner-password-2026';
const PHONE = { width: 375, height: 812 };

/** The newest domain verification link mailed to this address (dev outbox), as a path of the app. */
async function domainLinkFor(email: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const response = await fetch(`${baseUrl()}/api/dev/outbox?email=${encodeURIComponent(email)}`);
    const messages = (await response.json()) as Array<{ links: string[] }>;
    const link = messages
      .flatMap((message) => message.links)
      .find((url) => url.includes('/sso/verify-domain?'));
    if (link) return `${new URL(link).pathname}${new URL(link).search}`;
    await new Promise((retry) => setTimeout(retry, 200));
  }
  throw new Error(`No domain verification mail for ${email}`);
}

async function noOverflowAtPhoneWidth(page: Page): Promise<void> {
  await page.setViewportSize(PHONE);
  expect(await horizontalOverflow(page)).toBe(0);
}

describe('single sign-on in a browser', () => {
  let browser: Browser;
  let provider: LocalProvider;
  beforeAll(async () => {
    browser = await launchBrowser();
    provider = await startLocalProvider(`${baseUrl()}/api/auth/sso/callback`);
  });
  afterAll(async () => {
    await provider?.stop();
    await browser?.close();
  });

  it('an admin sets up the provider and a domain; a newcomer at it signs in with SSO from the login page', async () => {
    const ownerEmail = freshEmail('sso-owner');
    await createVerifiedAccount('Olive Owner', ownerEmail, PASSWORD);
    const owner = await openPage(browser);
    await logInThroughForm(owner.page, ownerEmail, PASSWORD);
    const organisation = await apiAs<{ id: string }>(owner.page, 'POST', 'organisations', {
      name: 'SSO Corp',
      slug: `sso-corp-${Date.now()}`,
    });
    await owner.page.goto(`/organisations/${organisation.id}`);
    const section = owner.page.getByRole('region', { name: 'Single sign-on' });
    await section.getByLabel('Issuer URL').fill(provider.issuer);
    await section.getByLabel('Client id').fill('marketplace');
    await section.getByLabel('Client secret').fill(PROVIDER_CLIENT_SECRET);
    await section.getByRole('button', { name: 'Save provider' }).click();
    await expectSnackbar(owner.page, 'Single sign-on provider saved.');
    await section.getByLabel('Replace client secret').waitFor();

    const domain = `sso-${Date.now()}.test`;
    await section.getByRole('textbox', { name: 'Domain', exact: true }).fill(domain);
    await section.getByLabel('Send the link to').fill(`postmaster@${domain}`);
    await section.getByRole('button', { name: 'Verify' }).click();
    await expectSnackbar(owner.page, `Verification link sent to postmaster@${domain}.`);
    await noOverflowAtPhoneWidth(owner.page);

    const mailReader = await openPage(browser);
    await mailReader.page.goto(await domainLinkFor(`postmaster@${domain}`));
    await mailReader.page.getByRole('button', { name: 'Confirm domain' }).click();
    await mailReader.page.getByRole('status').getByText(`${domain} is verified`, { exact: false }).waitFor();
    await owner.page.reload();
    await section.getByRole('list', { name: 'Domains' }).getByText('Verified').waitFor();

    const newcomer = await openPage(browser);
    // The provider's development pages ask for a web font; this machine has no way out to it.
    await newcomer.context.route('https://fonts.googleapis.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/css', body: '' }),
    );
    await newcomer.page.goto('/login');
    await noOverflowAtPhoneWidth(newcomer.page);
    await newcomer.page.getByLabel('Email').fill(`nina@${domain}`);
    await newcomer.page.getByRole('button', { name: 'Sign in with SSO' }).click();
    // At the provider (oidc-provider's development login and consent pages).
    await newcomer.page.waitForURL(`${provider.issuer}/**`);
    await newcomer.page.locator('input[name="login"]').fill(`nina@${domain}`);
    await newcomer.page.locator('input[name="password"]').fill('anything');
    await newcomer.page.getByRole('button', { name: 'Sign-in' }).click();
    await newcomer.page.getByRole('button', { name: 'Continue' }).click();
    await newcomer.page.waitForURL(`${baseUrl()}/`);
    const me = await apiAs<{ email: string }>(newcomer.page, 'GET', 'users/me');
    expect(me.email).toBe(`nina@${domain}`);
    const organisations = await apiAs<Array<{ id: string; my_role: string }>>(
      newcomer.page,
      'GET',
      'organisations',
    );
    expect(organisations).toEqual([expect.objectContaining({ id: organisation.id, my_role: 'viewer' })]);
    expect([...owner.errors, ...mailReader.errors, ...newcomer.errors]).toEqual([]);
  });
});
