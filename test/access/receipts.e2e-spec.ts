import { NotificationMailer } from '../../src/notifications/notification-mailer.service';
import { uploadDataset } from '../factories/asset.factory';
import { outboxFor } from '../factories/mail.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

describe('receipts: an e-mail and an account notice for every purchase', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  it('writes a receipt with order, title, price, date and how to read the data, and mails the same text', async () => {
    const owner = await createLoggedInUser(testApp);
    const buyer = await createLoggedInUser(testApp);
    const assetId = await uploadDataset(owner.agent, { title: 'Harbour traffic', price: '19.99' });
    const bought = await buyer.agent
      .post('/api/access/grant')
      .set('Origin', TEST_ORIGIN)
      .send({ assetId })
      .expect(200);
    const orderId = bought.body.purchase.id as string;

    const notices = (await buyer.agent.get('/api/notifications').expect(200)).body;
    expect(notices).toHaveLength(1);
    const [receipt] = notices;
    expect(receipt).toMatchObject({ kind: 'receipt', subject: 'Receipt for Harbour traffic' });
    expect(receipt.text).toContain(`Order: ${orderId}`);
    expect(receipt.text).toContain('Dataset: Harbour traffic');
    expect(receipt.text).toContain('Price: 19.99 USD');
    expect(receipt.text).toContain(`Date: ${new Date().toISOString().slice(0, 10)}`);
    expect(receipt.text).toContain(`${TEST_ORIGIN}/dataset_profile/${assetId}`);
    const [{ readable_name: tableName }] = await testApp.dataSource.query(
      `SELECT readable_name FROM assets WHERE id = $1`,
      [assetId],
    );
    expect(receipt.text).toContain(`${TEST_ORIGIN}/api/stream/data/${tableName}?api_key=`);

    expect(await outboxFor(testApp, buyer.user.email)).toEqual([]);
    await testApp.app.get(NotificationMailer).sendDue();
    const mails = (await outboxFor(testApp, buyer.user.email)).filter(
      (mail) => mail.subject === receipt.subject,
    );
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toBe(receipt.text);

    await testApp.app.get(NotificationMailer).sendDue();
    expect(
      (await outboxFor(testApp, buyer.user.email)).filter((mail) => mail.subject === receipt.subject),
    ).toHaveLength(1);
  });

  it('writes no receipt for free datasets, nor a second one when a bought dataset is got back', async () => {
    const owner = await createLoggedInUser(testApp);
    const buyer = await createLoggedInUser(testApp);
    const freeId = await uploadDataset(owner.agent, { price: '0' });
    const paidId = await uploadDataset(owner.agent, { price: '3.00' });
    const grant = (assetId: string) =>
      buyer.agent.post('/api/access/grant').set('Origin', TEST_ORIGIN).send({ assetId }).expect(200);
    await grant(freeId);
    await grant(paidId);
    await buyer.agent
      .post('/api/access/remove')
      .set('Origin', TEST_ORIGIN)
      .send({ assetId: paidId })
      .expect(200);
    await grant(paidId);
    const kinds = (await buyer.agent.get('/api/notifications').expect(200)).body.map(
      (notice: { kind: string }) => notice.kind,
    );
    expect(kinds).toEqual(['receipt']);
  });

  it('shows each user only their own notices, and visitors none', async () => {
    const owner = await createLoggedInUser(testApp);
    const buyer = await createLoggedInUser(testApp);
    const other = await createLoggedInUser(testApp);
    const assetId = await uploadDataset(owner.agent, { price: '5.00' });
    await buyer.agent.post('/api/access/grant').set('Origin', TEST_ORIGIN).send({ assetId }).expect(200);
    expect((await other.agent.get('/api/notifications').expect(200)).body).toEqual([]);
    await testApp.http.get('/api/notifications').expect(401);
  });

  it('sends nothing lost: a notice claimed by a process that died is mailed once its claim runs out', async () => {
    const owner = await createLoggedInUser(testApp);
    const buyer = await createLoggedInUser(testApp);
    const assetId = await uploadDataset(owner.agent, { title: 'Claimed then lost', price: '2.00' });
    await buyer.agent.post('/api/access/grant').set('Origin', TEST_ORIGIN).send({ assetId }).expect(200);
    // A process took the notice and died before sending: its claim ran out a moment ago.
    await testApp.dataSource.query(
      `UPDATE notifications SET claimed_until = now() - interval '1 second', mail_attempts = 1 WHERE user_id = $1`,
      [buyer.user.id],
    );
    await testApp.app.get(NotificationMailer).sendDue();
    const mails = (await outboxFor(testApp, buyer.user.email)).filter(
      (mail) => mail.subject === 'Receipt for Claimed then lost',
    );
    expect(mails).toHaveLength(1);
  });
});
