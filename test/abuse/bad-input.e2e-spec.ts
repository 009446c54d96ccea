import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { uploadDataset } from '../factories/asset.factory';
import { createConnector } from '../factories/connector.factory';
import { createPost } from '../factories/blog.factory';
import { createLoggedInUser, TestUser } from '../factories/user.factory';
import { createTestApp, TEST_ORIGIN, TestApp } from '../support/test-app';
import { expectUnchanged } from './support/footprint';

type Agent = TestAgent<Test>;
interface Answer {
  status: number;
  body: { error?: string; message?: string; statusCode?: number };
}
interface Case {
  name: string;
  send: () => PromiseLike<Answer>;
  status: number;
  message: string;
}

const NUL = 'before\u0000after';
const SQL = "' OR '1'='1'; DROP TABLE users; --";
const TRAVERSAL = '../../../etc/passwd';
const HUGE = 'x'.repeat(1_500_000);
const NUL_REFUSED = (field: string) => `${field} must not contain the NUL character (\\u0000)`;
const TOO_DEEP = 'The request is nested too deeply (at most 64 levels)';

/** JSON text nested `depth` objects deep, written out by hand (serialisers give up long before). */
function nestedJson(depth: number, innermost = '1'): string {
  return '{"a":'.repeat(depth) + innermost + '}'.repeat(depth);
}

/**
 * A corpus of malformed, hostile and oversized input for every JSON body and query of the API.
 * Each answers a 4xx with a message that says what is wrong, and the caller's data (and the
 * victim's) stay exactly as they were.
 */
