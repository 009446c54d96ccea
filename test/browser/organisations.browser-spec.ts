import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import {
  createVerifiedAccount,
  expectEventually,
  expectSnackbar,
  freshEmail,
  horizontalOverflow,
  logInThroughForm,
  snapshot,
} from './support/accounts';
import { baseUrl, launchBrowser, openPage } from './support/browser';

const PASSWORD = 'organisation-password-2026';
const header = (page: Page) => page.getByRole('banner');
const switcher = (page: Page) => header(page).getByRole('button', { name: /^Switch organisation/ });

/** The newest invitation link mailed to this address (dev outbox), as a path of the app. */
async function invitationPathFor(email: string): Promise<string> {
  let link: string | undefined;
  await expectEventually(async () => {
    const response = await fetch(`${baseUrl()}/api/dev/outbox?email=${encodeURIComponent(email)}`);
    const messages = (await response.json()) as Array<{ links: string[] }>;
    link = messages.flatMap((message) => message.links).find((url) => url.includes('/invitations?token='));
    return Boolean(link);
  }, true);
  const url = new URL(link!);
  return `${url.pathname}${url.search}`;
}

/** The names the switcher's menu offers, in order, then closes it. */
async function switcherChoices(page: Page): Promise<string[]> {
  await switcher(page).click();
  const menu = page.getByRole('menu');
  await menu.waitFor();
  const texts = await menu.getByRole('menuitem').allInnerTexts();
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
  return texts;
}

