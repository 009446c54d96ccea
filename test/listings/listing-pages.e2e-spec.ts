import { ColumnProfileService } from '../../src/assets/ingest/column-profile.service';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uploadDataset } from '../factories/asset.factory';
import { createPost } from '../factories/blog.factory';
import { createConnector } from '../factories/connector.factory';
import { createLoggedInUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { readHead, runnableScripts } from './listing-html';

/** index.html as Vite builds it: the app's own title and description, and its module script. */
const BUILT_INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta
      name="description"
      content="Discover, get or buy, upload, connect and stream datasets and API connectors."
    />
    <title>Data Marketplace</title>
    <script type="module" crossorigin src="/assets/index-abc123.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>`;

describe('listing pages: what crawlers and link previews read without running the app', () => {
  let testApp: TestApp;
  let publicId: string;
  let privateId: string;
  let hostileId: string;
  let readableName: string;
  let publicConnectorId: string;
  let privateConnectorId: string;
  let ownerAgent: Awaited<ReturnType<typeof createLoggedInUser>>['agent'];
  const hostileTitle = 'Sales </script><script>alert(1)</script> <!-- & "quoted" \u2028 end';

  beforeAll(async () => {
    const webRoot = mkdtempSync(join(tmpdir(), 'dm-web-'));
    writeFileSync(join(webRoot, 'index.html'), BUILT_INDEX);
    testApp = await createTestApp({ WEB_ROOT: webRoot });
    const owner = await createLoggedInUser(testApp, { name: 'Ada Owner' });
    ownerAgent = owner.agent;
    publicId = await uploadDataset(
      owner.agent,
      {
        title: 'Bakery sales 2024',
        description: 'Daily sales of a bakery.\nOne row per day.',
        keywords: 'bakery, sales',
        licence: 'CC-BY-4.0',
        price: '12.50',
      },
      'day,amount,open\n2024-01-01,12.5,true\n2024-01-02,7,false\n',
    );
    await owner.agent
      .patch(`/api/assets/${publicId}`)
      .set('Origin', TEST_ORIGIN)
      .send({ dictionary: { amount: 'Takings in euros' }, image: '/images/bakery.png' })
      .expect(200);
    readableName = (await testApp.http.get(`/api/assets/${publicId}`).expect(200)).body.readable_name;
    // temporalCoverage comes from the column profiles, computed right after the load.
    await testApp.app.get(ColumnProfileService).settled();
    privateId = await uploadDataset(owner.agent, { title: 'Secret payroll', is_public: 'false' });
    hostileId = await uploadDataset(owner.agent, { title: hostileTitle, description: '' });
    publicConnectorId = (
      await createConnector(testApp.dataSource, { title: 'Weather API', ownerId: owner.user.id })
    ).id;
    privateConnectorId = (
      await createConnector(testApp.dataSource, { title: 'Secret CRM API', ownerId: owner.user.id })
    ).id;
    await testApp.dataSource.query(`UPDATE connectors SET is_public = false WHERE id = $1`, [
      privateConnectorId,
    ]);
  });
  afterAll(() => testApp.close());

  const page = (path: string) =>
    testApp.http
      .get(path)
      .expect(200)
      .expect('Content-Type', /text\/html/);

  it('writes the title, description, canonical link and Open Graph tags of a public dataset', async () => {
    const response = await page(`/dataset_profile/${publicId}`);
    const head = readHead(response.text);
    expect(head.title).toBe('Bakery sales 2024 · Data Marketplace');
    expect(head.meta.description).toBe('Daily sales of a bakery. One row per day.');
    expect(head.canonical).toBe(`${TEST_ORIGIN}/dataset_profile/${publicId}`);
    expect(head.meta).toMatchObject({
      'og:type': 'website',
      'og:site_name': 'Data Marketplace',
      'og:title': 'Bakery sales 2024',
      'og:description': 'Daily sales of a bakery. One row per day.',
      'og:url': `${TEST_ORIGIN}/dataset_profile/${publicId}`,
      'og:image': `${TEST_ORIGIN}/images/bakery.png`,
    });
    // The build's own title and description give way; its script still starts the app.
    expect(response.text).not.toContain('<title>Data Marketplace</title>');
    expect(response.text).not.toContain('Discover, get or buy');
    expect(runnableScripts(response.text)).toEqual(['/assets/index-abc123.js']);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it("carries the dataset's schema.org Dataset as JSON-LD, field by field", async () => {
    const { jsonLdBlocks } = readHead((await page(`/dataset_profile/${publicId}`)).text);
    expect(jsonLdBlocks).toHaveLength(1);
    const dataset = JSON.parse(jsonLdBlocks[0]);
    const { body: detail } = await testApp.http.get(`/api/assets/${publicId}`).expect(200);
    expect(dataset).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Dataset',
      url: `${TEST_ORIGIN}/dataset_profile/${publicId}`,
      identifier: readableName,
      name: 'Bakery sales 2024',
      description: 'Daily sales of a bakery.\nOne row per day.',
      keywords: ['bakery', 'sales'],
      license: 'https://creativecommons.org/licenses/by/4.0/',
      temporalCoverage: '2024-01-01/2024-01-02',
      creator: { '@type': 'Person', name: 'Ada Owner' },
      isAccessibleForFree: false,
      offers: { '@type': 'Offer', price: '12.50', priceCurrency: 'USD' },
      image: `${TEST_ORIGIN}/images/bakery.png`,
    });
    expect(Date.parse(dataset.dateModified)).toBeGreaterThanOrEqual(Date.parse(detail.data_updated_at));
    expect(dataset.distribution).toEqual([
      {
        '@type': 'DataDownload',
        name: 'OData feed (API key needed)',
        contentUrl: `${TEST_ORIGIN}/api/odata/${readableName}`,
        encodingFormat: 'application/json',
      },
      {
        '@type': 'DataDownload',
        name: 'CSV download (API key needed)',
        contentUrl: `${TEST_ORIGIN}/api/stream/data/${readableName}?format=csv`,
        encodingFormat: 'text/csv',
      },
      {
        '@type': 'DataDownload',
        name: 'Frictionless Data Package',
        contentUrl: `${TEST_ORIGIN}/api/assets/${publicId}/datapackage.json`,
        encodingFormat: 'application/json',
      },
    ]);
    expect(dataset.variableMeasured).toEqual([
      { '@type': 'PropertyValue', name: 'day' },
      { '@type': 'PropertyValue', name: 'amount', description: 'Takings in euros' },
      { '@type': 'PropertyValue', name: 'open' },
    ]);
  });

  it('keeps a title holding </script> inside its JSON-LD: nothing breaks out, the text survives', async () => {
    const response = await page(`/dataset_profile/${hostileId}`);
    expect(response.text).not.toContain('<script>alert(1)');
    expect(response.text).not.toMatch(/<\/script><script>/);
    const head = readHead(response.text);
    expect(runnableScripts(response.text)).toEqual(['/assets/index-abc123.js']);
    expect(head.jsonLdBlocks).toHaveLength(1);
    expect(JSON.parse(head.jsonLdBlocks[0]).name).toBe(hostileTitle);
    expect(head.title).toBe(`${hostileTitle} · Data Marketplace`);
    expect(head.meta['og:title']).toBe(hostileTitle);
    // No description of its own: the listing still says what it is.
    expect(head.meta.description).toBe(
      `${hostileTitle.replace(/\s+/g, ' ').trim()}, a dataset on Data Marketplace.`,
    );
  });

  it('writes a public connector page with its title, Open Graph tags and a schema.org WebAPI', async () => {
    const head = readHead((await page(`/connector_profile/${publicConnectorId}`)).text);
    expect(head.title).toBe('Weather API · Data Marketplace');
    expect(head.meta['og:title']).toBe('Weather API');
    expect(head.meta['og:description']).toBe('A test connector');
    expect(head.canonical).toBe(`${TEST_ORIGIN}/connector_profile/${publicConnectorId}`);
    const connector = JSON.parse(head.jsonLdBlocks[0]);
    expect(connector).toMatchObject({
      '@type': 'WebAPI',
      name: 'Weather API',
      description: 'A test connector',
      url: `${TEST_ORIGIN}/connector_profile/${publicConnectorId}`,
      documentation: `${TEST_ORIGIN}/documentation`,
      isAccessibleForFree: true,
    });
  });

  it.each([
    ['a private dataset', () => `/dataset_profile/${privateId}`, 'Secret payroll'],
    ['a private connector', () => `/connector_profile/${privateConnectorId}`, 'Secret CRM API'],
    ['a missing dataset', () => '/dataset_profile/00000000-0000-4000-8000-000000000000', undefined],
    ['a malformed id', () => '/dataset_profile/not-an-id', undefined],
  ])('serves the page as built for %s: no title, no JSON-LD', async (_case, path, secret) => {
    const response = await page(path());
    expect(response.text).toBe(BUILT_INDEX);
    if (secret) expect(response.text).not.toContain(secret);
  });

  it('serves the page as built to the owner of a private dataset too (the head is for the public)', async () => {
    const response = await ownerAgent.get(`/dataset_profile/${privateId}`).expect(200);
    expect(response.text).toBe(BUILT_INDEX);
  });

  it('leaves other app routes on the page as built', async () => {
    const response = await page('/datastore');
    expect(response.text).toBe(BUILT_INDEX);
    expect((await page('/blog/new')).text).toBe(BUILT_INDEX);
    expect((await page('/blog/no-such-post')).text).toBe(BUILT_INDEX);
  });

  it("writes a blog post's title, teaser, Open Graph and Twitter tags and a BlogPosting, without counting a read", async () => {
    const post = await createPost(testApp.dataSource, {
      title: 'Harbour levels & "tides"',
      slug: `harbour-levels-${Date.now()}`,
      content: '<h2>Why</h2><p>Seven harbours &amp; their <b>tides</b>, measured hourly.</p>',
      coverImage: '/images/harbour.png',
    });
    const url = `${TEST_ORIGIN}/blog/${post.slug}`;
    const response = await page(`/blog/${post.slug}`);
    const head = readHead(response.text);
    expect(head.title).toBe('Harbour levels & "tides" · Data Marketplace');
    expect(head.meta.description).toBe('Why Seven harbours & their tides, measured hourly.');
    expect(head.canonical).toBe(url);
    expect(head.meta).toMatchObject({
      'og:type': 'article',
      'og:title': 'Harbour levels & "tides"',
      'og:description': 'Why Seven harbours & their tides, measured hourly.',
      'og:url': url,
      'og:image': `${TEST_ORIGIN}/images/harbour.png`,
      'twitter:card': 'summary_large_image',
      'twitter:title': 'Harbour levels & "tides"',
      'twitter:description': 'Why Seven harbours & their tides, measured hourly.',
      'twitter:image': `${TEST_ORIGIN}/images/harbour.png`,
    });
    expect(response.text).not.toContain('<title>Data Marketplace</title>');
    expect(head.meta.robots).toBeUndefined();
    expect(JSON.parse(head.jsonLdBlocks[0])).toMatchObject({
      '@type': 'BlogPosting',
      url,
      headline: 'Harbour levels & "tides"',
      image: `${TEST_ORIGIN}/images/harbour.png`,
    });
    expect(runnableScripts(response.text)).toEqual(['/assets/index-abc123.js']);
    // Only the app's own read of the post counts as a view.
    const [{ views }] = await testApp.dataSource.query(`SELECT views FROM blog_posts WHERE id = $1`, [
      post.id,
    ]);
    expect(views).toBe(0);
  });

  it('keeps the imprint out of search results from the server: noindex in the page it sends', async () => {
    const head = readHead((await page('/imprint')).text);
    expect(head.meta.robots).toBe('noindex');
    expect(head.title).toBe('Imprint · Data Marketplace');
    expect(head.jsonLdBlocks).toEqual([]);
  });
});
