import { flattenFields } from '../../src/connectors/fields/schema-fields';
import type { SchemaField } from '../../src/connectors/entities/connector.entity';
import { SEED_CONNECTORS } from '../../src/connectors/seed/seed-connectors';
import { ConnectorsSeeder } from '../../src/database/seed/connectors.seeder';
import { createUser } from '../factories/user.factory';
import { createTestApp, TestApp } from '../support/test-app';

describe('ConnectorsSeeder', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('creates at least three connectors against real public APIs, idempotently', async () => {
    const owner = await createUser(testApp.dataSource);
    const seeder = testApp.app.get(ConnectorsSeeder);
    await seeder.run({ demoUserId: owner.id });
    await seeder.run({ demoUserId: owner.id });
    const rows: Array<{ title: string; fetch_url_template: string; schema: { fields: SchemaField[] } }> =
      await testApp.dataSource.query(
        `SELECT title, fetch_url_template, schema FROM connectors WHERE owner_id = $1 ORDER BY title`,
        [owner.id],
      );
    expect(rows.length).toBe(SEED_CONNECTORS.length);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows)
      expect(row.fetch_url_template).toMatch(
        /^https:\/\/(api\.open-meteo\.com|date\.nager\.at|api\.frankfurter\.app|api\.github\.com)\//,
      );
  });

  it('uses every field feature across the seeded connectors', () => {
    const fields = SEED_CONNECTORS.flatMap((seed) => [
      ...(seed.spec.fields ?? []),
      ...seed.spec.operations.flatMap((operation) => operation.params_fields ?? []),
    ]);
    const types = new Set(
      fields.flatMap((field) => [field.type, ...(field.fields ?? []).map((inner) => inner.type)]),
    );
    expect([...types].sort()).toEqual(
      expect.arrayContaining(['bool', 'date', 'group', 'number', 'select', 'text']),
    );
    const flat = flattenFields(fields);
    expect(
      flat.some((entry) => entry.field.type === 'select' && (entry.field.options ?? []).length > 0),
    ).toBe(true);
    expect(flat.some((entry) => entry.path.includes('.'))).toBe(true);
    expect(flat.some((entry) => entry.field.conditions)).toBe(true);
    expect(flat.some((entry) => entry.field.private)).toBe(true);
    expect(flat.some((entry) => entry.field.include === false)).toBe(true);
  });
});
