import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { NotificationMailer } from '../../src/notifications/notification-mailer.service';
import { uploadDataset } from '../factories/asset.factory';
import { outboxFor } from '../factories/mail.factory';
import { createLoggedInUser, TestUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';

type Agent = TestAgent<Test>;
type Person = { user: TestUser; agent: Agent };

describe('paid data never vanishes: deleting or unpublishing what others bought archives it', () => {
  let testApp: TestApp;
  let owner: Person;
  let buyer: Person;
  let stranger: Person;

  beforeAll(async () => {
    testApp = await createTestApp();
    owner = await createLoggedInUser(testApp);
    buyer = await createLoggedInUser(testApp);
    stranger = await createLoggedInUser(testApp);
  });
  afterAll(() => testApp.close());

  const grant = (person: Person, assetId: string) =>
    person.agent.post('/api/access/grant').set('Origin', TEST_ORIGIN).send({ assetId });
  const remove = (assetId: string) => owner.agent.delete(`/api/assets/${assetId}`).set('Origin', TEST_ORIGIN);
  const catalogueIds = async (agent: Agent | TestApp['http'], query: Record<string, string>) =>
    (
      (
        await agent
          .get('/api/assets')
          .query({ limit: 1000, ...query })
          .expect(200)
      ).body as Array<{ id: string }>
    ).map((asset) => asset.id);
  const notices = async (person: Person) =>
    (await person.agent.get('/api/notifications').expect(200)).body as Array<{
      kind: string;
      subject: string;
      text: string;
    }>;

  /** A paid dataset the buyer bought (test provider), with a unique title to search for. */
  async function boughtDataset(title: string): Promise<string> {
    const id = await uploadDataset(owner.agent, { title, price: '12.50' });
    await grant(buyer, id).expect(200);
    return id;
  }

  it('archives on delete, says how many keep access, and keeps the data readable for the buyer', async () => {
    const title = `Bought then deleted ${Date.now()}`;
    const id = await boughtDataset(title);

    const answer = await remove(id).expect(200);
    expect(answer.body).toEqual({
      message: 'Dataset archived: 1 holder keeps access.',
      id,
      archived: true,
      holders_keep_access: 1,
    });

    const rows = await buyer.agent.get(`/api/assets/${id}/data`).query({ limit: 10 }).expect(200);
    expect(rows.body.rows).toHaveLength(3);
    await buyer.agent.get(`/api/assets/${id}`).expect(200);
    await owner.agent.get(`/api/assets/${id}`).expect(200);
    expect((await buyer.agent.get('/api/access/my').expect(200)).body).toContain(id);
    const [order] = await testApp.dataSource.query(
      `SELECT asset_id, status FROM purchases WHERE asset_id = $1`,
      [id],
    );
    expect(order).toEqual({ asset_id: id, status: 'paid' });
  });

  it('stays archived when its owner saves the Edit form, which shows it as private', async () => {
    const title = `Archived then edited ${Date.now()}`;
    const id = await boughtDataset(title);
    await remove(id).expect(200);
    const shown = (await owner.agent.get(`/api/assets/${id}`).expect(200)).body;
    expect(shown.is_public).toBe(false);
    await owner.agent
      .patch(`/api/assets/${id}`)
      .set('Origin', TEST_ORIGIN)
      .send({ title, description: 'typo fixed', is_public: shown.is_public })
      .expect(200);
    expect(await catalogueIds(testApp.http, { search: title })).not.toContain(id);
    await testApp.http.get(`/api/assets/${id}`).expect(404);
    await buyer.agent.get(`/api/assets/${id}/data`).query({ limit: 10 }).expect(200);
  });

  it('hides an archived dataset from the catalogue and its search, and from everyone who does not hold it', async () => {
    const title = `Archived search ${Date.now()}`;
    const id = await boughtDataset(title);
    await remove(id).expect(200);

    for (const agent of [testApp.http, stranger.agent, buyer.agent])
      expect(await catalogueIds(agent, { search: title })).not.toContain(id);
    expect(await catalogueIds(buyer.agent, { scope: 'accessible' })).toContain(id);
    expect(await catalogueIds(owner.agent, { scope: 'owned' })).toContain(id);

    expect((await stranger.agent.get(`/api/assets/${id}`).expect(404)).body.error).toBe('Dataset not found');
    await testApp.http.get(`/api/assets/${id}`).expect(404);
    await grant(stranger, id).expect(404);
  });

  it('tells each holder by notice and e-mail, once, when a dataset they hold is archived', async () => {
    const title = `Archived notice ${Date.now()}`;
    const id = await boughtDataset(title);
    await remove(id).expect(200);
    await remove(id).expect(200);

    const archived = (await notices(buyer)).filter(
      (notice) => notice.subject === `${title} was archived by its owner`,
    );
    expect(archived).toHaveLength(1);
    expect(archived[0]).toMatchObject({ kind: 'dataset_archived' });
    expect(archived[0].text).toContain('You keep your access');
    expect((await notices(owner)).some((notice) => notice.subject.startsWith(title))).toBe(false);

    await testApp.app.get(NotificationMailer).sendDue();
    const mails = (await outboxFor(testApp, buyer.user.email)).filter(
      (mail) => mail.subject === archived[0].subject,
    );
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toBe(archived[0].text);
  });

  it('still deletes a dataset nobody paid for; free holders lose access as before', async () => {
    const id = await uploadDataset(owner.agent, { title: 'Free to delete', price: '0' });
    await grant(stranger, id).expect(200);
    expect((await remove(id).expect(200)).body).toEqual({
      message: 'Dataset deleted.',
      id,
      holders_lost_access: 1,
    });
    await stranger.agent.get(`/api/assets/${id}`).expect(404);
  });

  it('archives on unpublish when others paid for it, and publishing again brings it back', async () => {
    const title = `Unpublished ${Date.now()}`;
    const id = await boughtDataset(title);
    const patch = (isPublic: boolean) =>
      owner.agent
        .patch(`/api/assets/${id}`)
        .set('Origin', TEST_ORIGIN)
        .send({ is_public: isPublic })
        .expect(200);

    await patch(false);
    expect(await catalogueIds(buyer.agent, { search: title })).not.toContain(id);
    await buyer.agent.get(`/api/assets/${id}/data`).expect(200);
    expect(
      (await notices(buyer)).filter((notice) => notice.subject === `${title} was archived by its owner`),
    ).toHaveLength(1);

    await patch(true);
    expect(await catalogueIds(stranger.agent, { search: title })).toContain(id);
  });

  it('lets the owner unpublish a dataset nobody paid for without archiving it', async () => {
    const title = `Private again ${Date.now()}`;
    const id = await uploadDataset(owner.agent, { title, price: '0' });
    await grant(stranger, id).expect(200);
    await owner.agent
      .patch(`/api/assets/${id}`)
      .set('Origin', TEST_ORIGIN)
      .send({ is_public: false })
      .expect(200);
    const [asset] = await testApp.dataSource.query(`SELECT archived_at FROM assets WHERE id = $1`, [id]);
    expect(asset.archived_at).toBeNull();
    expect(await catalogueIds(stranger.agent, { search: title })).toContain(id);
  });
});
