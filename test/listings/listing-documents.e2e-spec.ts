import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { uploadDataset } from '../factories/asset.factory';
import { createPost } from '../factories/blog.factory';
import { createConnector } from '../factories/connector.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { DATA_PACKAGE_SCHEMA } from './data-package-schema';

const MISSING_ID = '00000000-0000-4000-8000-000000000000';

describe('listings for search engines and open-data portals: sitemap, robots.txt, Data Package, DCAT', () => {
  let testApp: TestApp;
  let owner: Awaited<ReturnType<typeof createLoggedInUser>>;
  let holder: Awaited<ReturnType<typeof createLoggedInUser>>;
  let stranger: Awaited<ReturnType<typeof createLoggedInUser>>;
  let publicId: string;
  let privateId: string;
  let heldPrivateId: string;
  let publicConnectorId: string;
  let privateConnectorId: string;
  let postSlug: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    owner = await createLoggedInUser(testApp, { name: 'Ada Owner' });
    holder = await createLoggedInUser(testApp);
    stranger = await createLoggedInUser(testApp);
    publicId = await uploadDataset(
      owner.agent,
      {
        title: 'Harbour tides',
        keywords: 'sea, tides',
        licence: 'CC BY 4.0',
      },
      'station,measured_at,level,day,ok,label\nA,2024-01-01T10:00:00Z,1.5,2024-01-01,true,x\nB,2024-01-02T11:00:00Z,2,2024-01-02,false,y\n',
    );
    await owner.agent
      .patch(`/api/assets/${publicId}`)
      .set('Origin', TEST_ORIGIN)
      .send({ dictionary: { level: 'Water level in metres' } })
      .expect(200);
    privateId = await uploadDataset(owner.agent, {
      title: 'Secret payroll',
      is_public: 'false',
      licence: 'Internal use only',
    });
    // Got while public, then made private: its holder still sees it, nobody else.
    heldPrivateId = await uploadDataset(owner.agent, { title: 'Formerly public census' });
    await holder.agent
      .post('/api/access/grant')
      .set('Origin', TEST_ORIGIN)
      .send({ assetId: heldPrivateId })
      .expect(200);
    await owner.agent
      .patch(`/api/assets/${heldPrivateId}`)
      .set('Origin', TEST_ORIGIN)
      .send({ is_public: false })
      .expect(200);
    publicConnectorId = (await createConnector(testApp.dataSource, { title: 'Open weather feed' })).id;
    privateConnectorId = (
      await createConnector(testApp.dataSource, { title: 'Secret CRM API', ownerId: owner.user.id })
    ).id;
    await testApp.dataSource.query(`UPDATE connectors SET is_public = false WHERE id = $1`, [
      privateConnectorId,
    ]);
    postSlug = (await createPost(testApp.dataSource, { title: 'Release notes' })).slug;
  });
  afterAll(() => testApp.close());

  describe('sitemap.xml and robots.txt', () => {
    async function sitemapUrls(): Promise<Array<{ loc: string; lastmod?: string }>> {
      const response = await testApp.http.get('/sitemap.xml').expect(200);
      expect(response.headers['content-type']).toMatch(/^application\/xml/);
      expect(XMLValidator.validate(response.text)).toBe(true);
      const parsed = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'url' }).parse(
        response.text,
      );
      expect(parsed.urlset['@_xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
      return parsed.urlset.url;
    }

    it('lists public datasets, public connectors, blog posts and the app pages, with absolute addresses', async () => {
      const urls = await sitemapUrls();
      const locs = urls.map((url) => url.loc);
      expect(locs).toEqual(
        expect.arrayContaining([
          `${TEST_ORIGIN}/`,
          `${TEST_ORIGIN}/datastore`,
          `${TEST_ORIGIN}/blog`,
          `${TEST_ORIGIN}/dataset_profile/${publicId}`,
          `${TEST_ORIGIN}/connector_profile/${publicConnectorId}`,
          `${TEST_ORIGIN}/blog/${postSlug}`,
        ]),
      );
      const dataset = urls.find((url) => url.loc.endsWith(publicId));
      expect(Number.isNaN(Date.parse(dataset!.lastmod!))).toBe(false);
    });

    it('never lists a private dataset (held or not), a private connector or pages behind a login', async () => {
      const locs = (await sitemapUrls()).map((url) => url.loc);
      for (const hidden of [
        privateId,
        heldPrivateId,
        privateConnectorId,
        '/manage',
        '/account',
        '/imprint',
      ]) {
        expect(locs.some((loc) => loc.includes(hidden))).toBe(false);
      }
    });

    it('answers robots.txt with the sitemap on APP_ORIGIN and keeps crawlers out of the API', async () => {
      const response = await testApp.http.get('/robots.txt').expect(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      const lines = response.text.split('\n');
      expect(lines).toContain(`Sitemap: ${TEST_ORIGIN}/sitemap.xml`);
      expect(lines).toContain('Disallow: /api/');
      expect(lines).toContain('Disallow: /manage');
    });
  });

  describe('datapackage.json', () => {
    it('describes a public dataset as a Data Package v2 with a typed Table Schema', async () => {
      const { body } = await testApp.http.get(`/api/assets/${publicId}/datapackage.json`).expect(200);
      const readableName = (await testApp.http.get(`/api/assets/${publicId}`)).body.readable_name;
      expect(body).toMatchObject({
        $schema: 'https://datapackage.org/profiles/2.0/datapackage.json',
        name: readableName,
        title: 'Harbour tides',
        homepage: `${TEST_ORIGIN}/dataset_profile/${publicId}`,
        keywords: ['sea', 'tides'],
        licenses: [
          {
            name: 'CC-BY-4.0',
            path: 'https://creativecommons.org/licenses/by/4.0/',
            title: 'Creative Commons Attribution 4.0',
          },
        ],
        contributors: [{ title: 'Ada Owner', roles: ['creator'] }],
      });
      expect(body.resources).toHaveLength(1);
      const [resource] = body.resources;
      expect(resource).toMatchObject({
        name: readableName,
        type: 'table',
        path: `${TEST_ORIGIN}/api/stream/data/${readableName}?format=csv`,
        format: 'csv',
        mediatype: 'text/csv',
      });
      expect(resource.schema.fields).toEqual([
        { name: 'station', type: 'string' },
        { name: 'measured_at', type: 'datetime' },
        { name: 'level', type: 'number', description: 'Water level in metres' },
        { name: 'day', type: 'date' },
        { name: 'ok', type: 'boolean' },
        { name: 'label', type: 'string' },
      ]);
    });

    it('validates against the Data Package v2 profile (also for an own-words licence, which it leaves out)', async () => {
      const validate = new Ajv({ allErrors: true, strict: false });
      addFormats(validate);
      const check = validate.compile(DATA_PACKAGE_SCHEMA);
      const { body } = await testApp.http.get(`/api/assets/${publicId}/datapackage.json`).expect(200);
      expect(check(body) ? [] : check.errors).toEqual([]);
      const ownWords = await owner.agent.get(`/api/assets/${privateId}/datapackage.json`).expect(200);
      expect(ownWords.body.licenses).toBeUndefined();
      expect(check(ownWords.body) ? [] : check.errors).toEqual([]);
    });

    it('gives a private dataset to its holder and its owner', async () => {
      const held = await holder.agent.get(`/api/assets/${heldPrivateId}/datapackage.json`).expect(200);
      expect(held.body.title).toBe('Formerly public census');
      const owned = await owner.agent.get(`/api/assets/${privateId}/datapackage.json`).expect(200);
      expect(owned.body.title).toBe('Secret payroll');
    });

    it('answers a stranger and a visitor about a private dataset exactly like a missing one (404)', async () => {
      const missing = await stranger.agent.get(`/api/assets/${MISSING_ID}/datapackage.json`).expect(404);
      expect(missing.body).toEqual({
        error: 'Dataset not found',
        message: 'Dataset not found',
        statusCode: 404,
      });
      for (const id of [privateId, heldPrivateId]) {
        const byStranger = await stranger.agent.get(`/api/assets/${id}/datapackage.json`).expect(404);
        expect(byStranger.body).toEqual(missing.body);
        const byVisitor = await testApp.http.get(`/api/assets/${id}/datapackage.json`).expect(404);
        expect(byVisitor.body).toEqual(missing.body);
      }
    });
  });

  describe('the DCAT feed', () => {
    async function catalog() {
      const response = await testApp.http.get('/api/catalog/dcat.jsonld').expect(200);
      expect(response.headers['content-type']).toMatch(/^application\/ld\+json/);
      return JSON.parse(response.text);
    }

    it('is a dcat:Catalog whose public datasets carry title, keywords, dates and distributions', async () => {
      const feed = await catalog();
      expect(feed['@type']).toBe('dcat:Catalog');
      expect(feed['@context']).toMatchObject({
        dcat: 'http://www.w3.org/ns/dcat#',
        dct: 'http://purl.org/dc/terms/',
      });
      const readableName = (await testApp.http.get(`/api/assets/${publicId}`)).body.readable_name;
      const dataset = feed['dcat:dataset'].find(
        (entry: { '@id': string }) => entry['@id'] === `${TEST_ORIGIN}/dataset_profile/${publicId}`,
      );
      expect(dataset).toMatchObject({
        '@type': 'dcat:Dataset',
        'dct:title': 'Harbour tides',
        'dct:identifier': readableName,
        'dcat:keyword': ['sea', 'tides'],
        'dct:license': {
          '@id': 'https://creativecommons.org/licenses/by/4.0/',
          '@type': 'dct:LicenseDocument',
          'dct:title': 'Creative Commons Attribution 4.0',
        },
        'dcat:landingPage': { '@id': `${TEST_ORIGIN}/dataset_profile/${publicId}` },
      });
      expect(Number.isNaN(Date.parse(dataset['dct:modified']['@value']))).toBe(false);
      const accessUrls = dataset['dcat:distribution'].map(
        (distribution: { 'dcat:accessURL': { '@id': string }; 'dcat:mediaType': { '@id': string } }) => [
          distribution['dcat:accessURL']['@id'],
          distribution['dcat:mediaType']['@id'],
        ],
      );
      expect(accessUrls).toEqual([
        [
          `${TEST_ORIGIN}/api/odata/${readableName}`,
          'http://www.iana.org/assignments/media-types/application/json',
        ],
        [
          `${TEST_ORIGIN}/api/stream/data/${readableName}?format=csv`,
          'http://www.iana.org/assignments/media-types/text/csv',
        ],
        [
          `${TEST_ORIGIN}/api/assets/${publicId}/datapackage.json`,
          'http://www.iana.org/assignments/media-types/application/json',
        ],
      ]);
      const services = feed['dcat:service'].map((service: { '@id': string }) => service['@id']);
      expect(services).toContain(`${TEST_ORIGIN}/connector_profile/${publicConnectorId}`);
    });

    it('lists no private dataset or connector, even when its owner asks', async () => {
      const response = await owner.agent.get('/api/catalog/dcat.jsonld').expect(200);
      for (const hidden of [
        privateId,
        heldPrivateId,
        privateConnectorId,
        'Secret payroll',
        'Secret CRM API',
      ]) {
        expect(response.text).not.toContain(hidden);
      }
      expect(response.text).toContain(publicId);
    });
  });
});
