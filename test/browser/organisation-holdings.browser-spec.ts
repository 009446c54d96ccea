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
import { apiAs, gridRowTexts } from './support/journey';

const PASSWORD = 'organisation-holdings-2026';
const ROWS = 'harbour,ships\nKiel,41\nBergen,17\nTallinn,9\n';

/** Uploads a CSV as the page's user and returns the dataset id. */
async function uploadAs(page: Page, title: string, isPublic: boolean, price = '0'): Promise<string> {
  const response = await page.request.post(`${baseUrl()}/api/assets/upload-csv`, {
    headers: { origin: baseUrl() },
    multipart: {
      title,
      price,
      is_public: String(isPublic),
      file: { name: 'harbours.csv', mimeType: 'text/csv', buffer: Buffer.from(ROWS) },
    },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

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

describe('what an organisation holds, in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('an invited member reads datasets got and bought for the organisation, and no longer after leaving', async () => {
    const ownerEmail = freshEmail('holder-owner');
    const memberEmail = freshEmail('holder-member');
    const publisherEmail = freshEmail('holder-publisher');
    await createVerifiedAccount('Hana Holder', ownerEmail, PASSWORD);
    await createVerifiedAccount('Milo Member', memberEmail, PASSWORD);
    await createVerifiedAccount('Pablo Publisher', publisherEmail, PASSWORD);
    const name = `Harbour Data ${Date.now()}`;
    const title = `Harbours ${Date.now()}`;

    const publisher = await openPage(browser);
    await logInThroughForm(publisher.page, publisherEmail, PASSWORD);
    const datasetId = await uploadAs(publisher.page, title, true);
    const paidTitle = `Paid harbours ${Date.now()}`;
    const paidId = await uploadAs(publisher.page, paidTitle, true, '5');
    await publisher.context.close();

    // The owner creates the organisation and invites the member on its page.
    const owner = await openPage(browser);
    await logInThroughForm(owner.page, ownerEmail, PASSWORD);
    const organisation = await apiAs<{ id: string }>(owner.page, 'POST', 'organisations', {
      name,
      slug: `harbour-${Date.now()}`,
    });
    await owner.page.goto(`/organisations/${organisation.id}`);
    const invitations = owner.page.getByRole('region', { name: 'Invitations' });
    await invitations.getByLabel('E-mail').fill(memberEmail);
    await invitations.getByRole('button', { name: 'Invite' }).click();
    await expectSnackbar(owner.page, `Invitation sent to ${memberEmail}.`);

    // The member accepts in a browser of their own.
    const member = await openPage(browser);
    await logInThroughForm(member.page, memberEmail, PASSWORD);
    await member.page.goto(await invitationPathFor(memberEmail));
    await member.page.getByRole('main').getByRole('button', { name: 'Accept' }).click();
    await expectSnackbar(member.page, `You have joined ${name}.`);

    // The owner gets the free dataset for the organisation, choosing it in the Get dialog.
    await owner.page.goto(`/dataset_profile/${datasetId}`);
    await owner.page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await owner.page.getByRole('button', { name: 'Get', exact: true }).click();
    const dialog = owner.page.getByRole('dialog');
    await dialog.getByRole('radio', { name: 'For me' }).waitFor();
    await dialog.getByRole('radio', { name: `For ${name}` }).check();
    await snapshot(owner.page, 'get-for-organisation', 'desktop');
    await dialog.getByRole('button', { name: 'Get', exact: true }).click();
    await expectSnackbar(owner.page, `Access granted to ${name}!`);

    // Buy offers the same choice; bought for the organisation, it is charged to the owner.
    await owner.page.goto(`/dataset_profile/${paidId}`);
    await owner.page.getByRole('heading', { name: paidTitle, level: 1 }).waitFor();
    await owner.page.getByRole('button', { name: 'Buy', exact: true }).click();
    const buy = owner.page.getByRole('dialog');
    await buy.getByRole('radio', { name: `For ${name}` }).check();
    await buy.getByRole('button', { name: /^Buy for/ }).click();
    await expectSnackbar(owner.page, `Access granted to ${name}!`);

    // The member reads every row, of both.
    await member.page.goto(`/dataset_profile/${datasetId}`);
    const rows = await gridRowTexts(member.page.getByRole('grid', { name: 'Dataset rows' }));
    expect(rows.join('\n')).toContain('Kiel');
    expect(rows).toHaveLength(3);
    await member.page.goto(`/dataset_profile/${paidId}`);
    expect(await gridRowTexts(member.page.getByRole('grid', { name: 'Dataset rows' }))).toHaveLength(3);

    // After leaving, the same page offers the sample only.
    await member.page.goto(`/organisations/${organisation.id}`);
    await member.page.getByRole('button', { name: 'Leave organisation' }).click();
    await expectSnackbar(member.page, 'You have left the organisation.');
    await member.page.goto(`/dataset_profile/${datasetId}`);
    await member.page.getByText('The full dataset needs access').waitFor();
    await expect(member.page.getByRole('grid', { name: 'Dataset rows' }).count()).resolves.toBe(0);

    expect([...owner.errors, ...member.errors]).toEqual([]);
    await owner.context.close();
    await member.context.close();
  });

  for (const viewport of ['desktop', 'phone'] as const) {
    it(`moves a dataset into the organisation, names it as owner, and manages tokens (${viewport})`, async () => {
      const email = freshEmail(`tokens-${viewport}`);
      await createVerifiedAccount('Tess Tokens', email, PASSWORD);
      const { context, page, errors } = await openPage(browser, viewport);
      if (viewport === 'phone') await page.setViewportSize({ width: 375, height: 812 });
      await logInThroughForm(page, email, PASSWORD);
      const name = `Internationale Hafendatengesellschaft ${Date.now()}`;
      const organisation = await apiAs<{ id: string }>(page, 'POST', 'organisations', {
        name,
        slug: `hafen-${viewport}-${Date.now()}`,
      });
      const title = `Private harbours ${viewport} ${Date.now()}`;
      const datasetId = await uploadAs(page, title, false);

      // Move to organisation, from the owner's panel.
      await page.goto(`/dataset_profile/${datasetId}`);
      await page.getByRole('button', { name: 'Move to organisation' }).click();
      const move = page.getByRole('dialog');
      await move.getByRole('combobox', { name: 'Organisation' }).waitFor();
      expect(await horizontalOverflow(page)).toBe(0);
      await snapshot(page, 'move-to-organisation', viewport);
      await move.getByRole('button', { name: 'Move' }).click();
      await expectSnackbar(page, `Moved to ${name}.`);
      const ownerLine = page.getByTestId('dataset-owner');
      await ownerLine.getByRole('link', { name }).waitFor();
      await expect(page.getByRole('button', { name: 'Move to organisation' }).count()).resolves.toBe(0);
      expect(await horizontalOverflow(page)).toBe(0);
      await snapshot(page, 'dataset-owned-by-organisation', viewport);
      await ownerLine.getByRole('link', { name }).click();
      await page.waitForURL(`**/organisations/${organisation.id}`);

      // Tokens: created with scopes, shown once, then listed by hint and revoked.
      const tokens = page.getByRole('region', { name: 'API tokens' });
      await tokens.getByText('No tokens yet.').waitFor();
      await tokens.getByRole('button', { name: 'New token' }).click();
      const create = page.getByRole('dialog');
      await create.getByLabel('Name').fill('Power BI refresh');
      await create.getByRole('checkbox', { name: 'SQL queries' }).check();
      await create.getByRole('button', { name: 'Create token' }).click();
      await create.getByText('Copy it now: it is not stored and cannot be shown again.').waitFor();
      expect(await horizontalOverflow(page)).toBe(0);
      await snapshot(page, 'organisation-token-created', viewport);
      const shown = (await create.locator('code').innerText()).trim();
      expect(shown).toMatch(/^dmt_/);
      await create.getByRole('button', { name: 'Done' }).click();
      await tokens.getByText('Power BI refresh').waitFor();
      expect(await tokens.textContent()).not.toContain(shown);
      expect(await horizontalOverflow(page)).toBe(0);
      await snapshot(page, 'organisation-tokens', viewport);

      // The token reads the organisation's dataset as a stream.
      const streamed = await fetch(`${baseUrl()}/api/stream/data/${datasetId}?api_key=${shown}`);
      expect(streamed.status).toBe(200);

      await tokens.getByRole('button', { name: 'Revoke Power BI refresh' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
      await expectSnackbar(page, 'Token “Power BI refresh” revoked.');
      await tokens.getByText('No tokens yet.').waitFor();
      // The organisation's audit log on the same page has both, without a reload.
      const events = page.getByRole('list', { name: 'Audit events' });
      await expectEventually(
        async () => (await events.getByRole('listitem').allInnerTexts()).map((text) => text.split('\n')[0]),
        [
          'API token revoked',
          'API token created',
          'Dataset moved into an organisation',
          'Organisation created',
        ],
      );
      const refused = await fetch(`${baseUrl()}/api/stream/data/${datasetId}?api_key=${shown}`);
      expect(refused.status).toBe(401);

      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