describe('abuse: bad input to every body and query', () => {
  let testApp: TestApp;
  let editor: { user: TestUser; agent: Agent };
  let assetId: string;
  let connectorId: string;
  let instanceId: string;
  let postSlug: string;

  const send = (method: 'post' | 'patch', url: string, body: string | object) => {
    const request = editor.agent[method](url).set('Origin', TEST_ORIGIN);
    return typeof body === 'string'
      ? request.set('Content-Type', 'application/json').send(body)
      : request.send(body);
  };
  const visitorPost = (url: string, body: string | object) => {
    const request = testApp.http.post(url).set('Origin', TEST_ORIGIN);
    return typeof body === 'string'
      ? request.set('Content-Type', 'application/json').send(body)
      : request.send(body);
  };
  const get = (url: string, query: Record<string, unknown> | string = {}) =>
    editor.agent.get(url).query(query);

  beforeAll(async () => {
    testApp = await createTestApp();
    editor = await createLoggedInUser(testApp, { blogEditor: true, proUser: true });
    assetId = await uploadDataset(editor.agent, { title: 'Input target' });
    connectorId = (
      await createConnector(testApp.dataSource, {
        fetchUrlTemplate: 'https://example.com/{{city}}',
        fields: [{ key: 'city', label: 'City', type: 'text' }],
      })
    ).id;
    instanceId = (
      await send('post', '/api/connectors/activate', {
        connector_id: connectorId,
        settings: { city: 'Rome' },
      }).expect(201)
    ).body.id;
    postSlug = (await createPost(testApp.dataSource)).slug;
  });
  afterAll(() => testApp.close());

  const validSpec = {
    protocol: 'http',
    base_url: 'https://api.example.com',
    operations: [{ id: 'items', name: 'Items', method: 'GET', url_path: '/items' }],
  };

  const cases = (): Case[] => [
    // users/register
    {
      name: 'register: nothing',
      send: () => visitorPost('/api/users/register', {}),
      status: 400,
      message: 'Name is required; Email is required; Password is required',
    },
    {
      name: 'register: wrong types',
      send: () => visitorPost('/api/users/register', { name: 5, email: true, password: [] }),
      status: 400,
      message: 'Name is required; Please enter a valid email address; Password is required',
    },
    {
      name: 'register: an extra field',
      send: () =>
        visitorPost('/api/users/register', {
          name: 'A',
          email: 'extra@example.test',
          password: 'long-enough-1',
          pro_user: true,
        }),
      status: 400,
      message: 'property pro_user should not exist',
    },
    {
      name: 'register: a huge name',
      send: () =>
        visitorPost('/api/users/register', {
          name: 'x'.repeat(10_000),
          email: 'huge@example.test',
          password: 'long-enough-1',
        }),
      status: 400,
      message: 'Name must be at most 200 characters',
    },
    {
      name: 'register: a NUL in the name',
      send: () =>
        visitorPost('/api/users/register', {
          name: NUL,
          email: 'nul@example.test',
          password: 'long-enough-1',
        }),
      status: 400,
      message: NUL_REFUSED('name'),
    },
    {
      name: 'register: an SQL-shaped e-mail',
      send: () =>
        visitorPost('/api/users/register', {
          name: 'A',
          email: `${SQL}@example.test`,
          password: 'long-enough-1',
        }),
      status: 400,
      message: 'Please enter a valid email address',
    },
    {
      name: 'register: a password over the limit',
      send: () =>
        visitorPost('/api/users/register', {
          name: 'A',
          email: 'long@example.test',
          password: 'p'.repeat(257),
        }),
      status: 400,
      message: 'Password must be at most 256 characters long',
    },
    {
      name: 'register: malformed JSON',
      send: () => visitorPost('/api/users/register', '{"name": "A", "email":'),
      status: 400,
      message: 'The request body is not valid JSON.',
    },
    {
      name: 'register: a body over 2 MB',
      send: () =>
        visitorPost('/api/users/register', { name: HUGE, email: 'big@example.test', password: HUGE }),
      status: 413,
      message: 'The request body is too large (at most 2 MB).',
    },
    {
      name: 'register: deeply nested JSON',
      send: () =>
        visitorPost(
          '/api/users/register',
          `{"name":${nestedJson(5000)},"email":"deep@example.test","password":"long-enough-1"}`,
        ),
      status: 400,
      message: TOO_DEEP,
    },
    // users/login
    {
      name: 'login: nothing',
      send: () => visitorPost('/api/users/login', {}),
      status: 400,
      message: 'Email and password are required',
    },
    {
      name: 'login: arrays instead of text',
      send: () =>
        visitorPost('/api/users/login', { email: [editor.user.email], password: [editor.user.password] }),
      status: 400,
      message: 'Email and password are required',
    },
    {
      name: 'login: an operator object as the e-mail',
      send: () => visitorPost('/api/users/login', { email: { $ne: '' }, password: 'x' }),
      status: 400,
      message: 'Email and password are required',
    },
    {
      name: 'login: a huge e-mail',
      send: () => visitorPost('/api/users/login', { email: 'e'.repeat(1_000_000), password: 'x' }),
      status: 400,
      message: 'Please enter a valid email address',
    },
    {
      name: 'login: a NUL in the e-mail',
      send: () =>
        visitorPost('/api/users/login', {
          email: `${editor.user.email}\u0000`,
          password: editor.user.password,
        }),
      status: 400,
      message: 'Please enter a valid email address',
    },
    {
      name: 'login: an SQL-shaped e-mail',
      send: () => visitorPost('/api/users/login', { email: `${SQL}@example.test`, password: 'x' }),
      status: 401,
      message: 'Invalid email or password',
    },
    {
      name: 'login: a JSON null body',
      send: () => visitorPost('/api/users/login', 'null'),
      status: 400,
      message: 'The request body is not valid JSON.',
    },
    {
      name: 'login: malformed JSON',
      send: () => visitorPost('/api/users/login', '{"email":'),
      status: 400,
      message: 'The request body is not valid JSON.',
    },
    // users/change-password and dev/apikey
    {
      name: 'change-password: wrong types',
      send: () => send('post', '/api/users/change-password', { current_password: 1, new_password: {} }),
      status: 400,
      message: 'Current password is required; New password is required',
    },
    {
      name: 'change-password: a new password over the limit',
      send: () =>
        send('post', '/api/users/change-password', {
          current_password: editor.user.password,
          new_password: 'p'.repeat(257),
        }),
      status: 400,
      message: 'Password must be at most 256 characters long',
    },
    {
      name: 'change-password: a NUL',
      send: () =>
        send('post', '/api/users/change-password', { current_password: NUL, new_password: 'long-enough-1' }),
      status: 400,
      message: NUL_REFUSED('current_password'),
    },
    {
      name: 'dev/apikey: nothing',
      send: () => send('post', '/api/dev/apikey', {}),
      status: 400,
      message: 'Email is required',
    },
    {
      name: 'dev/apikey: an array of e-mails',
      send: () => send('post', '/api/dev/apikey', { email: [editor.user.email] }),
      status: 400,
      message: 'Please enter a valid email address',
    },
    {
      name: 'dev/apikey: an SQL-shaped e-mail',
      send: () => send('post', '/api/dev/apikey', { email: SQL }),
      status: 400,
      message: 'Please enter a valid email address',
    },
    // access/grant and access/remove
    {
      name: 'grant: nothing',
      send: () => send('post', '/api/access/grant', {}),
      status: 400,
      message: 'assetId is required',
    },
    {
      name: 'grant: a number',
      send: () => send('post', '/api/access/grant', { assetId: 7 }),
      status: 400,
      message: 'assetId must be a string',
    },
    {
      name: 'grant: an SQL-shaped id',
      send: () => send('post', '/api/access/grant', { assetId: SQL }),
      status: 404,
      message: 'Dataset not found',
    },
    {
      name: 'grant: a path-traversal id',
      send: () => send('post', '/api/access/grant', { assetId: TRAVERSAL }),
      status: 404,
      message: 'Dataset not found',
    },
    {
      name: 'grant: a huge id',
      send: () => send('post', '/api/access/grant', { assetId: 'a'.repeat(101) }),
      status: 400,
      message: 'assetId must be at most 100 characters',
    },
    {
      name: 'grant: an extra field',
      send: () => send('post', '/api/access/grant', { assetId, userId: 'someone-else' }),
      status: 400,
      message: 'property userId should not exist',
    },
    {
      name: 'grant: an array body',
      send: () => send('post', '/api/access/grant', [assetId]),
      status: 400,
      message: 'property 0 should not exist; assetId is required',
    },
    {
      name: 'grant: deeply nested JSON',
      send: () => send('post', '/api/access/grant', `{"assetId":${nestedJson(5000)}}`),
      status: 400,
      message: TOO_DEEP,
    },
    {
      name: 'remove: an object id',
      send: () => send('post', '/api/access/remove', { assetId: { id: assetId } }),
      status: 400,
      message: 'assetId must be a string',
    },
    // blog
    {
      name: 'blog: nothing',
      send: () => send('post', '/api/blog', {}),
      status: 400,
      message: 'Title is required; Slug is required',
    },
    {
      name: 'blog: a path-traversal slug',
      send: () => send('post', '/api/blog', { title: 'T', slug: TRAVERSAL }),
      status: 400,
      message: 'Slug may contain only lower-case letters, digits and hyphens',
    },
    {
      name: 'blog: an SQL-shaped slug',
      send: () => send('post', '/api/blog', { title: 'T', slug: SQL }),
      status: 400,
      message: 'Slug may contain only lower-case letters, digits and hyphens',
    },
    {
      name: 'blog: an unknown type',
      send: () => send('post', '/api/blog', { title: 'T', slug: 'typed-post', type: 'admin' }),
      status: 400,
      message: 'type must be one of update, use_case, whitepaper',
    },
    {
      name: 'blog: a javascript: cover image',
      send: () =>
        send('post', '/api/blog', { title: 'T', slug: 'cover-post', cover_image: 'javascript:alert(1)' }),
      status: 400,
      message: 'Cover image must be an http(s) URL or a path on this site starting with /',
    },
    {
      name: 'blog: content as an object',
      send: () => send('post', '/api/blog', { title: 'T', slug: 'object-post', content: { html: '<p>' } }),
      status: 400,
      message: 'Content must be HTML text of at most 1,000,000 characters',
    },
    {
      name: 'blog: content over a million characters',
      send: () =>
        send('post', '/api/blog', { title: 'T', slug: 'long-post', content: 'c'.repeat(1_000_001) }),
      status: 400,
      message: 'Content must be HTML text of at most 1,000,000 characters',
    },
    {
      name: 'blog: a NUL in the title',
      send: () => send('post', '/api/blog', { title: NUL, slug: 'nul-title' }),
      status: 400,
      message: NUL_REFUSED('title'),
    },
    {
      name: 'blog: a NUL in the content',
      send: () => send('post', '/api/blog', { title: 'T', slug: 'nul-content', content: `<p>${NUL}</p>` }),
      status: 400,
      message: NUL_REFUSED('content'),
    },
    {
      name: 'blog: an author of its own choosing',
      send: () =>
        send('post', '/api/blog', { title: 'T', slug: 'authored', author_id: editor.user.id, likes: 9999 }),
      status: 400,
      message: 'property author_id should not exist; property likes should not exist',
    },
    // connectors/upload
    {
      name: 'connector upload: no title',
      send: () => send('post', '/api/connectors/upload', { spec: validSpec }),
      status: 400,
      message: 'Title is required',
    },
    {
      name: 'connector upload: no spec',
      send: () => send('post', '/api/connectors/upload', { title: 'T' }),
      status: 400,
      message: 'spec is required',
    },
    {
      name: 'connector upload: spec that is not JSON',
      send: () => send('post', '/api/connectors/upload', { title: 'T', spec: '{"protocol": ' }),
      status: 400,
      message: 'Invalid JSON in connector spec.',
    },
    {
      name: 'connector upload: spec as an array',
      send: () => send('post', '/api/connectors/upload', { title: 'T', spec: [validSpec] }),
      status: 400,
      message: 'spec: must be a JSON object',
    },
    {
      name: 'connector upload: spec nested too deeply',
      send: () => send('post', '/api/connectors/upload', `{"title":"T","spec":${nestedJson(5000)}}`),
      status: 400,
      message: TOO_DEEP,
    },
    {
      name: 'connector upload: spec text nested too deeply',
      send: () => send('post', '/api/connectors/upload', { title: 'T', spec: nestedJson(5000) }),
      status: 400,
      message: `spec: ${TOO_DEEP}`,
    },
    {
      name: 'connector upload: spec text with an escaped NUL',
      send: () =>
        send('post', '/api/connectors/upload', {
          title: 'T',
          spec: JSON.stringify({ ...validSpec, description: NUL }),
        }),
      status: 400,
      message: `spec: ${NUL_REFUSED('description')}`,
    },
    {
      name: 'connector upload: a NUL in the title',
      send: () => send('post', '/api/connectors/upload', { title: NUL, spec: validSpec }),
      status: 400,
      message: NUL_REFUSED('title'),
    },
    {
      name: 'connector upload: a file: base URL',
      send: () =>
        send('post', '/api/connectors/upload', {
          title: 'T',
          spec: { ...validSpec, base_url: 'file:///etc/passwd' },
        }),
      status: 400,
      message: 'spec/base_url: must match pattern "^https?://[^\\s]+$"',
    },
    {
      name: 'connector upload: a negative price',
      send: () => send('post', '/api/connectors/upload', { title: 'T', price: -1, spec: validSpec }),
      status: 400,
      message: 'Price must be a non-negative amount with at most two decimals.',
    },
    {
      name: 'connector upload: a price that is not a number',
      send: () => send('post', '/api/connectors/upload', { title: 'T', price: 'free', spec: validSpec }),
      status: 400,
      message: 'Price must be a non-negative amount with at most two decimals.',
    },
    {
      name: 'connector upload: an owner of its own choosing',
      send: () =>
        send('post', '/api/connectors/upload', { title: 'T', owner_id: editor.user.id, spec: validSpec }),
      status: 400,
      message: 'property owner_id should not exist',
    },
    // connectors/activate, PATCH instance, instance run
    {
      name: 'activate: nothing',
      send: () => send('post', '/api/connectors/activate', {}),
      status: 400,
      message: 'connector_id must be a connector id',
    },
    {
      name: 'activate: an SQL-shaped connector id',
      send: () => send('post', '/api/connectors/activate', { connector_id: SQL }),
      status: 400,
      message: 'connector_id must be a connector id',
    },
    {
      name: 'activate: settings as text',
      send: () =>
        send('post', '/api/connectors/activate', { connector_id: connectorId, settings: 'city=Rome' }),
      status: 400,
      message: 'settings must be an object',
    },
    {
      name: 'activate: a negative interval',
      send: () =>
        send('post', '/api/connectors/activate', { connector_id: connectorId, refresh_interval: -5 }),
      status: 400,
      message: 'refresh_interval must be 0 or more',
    },
    {
      name: 'activate: an interval that is not a number',
      send: () =>
        send('post', '/api/connectors/activate', { connector_id: connectorId, refresh_interval: 'hourly' }),
      status: 400,
      message: 'refresh_interval must be a whole number of minutes',
    },
    {
      name: 'activate: a DELETE method',
      send: () => send('post', '/api/connectors/activate', { connector_id: connectorId, method: 'DELETE' }),
      status: 400,
      message: 'method must be one of the following values: GET, POST',
    },
    {
      name: 'activate: a Host header',
      send: () =>
        send('post', '/api/connectors/activate', {
          connector_id: connectorId,
          headers: { Host: 'internal' },
        }),
      status: 400,
      message: "headers: 'Host' cannot be set",
    },
    {
      name: 'activate: a header with a line break',
      send: () =>
        send('post', '/api/connectors/activate', {
          connector_id: connectorId,
          headers: { 'X-A': 'a\r\nX-Injected: 1' },
        }),
      status: 400,
      message: "headers: 'X-A' must not contain line breaks",
    },
    {
      name: 'activate: a huge header value',
      send: () =>
        send('post', '/api/connectors/activate', {
          connector_id: connectorId,
          headers: { 'X-A': 'v'.repeat(1_000_000) },
        }),
      status: 400,
      message: "headers: 'X-A' must be at most 8192 characters",
    },
    {
      name: 'activate: a header name with a colon',
      send: () =>
        send('post', '/api/connectors/activate', { connector_id: connectorId, headers: { 'X-A: b': 'c' } }),
      status: 400,
      message: "headers: 'X-A: b' is not a valid header name",
    },
    {
      name: 'activate: settings nested too deeply',
      send: () =>
        send(
          'post',
          '/api/connectors/activate',
          `{"connector_id":"${connectorId}","settings":${nestedJson(5000)}}`,
        ),
      status: 400,
      message: TOO_DEEP,
    },
    {
      name: 'activate: a NUL in a setting',
      send: () =>
        send('post', '/api/connectors/activate', { connector_id: connectorId, settings: { city: NUL } }),
      status: 400,
      message: NUL_REFUSED('settings.city'),
    },
    {
      name: 'activate: a NUL in a setting name',
      send: () =>
        send('post', '/api/connectors/activate', { connector_id: connectorId, settings: { [NUL]: 'x' } }),
      status: 400,
      message: 'Field names must not contain the NUL character (\\u0000)',
    },
    {
      name: 'activate: a NUL in the title',
      send: () => send('post', '/api/connectors/activate', { connector_id: connectorId, title: NUL }),
      status: 400,
      message: NUL_REFUSED('title'),
    },
    {
      name: 'activate: an owner of its own choosing',
      send: () =>
        send('post', '/api/connectors/activate', { connector_id: connectorId, owner_id: editor.user.id }),
      status: 400,
      message: 'property owner_id should not exist',
    },
    {
      name: 'PATCH instance: a table name of its own choosing',
      send: () => send('patch', `/api/connectors/instance/${instanceId}`, { output_table_name: 'users' }),
      status: 400,
      message: 'property output_table_name should not exist',
    },
    {
      name: 'PATCH instance: an SQL-shaped id',
      send: () => send('patch', `/api/connectors/instance/${encodeURIComponent(SQL)}`, { title: 'x' }),
      status: 404,
      message: 'Connector instance not found',
    },
    {
      name: 'PATCH instance: iterations that are not a list',
      send: () => send('patch', `/api/connectors/instance/${instanceId}`, { iterations: 'city' }),
      status: 400,
      message: 'iterations must be an array',
    },
    {
      name: 'PATCH instance: iterating a setting that is no list',
      send: () => send('patch', `/api/connectors/instance/${instanceId}`, { iterations: ['city'] }),
      status: 400,
      message: "iterations: setting 'city' must hold an array of values",
    },
    {
      name: 'PATCH instance: a NUL in the body template',
      send: () =>
        send('patch', `/api/connectors/instance/${instanceId}`, { body_template: `{"q":"${NUL}"}` }),
      status: 400,
      message: NUL_REFUSED('body_template'),
    },
    {
      name: 'PATCH instance: settings nested too deeply',
      send: () => send('patch', `/api/connectors/instance/${instanceId}`, `{"settings":${nestedJson(5000)}}`),
      status: 400,
      message: TOO_DEEP,
    },
    {
      name: 'instance run: override as text',
      send: () => send('post', `/api/connectors/instance/${instanceId}/run`, { override: 'yes' }),
      status: 400,
      message: 'override must be a boolean value',
    },
    {
      name: 'instance run: settings nested too deeply',
      send: () =>
        send('post', `/api/connectors/instance/${instanceId}/run`, `{"settings":${nestedJson(5000)}}`),
      status: 400,
      message: TOO_DEEP,
    },
    {
      name: 'instance run: a path-traversal id',
      send: () => send('post', `/api/connectors/instance/${encodeURIComponent(TRAVERSAL)}/run`, {}),
      status: 404,
      message: 'Connector instance not found',
    },
    {
      name: 'remove instance: an SQL-shaped id',
      send: () => send('post', `/api/connectors/remove/${encodeURIComponent(SQL)}`, {}),
      status: 404,
      message: 'Connector instance not found',
    },
    // queries
    {
      name: 'assets: limit that is not a number',
      send: () => get('/api/assets', { limit: 'all' }),
      status: 400,
      message: 'limit must be an integer number',
    },
    {
      name: 'assets: a negative offset',
      send: () => get('/api/assets', { offset: -1 }),
      status: 400,
      message: 'offset must not be less than 0',
    },
    {
      name: 'assets: an unknown scope',
      send: () => get('/api/assets', { scope: 'everyone' }),
      status: 400,
      message: 'scope must be one of the following values: all, owned, accessible',
    },
    {
      name: 'assets: a search over 200 characters',
      send: () => get('/api/assets', { search: 's'.repeat(201) }),
      status: 400,
      message: 'search must be shorter than or equal to 200 characters',
    },
    {
      name: 'assets: a NUL in the search',
      send: () => get('/api/assets', { search: NUL }),
      status: 400,
      message: NUL_REFUSED('search'),
    },
    {
      name: 'assets: a NUL in a category',
      send: () => get('/api/assets', { category: NUL }),
      status: 400,
      message: NUL_REFUSED('category'),
    },
    {
      name: 'assets: a nested query parameter',
      send: () => get('/api/assets', 'search[$ne]=x'),
      status: 400,
      message: 'property search[$ne] should not exist',
    },
    {
      name: 'assets: an unknown parameter',
      send: () => get('/api/assets', { owner_id: editor.user.id }),
      status: 400,
      message: 'property owner_id should not exist',
    },
    {
      name: 'asset data: a huge offset',
      send: () => get(`/api/assets/${assetId}/data`, { offset: '1e20' }),
      status: 400,
      message: 'offset must not be greater than 9007199254740991',
    },
    {
      name: 'asset data: the largest bigint offset',
      send: () => get(`/api/assets/${assetId}/data`, { offset: '9223372036854775807' }),
      status: 400,
      message: 'offset must not be greater than 9007199254740991',
    },
    {
      name: 'asset data: limit 0',
      send: () => get(`/api/assets/${assetId}/data`, { limit: 0 }),
      status: 400,
      message: 'limit must not be less than 1',
    },
    {
      name: 'asset data: an SQL-shaped sort',
      send: () => get(`/api/assets/${assetId}/data`, { sort: 'name"; DROP TABLE users; --' }),
      status: 400,
      message: 'Cannot sort by "name"; DROP TABLE users; --": no such column',
    },
    {
      name: 'asset data: a sideways direction',
      send: () => get(`/api/assets/${assetId}/data`, { direction: 'sideways' }),
      status: 400,
      message: 'direction must be one of the following values: asc, desc',
    },
    {
      name: 'asset: an SQL-shaped id',
      send: () => get(`/api/assets/${encodeURIComponent(SQL)}`),
      status: 404,
      message: 'Dataset not found',
    },
    {
      name: 'asset: a path-traversal id',
      send: () => get(`/api/assets/${encodeURIComponent(TRAVERSAL)}/data`),
      status: 404,
      message: 'Dataset not found',
    },
    {
      name: 'table: a path-traversal name',
      send: () => get(`/api/assets/table/${encodeURIComponent('../public/users')}`),
      status: 404,
      message: 'Table not found',
    },
    {
      name: 'table: an app table',
      send: () => get('/api/assets/table/users'),
      status: 404,
      message: 'Table not found',
    },
    {
      name: 'table: a system catalogue',
      send: () => get('/api/assets/table/pg_authid'),
      status: 404,
      message: 'Table not found',
    },
    {
      name: 'table: an SQL-shaped name',
      send: () => get(`/api/assets/table/${encodeURIComponent('x"; DROP TABLE users; --')}`),
      status: 404,
      message: 'Table not found',
    },
    {
      name: 'blog list: a huge offset',
      send: () => get('/api/blog', { offset: '1e20' }),
      status: 400,
      message: 'offset must not be greater than 10000000',
    },
    {
      name: 'blog list: limit over the page size',
      send: () => get('/api/blog', { limit: 1000 }),
      status: 400,
      message: 'limit must not be greater than 100',
    },
    {
      name: 'blog list: an unknown type',
      send: () => get('/api/blog', { type: 'secret' }),
      status: 400,
      message: 'type must be one of update, use_case, whitepaper',
    },
    {
      name: 'blog list: a NUL in the search',
      send: () => get('/api/blog', { search: NUL }),
      status: 400,
      message: NUL_REFUSED('search'),
    },
    {
      name: 'blog post: a path-traversal slug',
      send: () => get(`/api/blog/${encodeURIComponent(TRAVERSAL)}`),
      status: 404,
      message: 'Post not found',
    },
    {
      name: 'blog like: an SQL-shaped slug',
      send: () => visitorPost(`/api/blog/${encodeURIComponent(SQL)}/like`, {}),
      status: 404,
      message: 'Post not found',
    },
    {
      name: 'options: nothing',
      send: () => get('/api/connectors/options'),
      status: 400,
      message: 'connector_id must be a connector id; field must be a string',
    },
    {
      name: 'options: a path-traversal field',
      send: () => get('/api/connectors/options', { connector_id: connectorId, field: '../../x y' }),
      status: 400,
      message: 'field must match /^[\\w.-]{1,200}$/ regular expression',
    },
    {
      name: 'options: values that are not JSON',
      send: () => get('/api/connectors/options', { connector_id: connectorId, field: 'city', values: '{' }),
      status: 404,
      message: 'This field has no options endpoint',
    },
    {
      name: 'stream: an unknown format',
      send: () => testApp.http.get('/api/stream/data').query({ api_key: 'k'.repeat(43), format: 'xml' }),
      status: 401,
      message: 'Invalid API key',
    },
    {
      name: 'stream: a huge key',
      send: () => testApp.http.get('/api/stream/data').set('X-API-Key', 'k'.repeat(5000)),
      status: 401,
      message: 'Invalid API key',
    },
    {
      name: 'stream: an SQL-shaped source',
      send: () =>
        testApp.http.get(`/api/stream/data/${encodeURIComponent(SQL)}`).set('X-API-Key', 'k'.repeat(43)),
      status: 401,
      message: 'Invalid API key',
    },
    {
      name: 'outbox: a NUL in the e-mail',
      send: () => testApp.http.get('/api/dev/outbox').query({ email: NUL }),
      status: 400,
      message: NUL_REFUSED('email'),
    },
  ];

  it.each(cases().map((entry) => ({ ...entry, title: entry.name })))(
    '$title answers $status and changes nothing',
    async ({ send: call, status, message }) => {
      const response = await expectUnchanged(testApp.dataSource, [editor.user.id], call);
      expect({ status: response.status, error: response.body.error }).toEqual({ status, error: message });
      expect(response.body).toMatchObject({ message, statusCode: status });
    },
  );

  it('creates no account for any refused registration', async () => {
    const [row] = await testApp.dataSource.query(
      `SELECT count(*)::int AS count FROM users
        WHERE email IN ('extra@example.test', 'huge@example.test', 'nul@example.test', 'long@example.test',
                        'big@example.test', 'deep@example.test')`,
    );
    expect(row.count).toBe(0);
  });

  it('treats SQL- and tsquery-shaped search text as plain text', async () => {
    const marker = await createPost(testApp.dataSource, {
      title: `Quote ' and ampersand & bang ! ${postSlug}`,
    });
    for (const search of [SQL, "a & | ! ( ) : * ' \\", "%' OR 1=1 --", '_%_']) {
      expect((await get('/api/assets', { search }).expect(200)).body).toEqual([]);
      await get('/api/blog', { search }).expect(200);
    }
    const found = await get('/api/blog', { search: 'ampersand & bang !' }).expect(200);
    expect(found.body.map((post: { id: string }) => post.id)).toContain(marker.id);
    const [users] = await testApp.dataSource.query(`SELECT count(*)::int AS count FROM users WHERE id = $1`, [
      editor.user.id,
    ]);
    expect(users.count).toBe(1);
  });

  it('answers a stream key that works with 400 for a bad format and paging', async () => {
    const key = (await send('post', '/api/dev/apikey', { email: editor.user.email }).expect(200)).body
      .api_key;
    for (const [query, message] of [
      [{ format: 'xml' }, 'format must be json, ndjson, csv, parquet or xlsx'],
      [{ limit: -1 }, 'limit must not be less than 0'],
      [{ offset: 'abc' }, 'offset must be a whole number'],
      [{ offset: '1e20' }, 'offset must not be greater than 9007199254740991'],
      [{ source: 'users' }, 'property source should not exist'],
    ] as const) {
      const response = await testApp.http
        .get(`/api/stream/data/${assetId}`)
        .query({ api_key: key, ...query });
      expect({ status: response.status, error: response.body.error }).toEqual({
        status: 400,
        error: message,
      });
    }
  });
});
