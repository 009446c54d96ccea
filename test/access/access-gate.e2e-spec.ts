import { randomUUID } from 'node:crypto';
import {
  AccessGate,
  Caller,
  CONNECTOR_OWNER_ONLY,
  DATASET_ORGANISATION_EDITORS_ONLY,
  DATASET_OWNER_ONLY,
  ORGANISATION_EDITORS_ONLY,
} from '../../src/access/access-gate.service';
import type { AuthenticatedUser } from '../../src/common/decorators/current-user.decorator';
import { sqlOn } from '../../src/database/sql';
import { uploadDataset } from '../factories/asset.factory';
import { createConnector } from '../factories/connector.factory';
import { createLoggedInUser, createUser } from '../factories/user.factory';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * The AccessGate on a real database, one rule per test: what each kind of caller may see, read
 * and change. The authorisation matrix checks the same rules through every API call.
 */
describe('AccessGate', () => {
  let testApp: TestApp;
  let gate: AccessGate;
  let owner: Caller & object;
  let holder: Caller & object;
  let stranger: Caller & object;
  const visitor: Caller = undefined;
  let publicId: string;
  let privateId: string;
  let heldPrivateId: string;

  const notFound = { status: 404 };
  const datasetOwnerOnly = { status: 403, message: DATASET_OWNER_ONLY };
  const connectorOwnerOnly = { status: 403, message: CONNECTOR_OWNER_ONLY };

  beforeAll(async () => {
    testApp = await createTestApp();
    gate = testApp.app.get(AccessGate);
    const uploader = await createLoggedInUser(testApp);
    const buyer = await createLoggedInUser(testApp);
    owner = uploader.user;
    holder = buyer.user;
    stranger = await createUser(testApp.dataSource);
    publicId = await uploadDataset(uploader.agent, { title: 'Gate public', is_public: 'true' });
    privateId = await uploadDataset(uploader.agent, { title: 'Gate private', is_public: 'false' });
    heldPrivateId = await uploadDataset(uploader.agent, { title: 'Gate private held', is_public: 'false' });
    // A grant on a private dataset (as if bought before it was made private).
    await testApp.dataSource.query(
      `INSERT INTO access_grants (user_id, asset_id, reason) VALUES ($1, $2, 'free'), ($1, $3, 'free')`,
      [holder.id, heldPrivateId, publicId],
    );
  });
  afterAll(() => testApp.close());

  describe('datasets', () => {
    it('lets anyone see a public dataset, without reading it in full', async () => {
      for (const caller of [visitor, stranger]) {
        const access = await gate.requireDataset(caller, publicId, 'sample');
        expect(access).toMatchObject({ owned: false, held: false });
        expect(access.asset.id).toBe(publicId);
      }
    });

    it('hides a private dataset from visitors and other users as if it did not exist', async () => {
      await expect(gate.requireDataset(visitor, privateId, 'sample')).rejects.toMatchObject(notFound);
      await expect(gate.requireDataset(stranger, privateId, 'sample')).rejects.toMatchObject(notFound);
    });

    it('shows a private dataset to its owner, who holds it', async () => {
      expect(await gate.requireDataset(owner, privateId, 'sample')).toMatchObject({
        owned: true,
        held: true,
      });
    });

    it('shows a private dataset to the holder of a grant', async () => {
      expect(await gate.requireDataset(holder, heldPrivateId, 'sample')).toMatchObject({
        owned: false,
        held: true,
      });
    });

    it('lets only the owner and holders read every row', async () => {
      expect((await gate.requireDataset(owner, publicId, 'full')).held).toBe(true);
      expect((await gate.requireDataset(holder, publicId, 'full')).held).toBe(true);
      await expect(gate.requireDataset(stranger, publicId, 'full')).rejects.toMatchObject(notFound);
      await expect(gate.requireDataset(visitor, publicId, 'full')).rejects.toMatchObject(notFound);
    });

    it('lets only the owner change a dataset', async () => {
      expect((await gate.requireDataset(owner, publicId, 'own')).owned).toBe(true);
      expect((await gate.requireDataset(owner, privateId, 'own')).owned).toBe(true);
    });

    it('tells a caller who sees a dataset but does not own it that only the owner can change it (403)', async () => {
      await expect(gate.requireDataset(holder, publicId, 'own')).rejects.toMatchObject(datasetOwnerOnly);
      await expect(gate.requireDataset(holder, heldPrivateId, 'own')).rejects.toMatchObject(datasetOwnerOnly);
      await expect(gate.requireDataset(stranger, publicId, 'own')).rejects.toMatchObject(datasetOwnerOnly);
      await expect(gate.requireDataset(visitor, publicId, 'own')).rejects.toMatchObject(datasetOwnerOnly);
    });

    it('answers 404 to an owner-only request on a dataset the caller cannot see', async () => {
      await expect(gate.requireDataset(stranger, privateId, 'own')).rejects.toMatchObject(notFound);
      await expect(gate.requireDataset(visitor, privateId, 'own')).rejects.toMatchObject(notFound);
      await expect(gate.requireDataset(holder, privateId, 'own')).rejects.toMatchObject(notFound);
    });

    it('locks a dataset for its owner only: 403 to one who sees it, 404 to one who does not', async () => {
      const sql = sqlOn(testApp.dataSource);
      expect((await gate.lockOwnedDataset(sql, owner, privateId)).id).toBe(privateId);
      await expect(gate.lockOwnedDataset(sql, holder, heldPrivateId)).rejects.toMatchObject(datasetOwnerOnly);
      await expect(gate.lockOwnedDataset(sql, stranger, publicId)).rejects.toMatchObject(datasetOwnerOnly);
      await expect(gate.lockOwnedDataset(sql, stranger, privateId)).rejects.toMatchObject(notFound);
      await expect(gate.lockOwnedDataset(sql, visitor, privateId)).rejects.toMatchObject(notFound);
      await expect(gate.lockOwnedDataset(sql, owner, randomUUID())).rejects.toMatchObject(notFound);
    });

    it("decides inside a transaction on that transaction's own view", async () => {
      const lateId = await uploadDataset((await createLoggedInUser(testApp)).agent, { is_public: 'false' });
      await testApp.dataSource.transaction(async (manager) => {
        await manager.query(`INSERT INTO access_grants (user_id, asset_id, reason) VALUES ($1, $2, 'free')`, [
          stranger.id,
          lateId,
        ]);
        // Not yet committed: only the transaction itself sees the new grant.
        expect((await gate.requireDataset(stranger, lateId, 'full', manager)).held).toBe(true);
        await expect(gate.requireDataset(stranger, lateId, 'full')).rejects.toMatchObject(notFound);
        await manager.query(`DELETE FROM access_grants WHERE asset_id = $1`, [lateId]);
      });
    });

    it('answers 404 for an id that is not a uuid or names nothing', async () => {
      await expect(gate.requireDataset(owner, 'not-a-uuid', 'sample')).rejects.toMatchObject(notFound);
      await expect(gate.requireDataset(owner, randomUUID(), 'sample')).rejects.toMatchObject(notFound);
    });

    it("lists a user's access list: owned and granted datasets, oldest first, nothing for a visitor", async () => {
      expect((await gate.heldDatasets(owner)).map((asset) => asset.id)).toEqual([
        publicId,
        privateId,
        heldPrivateId,
      ]);
      expect((await gate.heldDatasets(holder)).map((asset) => asset.id)).toEqual([publicId, heldPrivateId]);
      expect(await gate.heldDatasets(stranger)).toEqual([]);
      expect(await gate.heldDatasets(visitor)).toEqual([]);
    });

    it('phrases the same rules for list queries', async () => {
      const ids = [publicId, privateId, heldPrivateId];
      const listed = async (scope: 'visible' | 'held' | 'owned', caller: Caller) =>
        (
          await testApp.dataSource.query(
            `SELECT asset.id FROM assets asset WHERE asset.id = ANY($2::uuid[])
               AND ${gate.datasetCondition(scope, 'asset', '$1')} ORDER BY asset.created_at`,
            [caller?.id ?? null, ids],
          )
        ).map((row: { id: string }) => row.id);
      expect(await listed('visible', visitor)).toEqual([publicId]);
      expect(await listed('visible', holder)).toEqual([publicId, heldPrivateId]);
      expect(await listed('held', stranger)).toEqual([]);
      expect(await listed('owned', holder)).toEqual([]);
      expect(await listed('owned', owner)).toEqual(ids);
    });
  });

  describe('datasets of an organisation, and what it holds', () => {
    const editorsOnly = { status: 403, message: DATASET_ORGANISATION_EDITORS_ONLY };
    let organisationId: string;
    let ownedId: string;
    let heldId: string;
    const members = {} as Record<'owner' | 'admin' | 'editor' | 'viewer', Caller & object>;

    beforeAll(async () => {
      const uploader = await createLoggedInUser(testApp);
      [{ id: organisationId }] = await testApp.dataSource.query(
        `INSERT INTO organisations (name, slug) VALUES ('Gate team', $1) RETURNING id`,
        [`gate-${randomUUID().slice(0, 8)}`],
      );
      for (const role of ['owner', 'admin', 'editor', 'viewer'] as const) {
        members[role] = await createUser(testApp.dataSource);
        await testApp.dataSource.query(
          `INSERT INTO organisation_memberships (organisation_id, user_id, role) VALUES ($1, $2, $3)`,
          [organisationId, members[role].id, role],
        );
      }
      ownedId = await uploadDataset(uploader.agent, { title: 'Gate team owned', is_public: 'false' });
      await testApp.dataSource.query(`UPDATE assets SET organisation_id = $1 WHERE id = $2`, [
        organisationId,
        ownedId,
      ]);
      heldId = await uploadDataset(uploader.agent, { title: 'Gate team held', is_public: 'false' });
      await testApp.dataSource.query(
        `INSERT INTO organisation_grants (organisation_id, asset_id, reason) VALUES ($1, $2, 'free')`,
        [organisationId, heldId],
      );
      // Its uploader is no member: their upload grant no longer makes it theirs.
      uploaderOfOwned = uploader.user;
    });
    let uploaderOfOwned: Caller & object;

    it('lets editors, admins and owners act as owner of its datasets', async () => {
      for (const role of ['owner', 'admin', 'editor'] as const)
        expect(await gate.requireDataset(members[role], ownedId, 'own')).toMatchObject({
          owned: true,
          held: true,
        });
      expect((await gate.lockOwnedDataset(sqlOn(testApp.dataSource), members.editor, ownedId)).id).toBe(
        ownedId,
      );
    });

    it('lets a viewer read every row and change nothing (403 in the organisation’s words)', async () => {
      expect(await gate.requireDataset(members.viewer, ownedId, 'full')).toMatchObject({
        owned: false,
        held: true,
      });
      await expect(gate.requireDataset(members.viewer, ownedId, 'own')).rejects.toMatchObject(editorsOnly);
      await expect(
        gate.lockOwnedDataset(sqlOn(testApp.dataSource), members.viewer, ownedId),
      ).rejects.toMatchObject(editorsOnly);
    });

    it('hides its private datasets from everyone else, their uploader included', async () => {
      for (const caller of [stranger, visitor, uploaderOfOwned])
        await expect(gate.requireDataset(caller, ownedId, 'sample')).rejects.toMatchObject(notFound);
    });

    it('lets every member read what it holds, and nobody else', async () => {
      for (const role of ['owner', 'admin', 'editor', 'viewer'] as const)
        expect(await gate.requireDataset(members[role], heldId, 'full')).toMatchObject({
          owned: false,
          held: true,
        });
      await expect(gate.requireDataset(stranger, heldId, 'sample')).rejects.toMatchObject(notFound);
      expect((await gate.heldDatasets(members.viewer)).map((asset) => asset.id)).toEqual([ownedId, heldId]);
    });

    it('asks who may get, buy or move for it: editors and above; 403 a viewer, 404 anyone else', async () => {
      for (const role of ['owner', 'admin', 'editor'] as const)
        expect(await gate.requireOrganisationEditor(members[role], organisationId)).toBe(role);
      await expect(gate.requireOrganisationEditor(members.viewer, organisationId)).rejects.toMatchObject({
        status: 403,
        message: ORGANISATION_EDITORS_ONLY,
      });
      for (const caller of [stranger, visitor])
        await expect(gate.requireOrganisationEditor(caller, organisationId)).rejects.toMatchObject(notFound);
      await expect(gate.requireOrganisationEditor(members.owner, 'not-a-uuid')).rejects.toMatchObject(
        notFound,
      );
    });
  });

  describe('connectors and their instances', () => {
    let connectorId: string;
    let instanceId: string;
    let tableName: string;

    beforeAll(async () => {
      connectorId = (await createConnector(testApp.dataSource)).id;
      tableName = `ci_gate_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
      const [row] = await testApp.dataSource.query(
        `INSERT INTO connector_instances (connector_id, owner_id, title, output_table_name)
         VALUES ($1, $2, 'Gate instance', $3) RETURNING id`,
        [connectorId, owner.id, tableName],
      );
      instanceId = row.id;
    });

    it('shows a public connector to everyone, visitors included', async () => {
      expect((await gate.requireConnector(visitor, connectorId)).id).toBe(connectorId);
      expect((await gate.requireConnector(stranger, connectorId)).id).toBe(connectorId);
    });

    it('shows a private connector to its owner only, in detail and in lists', async () => {
      const privateId = (await createConnector(testApp.dataSource, { ownerId: owner.id })).id;
      await testApp.dataSource.query('UPDATE connectors SET is_public = false WHERE id = $1', [privateId]);
      expect((await gate.requireConnector(owner, privateId)).id).toBe(privateId);
      await expect(gate.requireConnector(stranger, privateId)).rejects.toMatchObject(notFound);
      await expect(gate.requireConnector(visitor, privateId)).rejects.toMatchObject(notFound);
      const listed = async (scope: 'visible' | 'owned', caller: Caller) =>
        (
          await testApp.dataSource.query(
            `SELECT connector.id FROM connectors connector WHERE connector.id = ANY($2::uuid[])
               AND ${gate.connectorCondition(scope, 'connector', '$1')} ORDER BY connector.created_at`,
            [caller?.id ?? null, [connectorId, privateId]],
          )
        ).map((row: { id: string }) => row.id);
      expect(await listed('visible', visitor)).toEqual([connectorId]);
      expect(await listed('visible', stranger)).toEqual([connectorId]);
      expect(await listed('visible', owner)).toEqual([connectorId, privateId]);
      expect(await listed('owned', owner)).toEqual([privateId]);
    });

    it('lets only its uploader change a connector: 403 to one who sees it, 404 to one who does not', async () => {
      const ownPublicId = (await createConnector(testApp.dataSource, { ownerId: owner.id })).id;
      const ownPrivateId = (await createConnector(testApp.dataSource, { ownerId: owner.id })).id;
      await testApp.dataSource.query('UPDATE connectors SET is_public = false WHERE id = $1', [ownPrivateId]);
      // The connector is locked for the caller's change, so the gate is asked inside a transaction.
      const requireOwn = (caller: Caller, id: string) =>
        testApp.dataSource.transaction((manager) => gate.requireOwnConnector(caller, id, manager));
      expect((await requireOwn(owner, ownPublicId)).id).toBe(ownPublicId);
      expect((await requireOwn(owner, ownPrivateId)).id).toBe(ownPrivateId);
      await expect(requireOwn(stranger, ownPublicId)).rejects.toMatchObject(connectorOwnerOnly);
      await expect(requireOwn(visitor, ownPublicId)).rejects.toMatchObject(connectorOwnerOnly);
      await expect(requireOwn(stranger, ownPrivateId)).rejects.toMatchObject(notFound);
      await expect(requireOwn(visitor, ownPrivateId)).rejects.toMatchObject(notFound);
      await expect(requireOwn(owner, randomUUID())).rejects.toMatchObject(notFound);
    });

    it('answers 404 for a connector that does not exist or a malformed id', async () => {
      await expect(gate.requireConnector(owner, randomUUID())).rejects.toMatchObject(notFound);
      await expect(gate.requireConnector(owner, 'x')).rejects.toMatchObject(notFound);
    });

    it('gives an instance only to its owner', async () => {
      expect((await gate.requireInstance(owner, instanceId)).id).toBe(instanceId);
      await expect(gate.requireInstance(stranger, instanceId)).rejects.toMatchObject(notFound);
      await expect(gate.requireInstance(visitor, instanceId)).rejects.toMatchObject(notFound);
      await expect(gate.requireInstance(owner, 'x')).rejects.toMatchObject(notFound);
    });

    it("lists a user's own instances only, oldest first, and nothing for a visitor", async () => {
      const tableTwo = `${tableName}_b`;
      const [second] = await testApp.dataSource.query(
        `INSERT INTO connector_instances (connector_id, owner_id, title, output_table_name, created_at)
         VALUES ($1, $2, 'Gate instance 2', $3, now() + interval '1 second') RETURNING id`,
        [connectorId, owner.id, tableTwo],
      );
      expect((await gate.ownedInstances(owner)).map((instance) => instance.id)).toEqual([
        instanceId,
        second.id,
      ]);
      expect(await gate.ownedInstances(stranger)).toEqual([]);
      expect(await gate.ownedInstances(visitor)).toEqual([]);
      await testApp.dataSource.query('DELETE FROM connector_instances WHERE id = $1', [second.id]);
    });

    it("gives an instance's table only to the instance's owner", async () => {
      expect((await gate.requireConnectorTable(owner, tableName)).id).toBe(instanceId);
      await expect(gate.requireConnectorTable(stranger, tableName)).rejects.toMatchObject(notFound);
      await expect(gate.requireConnectorTable(visitor, tableName)).rejects.toMatchObject(notFound);
      await expect(gate.requireConnectorTable(owner, 'data.users; --')).rejects.toMatchObject(notFound);
    });
  });

  describe('flags', () => {
    const user = (flags: Partial<AuthenticatedUser>): AuthenticatedUser => ({
      id: randomUUID(),
      email: 'flags@example.test',
      name: 'Flags',
      proUser: false,
      blogEditor: false,
      ...flags,
    });

    it('lets only pro users set a refresh interval', () => {
      expect(() => gate.requireFlag(user({ proUser: true }), 'pro')).not.toThrow();
      expect(() => gate.requireFlag(user({ blogEditor: true }), 'pro')).toThrow(
        'Only pro users can set a refresh interval',
      );
    });

    it('lets a user act only on their own account, whatever the case of the e-mail', () => {
      const me = user({ email: 'Me@Example.test' });
      expect(() => gate.requireOwnAccount(me, ' me@example.TEST ')).not.toThrow();
      expect(() => gate.requireOwnAccount(me, 'someone@example.test')).toThrow(
        'You can only generate an API key for your own account',
      );
    });

    it('lets only blog editors publish', () => {
      expect(() => gate.requireFlag(user({ blogEditor: true }), 'editor')).not.toThrow();
      expect(() => gate.requireFlag(user({ proUser: true }), 'editor')).toThrow(
        'Only blog editors may publish posts',
      );
    });
  });
});
