import type { ConnectorSpec, OperationSpec } from '../../src/connectors/dsl/connector-spec.types';
import { createTestApp, TestApp } from '../support/test-app';
import { FakeUpstream, sendJson, startFakeUpstream } from './support/fake-upstream';
import { rowsOf, runToEnd } from './support/run-and-read';
import { connect } from './support/run-through-api';

/** Record selection and shaping declared in the spec, against imitations of well-known APIs. */
describe('connector records: selection and shaping', () => {
  let upstream: FakeUpstream;
  let testApp: TestApp;

  beforeAll(async () => {
    upstream = await startFakeUpstream((request, response) => {
      switch (request.url.pathname) {
        // NASA NeoWs: a map of dates to arrays.
        case '/neo/feed':
          return sendJson(response, {
            element_count: 3,
            near_earth_objects: {
              '2024-01-02': [{ id: 'b', name: 'Bee' }],
              '2024-01-01': [
                { id: 'a', name: 'Ay' },
                { id: 'c', name: 'Cee' },
              ],
            },
          });
        // Open-Meteo: column-oriented arrays.
        case '/forecast':
          return sendJson(response, {
            latitude: 52.5,
            hourly_units: { time: 'iso8601', temperature_2m: '°C' },
            hourly: {
              time: ['2024-01-01T00:00', '2024-01-01T01:00', '2024-01-01T02:00'],
              temperature_2m: [1.5, 1.2, 0.9],
            },
          });
        // HubSpot: properties nested in each record.
        case '/crm/v3/objects/contacts':
          return sendJson(response, {
            results: [
              {
                id: '51',
                properties: { email: 'a@x.test', firstname: 'Ann', address: { city: 'Oslo' } },
                archived: false,
              },
              {
                id: '52',
                properties: { email: 'b@x.test', firstname: 'Bo', address: { city: 'Rome' } },
                archived: true,
              },
            ],
          });
        case '/orgs/acme/repos':
          return sendJson(response, [
            { name: 'api', stars: 5 },
            { name: 'web', stars: 9 },
          ]);
        default: {
          const match = /^\/repos\/acme\/([^/]+)\/issues$/.exec(request.url.pathname);
          if (match) return sendJson(response, [{ number: 1 }, { number: 2 }]);
          return sendJson(response, { message: 'Not Found' }, 404);
        }
      }
    });
    testApp = await createTestApp({ CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' });
  });
  afterAll(async () => {
    await testApp.close();
    await upstream.close();
  });

  const spec = (operation: Omit<OperationSpec, 'id'>): ConnectorSpec => ({
    base_url: upstream.origin,
    operations: [{ id: 'data', ...operation }],
  });

  it('a wildcard over object values gives one row per array item, keeping the key as a column', async () => {
    const instance = await connect(
      testApp,
      spec({ url_path: '/neo/feed', records: { path: 'near_earth_objects.*', key_field: 'date' } }),
    );
    expect(await runToEnd(instance)).toMatchObject({ status: 'succeeded', row_count: 3 });
    expect(await rowsOf(testApp, instance.id)).toEqual([
      { date: '2024-01-02', id: 'b', name: 'Bee' },
      { date: '2024-01-01', id: 'a', name: 'Ay' },
      { date: '2024-01-01', id: 'c', name: 'Cee' },
    ]);
  });

  it('zips parallel arrays into one row per time, typed', async () => {
    const instance = await connect(
      testApp,
      spec({ url_path: '/forecast', records: { path: 'hourly', zip: true } }),
    );
    expect(await runToEnd(instance)).toMatchObject({ status: 'succeeded', row_count: 3 });
    expect(await rowsOf(testApp, instance.id)).toEqual([
      { time: '2024-01-01T00:00:00+00:00', temperature_2m: '1.5' },
      { time: '2024-01-01T01:00:00+00:00', temperature_2m: '1.2' },
      { time: '2024-01-01T02:00:00+00:00', temperature_2m: '0.9' },
    ]);
  });

  it('flattens nested objects to the declared depth, then removes, renames and filters', async () => {
    const instance = await connect(
      testApp,
      spec({
        url_path: '/crm/v3/objects/contacts',
        response_path: 'results',
        records: {
          flatten_depth: 1,
          remove_fields: ['archived_unused', 'properties_firstname'],
          rename_fields: { properties_email: 'email' },
          filter: { field: 'archived', op: 'eq', value: false },
        },
      }),
    );
    expect(await runToEnd(instance)).toMatchObject({ status: 'succeeded', row_count: 1 });
    expect(await rowsOf(testApp, instance.id)).toEqual([
      { id: '51', email: 'a@x.test', properties_address: '{"city":"Oslo"}', archived: 'false' },
    ]);
  });

  it('a deeper flatten reaches nested objects inside nested objects', async () => {
    const instance = await connect(
      testApp,
      spec({
        url_path: '/crm/v3/objects/contacts',
        records: {
          path: 'results',
          flatten_depth: 2,
          remove_fields: ['properties_email', 'properties_firstname'],
        },
      }),
    );
    await runToEnd(instance);
    expect(await rowsOf(testApp, instance.id)).toEqual([
      { id: '51', properties_address_city: 'Oslo', archived: 'false' },
      { id: '52', properties_address_city: 'Rome', archived: 'true' },
    ]);
  });

  it('adds fields from templates: a setting, the partition, the parent record, the record, a date function', async () => {
    const instance = await connect(
      testApp,
      {
        base_url: upstream.origin,
        fields: [{ key: 'org', type: 'text', required: true }],
        operations: [
          { id: 'repos', url_path: '/orgs/{{org}}/repos' },
          {
            id: 'issues',
            url_path: '/repos/{{org}}/{{repo}}/issues',
            parent: { operation: 'repos', field: 'name', as: 'repo' },
            records: {
              add_fields: {
                org: '{{org}}',
                repo_stars: '{{parent.stars}}',
                label: '{{org}}/{{partition.repo}}#{{record.number}}',
                read_on: '{{today | format:date}}',
              },
            },
          },
        ],
      },
      { settings: { org: 'acme' }, operation_id: 'issues' },
    );
    expect(await runToEnd(instance)).toMatchObject({ status: 'succeeded', row_count: 4 });
    const today = new Date().toISOString().slice(0, 10);
    expect(await rowsOf(testApp, instance.id)).toEqual([
      { number: '1', org: 'acme', repo_stars: '5', label: 'acme/api#1', read_on: today, _repo: 'api' },
      { number: '2', org: 'acme', repo_stars: '5', label: 'acme/api#2', read_on: today, _repo: 'api' },
      { number: '1', org: 'acme', repo_stars: '9', label: 'acme/web#1', read_on: today, _repo: 'web' },
      { number: '2', org: 'acme', repo_stars: '9', label: 'acme/web#2', read_on: today, _repo: 'web' },
    ]);
  });

  it('filters with comparisons: gt on numbers, in on a list', async () => {
    const gt = await connect(
      testApp,
      spec({ url_path: '/orgs/acme/repos', records: { filter: { field: 'stars', op: 'gt', value: 6 } } }),
    );
    await runToEnd(gt);
    expect(await rowsOf(testApp, gt.id)).toEqual([{ name: 'web', stars: '9' }]);
    const inList = await connect(
      testApp,
      spec({
        url_path: '/orgs/acme/repos',
        records: { filter: { field: 'name', op: 'in', value: ['api', 'cli'] } },
      }),
    );
    await runToEnd(inList);
    expect(await rowsOf(testApp, inList.id)).toEqual([{ name: 'api', stars: '5' }]);
  });
});