describe('organisations in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('creates an organisation, invites someone who accepts in another browser and finds it in the switcher', async () => {
    const ownerEmail = freshEmail('org-owner');
    const inviteeEmail = freshEmail('org-invitee');
    await createVerifiedAccount('Olive Owner', ownerEmail, PASSWORD);
    await createVerifiedAccount('Ivan Invitee', inviteeEmail, PASSWORD);
    const name = `Acme ${Date.now()}`;

    const owner = await openPage(browser);
    await logInThroughForm(owner.page, ownerEmail, PASSWORD);
    await expect(switcher(owner.page).innerText()).resolves.toBe('Personal');
    // The Account menu leads to the organisations.
    await header(owner.page).getByRole('button', { name: 'Account' }).click();
    await owner.page.getByRole('menu').getByRole('menuitem', { name: 'Organisations' }).click();
    await owner.page.waitForURL('**/organisations');
    const main = owner.page.getByRole('main');
    await main.getByLabel('Name').fill(name);
    await main.getByLabel('Slug').fill(`acme-${Date.now()}`);
    await main.getByRole('button', { name: 'Create' }).click();
    await owner.page.waitForURL(/\/organisations\/[0-9a-f-]{36}$/);
    const organisationUrl = owner.page.url();
    await main.getByRole('heading', { name, level: 1 }).waitFor();
    await expectEventually(() => switcher(owner.page).innerText(), name);

    const invitations = main.getByRole('region', { name: 'Invitations' });
    await invitations.getByLabel('E-mail').fill(inviteeEmail);
    await invitations.getByRole('button', { name: 'Invite' }).click();
    await expectSnackbar(owner.page, `Invitation sent to ${inviteeEmail}.`);
    await invitations
      .getByRole('list', { name: 'Pending invitations' })
      .getByText(inviteeEmail, { exact: false })
      .waitFor();
    // The owner's audit log on the same page shows the invitation at once, without a reload.
    await expectEventually(
      async () =>
        (await main.getByRole('list', { name: 'Audit events' }).getByRole('listitem').allInnerTexts()).map(
          (text) => text.split('\n')[0],
        ),
      ['Member invited', 'Organisation created'],
    );

    // The invitee, in a browser of their own, follows the mailed link and accepts.
    const invitee = await openPage(browser);
    await logInThroughForm(invitee.page, inviteeEmail, PASSWORD);
    await expect(switcherChoices(invitee.page)).resolves.toEqual(['Personal', 'All organisations']);
    await invitee.page.goto(await invitationPathFor(inviteeEmail));
    await invitee.page.getByRole('main').getByRole('button', { name: 'Accept' }).click();
    await expectSnackbar(invitee.page, `You have joined ${name}.`);
    await invitee.page.waitForURL(organisationUrl);

    // Back on their own pages, the switcher offers the organisation and opens it.
    await header(invitee.page).getByRole('button', { name: 'Account' }).click();
    await invitee.page.getByRole('menu').getByRole('menuitem', { name: 'Manage Data' }).click();
    await invitee.page.waitForURL('**/manage');
    await expectEventually(() => switcher(invitee.page).innerText(), 'Personal');
    await expect(switcherChoices(invitee.page)).resolves.toEqual(['Personal', name, 'All organisations']);
    await switcher(invitee.page).click();
    await snapshot(invitee.page, 'organisation-switcher', 'desktop');
    await invitee.page.getByRole('menu').getByRole('menuitem', { name }).click();
    await invitee.page.waitForURL(organisationUrl);
    await expectEventually(() => switcher(invitee.page).innerText(), name);
    // An editor sees the members, not the audit log.
    await invitee.page
      .getByRole('main')
      .getByRole('region', { name: 'Members' })
      .getByText('Olive Owner')
      .waitFor();
    await expect(invitee.page.getByRole('region', { name: 'Audit log' }).count()).resolves.toBe(0);
    await switcher(invitee.page).click();
    await invitee.page.getByRole('menu').getByRole('menuitem', { name: 'Personal' }).click();
    await invitee.page.waitForURL('**/manage');

    expect([...owner.errors, ...invitee.errors]).toEqual([]);
    await owner.context.close();
    await invitee.context.close();
  });

  it('lets an admin read, filter and export the organisation’s audit log', async () => {
    const email = freshEmail('org-admin');
    await createVerifiedAccount('Ada Admin', email, PASSWORD);
    const { context, page, errors } = await openPage(browser);
    await logInThroughForm(page, email, PASSWORD);
    const created = await page.request.post(`${baseUrl()}/api/organisations`, {
      headers: { origin: baseUrl() },
      data: { name: 'Audit Analytics', slug: `audit-${Date.now()}` },
    });
    const organisation = (await created.json()) as { id: string };
    await page.request.post(`${baseUrl()}/api/organisations/${organisation.id}/invitations`, {
      headers: { origin: baseUrl() },
      data: { email: freshEmail('audited'), role: 'viewer' },
    });

    await page.goto(`/organisations/${organisation.id}`);
    const log = page.getByRole('region', { name: 'Audit log' });
    const events = log.getByRole('list', { name: 'Audit events' });
    await expectEventually(
      async () => (await events.getByRole('listitem').allInnerTexts()).map((text) => text.split('\n')[0]),
      ['Member invited', 'Organisation created'],
    );
    await events
      .getByText(/Ada Admin/)
      .first()
      .waitFor();
    await snapshot(page, 'organisation-audit-log', 'desktop');

    // The filter narrows the list and the downloads alike.
    await log.getByRole('combobox', { name: 'Events' }).click();
    await page.getByRole('listbox').getByRole('option', { name: 'Organisation created' }).click();
    await expectEventually(
      async () => (await events.getByRole('listitem').allInnerTexts()).map((text) => text.split('\n')[0]),
      ['Organisation created'],
    );
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      log.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    expect(csv.suggestedFilename()).toBe('organisation-audit-log.csv');
    const rows = (await readFile((await csv.path())!, 'utf8')).trimEnd().split('\n');
    expect(rows[0]).toBe('id,occurred_at,type,credential_kind,credential_id,ip,user_agent,detail,user_id');
    expect(rows.slice(1).map((row) => row.split(',')[2])).toEqual(['organisation_created']);

    await log.getByRole('combobox', { name: 'Events' }).click();
    await page.getByRole('listbox').getByRole('option', { name: 'All events' }).click();
    await expectEventually(async () => events.getByRole('listitem').count(), 2);
    const [jsonl] = await Promise.all([
      page.waitForEvent('download'),
      log.getByRole('link', { name: 'Download JSON Lines' }).click(),
    ]);
    expect(jsonl.suggestedFilename()).toBe('organisation-audit-log.jsonl');
    const lines = (await readFile((await jsonl.path())!, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; detail: { organisation_id: string } });
    expect(lines.map((line) => line.type)).toEqual(['organisation_member_invited', 'organisation_created']);
    expect(lines.every((line) => line.detail.organisation_id === organisation.id)).toBe(true);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('fits the switcher and the audit log on a phone', async () => {
    const email = freshEmail('org-phone');
    await createVerifiedAccount('Pia Phone', email, PASSWORD);
    const { context, page, errors } = await openPage(browser, 'phone');
    await page.setViewportSize({ width: 375, height: 812 });
    await logInThroughForm(page, email, PASSWORD);
    const created = await page.request.post(`${baseUrl()}/api/organisations`, {
      headers: { origin: baseUrl() },
      // A long name: the switcher cuts it short rather than widening the header.
      data: { name: 'Internationale Datenwirtschaftsgesellschaft Nord', slug: `phone-${Date.now()}` },
    });
    const organisation = (await created.json()) as { id: string };

    await page.goto(`/organisations/${organisation.id}`);
    await page.getByRole('region', { name: 'Audit log' }).getByText('Organisation created').waitFor();
    await expectEventually(
      () => switcher(page).innerText(),
      'Internationale Datenwirtschaftsgesellschaft Nord',
    );
    expect(await horizontalOverflow(page)).toBe(0);
    // The brand keeps its one line (as tall as its 32px logo); the switcher is what gives way.
    const brand = await header(page).getByRole('link', { name: 'Data Marketplace home' }).boundingBox();
    expect(brand!.height).toBeLessThan(40);
    await snapshot(page, 'organisation-audit-log', 'phone');
    await switcher(page).click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Personal' }).waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    await snapshot(page, 'organisation-switcher', 'phone');
    await page.getByRole('menu').getByRole('menuitem', { name: 'Personal' }).click();
    await page.waitForURL('**/manage');
    expect(await horizontalOverflow(page)).toBe(0);

    // The phone menu reaches the organisations too.
    await header(page).getByRole('button', { name: 'Open menu' }).click();
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Organisations' })
      .click();
    await page.waitForURL('**/organisations');
    expect(errors).toEqual([]);
    await context.close();
  });
});
