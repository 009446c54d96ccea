import { validateConnectorSpec } from './connector-spec.validator';

const base = { base_url: 'https://api.example.com' };

describe('connector spec validator: the grown DSL', () => {
  it('accepts every pagination, auth, error-handling and stream feature together', () => {
    expect(
      validateConnectorSpec({
        ...base,
        auth: {
          type: 'oauth2',
          grant_type: 'client_credentials',
          token_url: '/oauth/token',
          scopes: ['read'],
          token_params: { audience: 'api' },
          fields: [{ key: 'client_id' }, { key: 'client_secret' }],
        },
        requests: {
          timeout_seconds: 10,
          retries: 2,
          backoff: 'constant',
          backoff_seconds: 1.5,
          rate_limit: { requests: 10, per_seconds: 1 },
        },
        operations: [
          {
            id: 'repos',
            url_path: '/repos',
            pagination: { type: 'link_header', size_param: 'per_page', page_size: 100 },
          },
          {
            id: 'issues',
            url_path: '/repos/{{repo}}/issues/{{page_token}}',
            parent: { operation: 'repos', field: 'name', as: 'repo' },
            pagination: { type: 'cursor', cursor_header: 'X-Next', inject_into: 'path' },
            response_filters: [
              { http_codes: [404], action: 'ignore' },
              { path: 'ok', equals: false, action: 'fail', message_path: 'error' },
              { http_codes: [403], header: 'X-RateLimit-Remaining', equals: '0', action: 'retry' },
            ],
          },
          {
            id: 'search',
            method: 'POST',
            url_path: '/search',
            body: { q: 'x' },
            body_format: 'form',
            pagination: { type: 'next_url', next_url_path: 'links.next', has_more_path: 'has_more' },
          },
        ],
      }),
    ).toEqual([]);
  });

  it('accepts a session login whose templates use auth fields', () => {
    expect(
      validateConnectorSpec({
        ...base,
        auth: {
          type: 'session',
          login: {
            url_path: '/login',
            body: { user: '{{user}}', password: '{{password}}' },
            token_path: 'token',
          },
          fields: [{ key: 'user' }, { key: 'password' }],
        },
        operations: [{ id: 'a', url_path: '/a' }],
      }),
    ).toEqual([]);
  });

  it.each([
    [{ type: 'next_url' }, "spec/operations/0/pagination: missing required property 'next_url_path'"],
    [
      { type: 'cursor', cursor_param: 'after' },
      "spec/operations/0/pagination: missing required property 'cursor_path'",
    ],
    [
      { type: 'page', inject_into: 'body' },
      'spec/operations/0/pagination/inject_into: a page token goes into the body only with method POST',
    ],
    [
      { type: 'page', inject_into: 'sideways' },
      'spec/operations/0/pagination/inject_into: must be one of: query, body, header, path',
    ],
  ])('explains a pagination mistake with its path: %j', (pagination, message) => {
    expect(validateConnectorSpec({ ...base, operations: [{ id: 'a', url_path: '/a', pagination }] })).toEqual(
      [message],
    );
  });

  it('explains auth, filter, stream and request-option mistakes with their paths', () => {
    expect(
      validateConnectorSpec({
        ...base,
        auth: {
          type: 'oauth2',
          grant_type: 'refresh_token',
          token_url: '/t',
          fields: [{ key: 'client_id' }],
        },
        operations: [{ id: 'a', url_path: '/a', response_filters: [{ http_codes: [404], action: 'skip' }] }],
      }),
    ).toEqual(['spec/operations/0/response_filters/0/action: must be one of: ignore, fail, retry']);
    expect(
      validateConnectorSpec({
        ...base,
        auth: {
          type: 'oauth2',
          grant_type: 'refresh_token',
          token_url: '/t',
          fields: [{ key: 'client_id' }],
        },
        operations: [
          { id: 'a', url_path: '/a', parent: { operation: 'b', field: 'id', as: 'x' } },
          { id: 'b', url_path: '/b', parent: { operation: 'a', field: 'id', as: 'y' } },
          { id: 'c', url_path: '/c', parent: { operation: 'zz', field: 'id', as: 'z' } },
        ],
      }),
    ).toEqual([
      'spec/operations/0/parent/operation: parent streams must not form a cycle',
      'spec/operations/1/parent/operation: parent streams must not form a cycle',
      "spec/operations/2/parent/operation: 'zz' is not an operation id",
      'spec/auth/fields: grant_type refresh_token needs auth fields client_id and refresh_token (missing: refresh_token)',
    ]);
    expect(
      validateConnectorSpec({
        ...base,
        auth: { type: 'session', fields: [{ key: 'user' }] },
        requests: { timeout_seconds: 600, rate_limit: { requests: 0, per_seconds: 1 } },
        operations: [{ id: 'a', url_path: '/a' }],
      }),
    ).toEqual([
      "spec/auth: missing required property 'login'",
      'spec/requests/timeout_seconds: must be <= 30',
      'spec/requests/rate_limit/requests: must be >= 1',
    ]);
  });
});

describe('connector spec validator: field defaults', () => {
  it("refuses a default its field would refuse as a value, at the default's path", () => {
    expect(
      validateConnectorSpec({
        ...base,
        fields: [
          { key: 'limit', type: 'number', default: 'ten' },
          { key: 'units', type: 'select', options: ['metric', 'imperial'], default: 'kelvin' },
          { key: 'range', type: 'group', fields: [{ key: 'from', type: 'date', default: 'yesterday' }] },
          { key: 'city', type: 'text', default: 'Berlin' },
        ],
        operations: [
          { id: 'items', url_path: '/items', params_fields: [{ key: 'all', type: 'bool', default: 'yes' }] },
        ],
      }),
    ).toEqual([
      'spec/fields/0/default: must be a number',
      'spec/fields/1/default: must be one of: metric, imperial',
      'spec/fields/2/fields/0/default: must be a date (YYYY-MM-DD)',
      'spec/operations/0/params_fields/0/default: must be true or false',
    ]);
  });
});

describe('connector spec validator: paging and filters that cannot work', () => {
  it('refuses path injection without {{page_token}}, two cursor sources, cursor options on other types and ignoring every success', () => {
    expect(
      validateConnectorSpec({
        ...base,
        operations: [
          { id: 'a', url_path: '/items', pagination: { type: 'page', inject_into: 'path' } },
          {
            id: 'b',
            url_path: '/items',
            pagination: { type: 'cursor', cursor_path: 'next', cursor_header: 'X-Next' },
          },
          { id: 'c', url_path: '/items', pagination: { type: 'page', cursor_record_field: 'id' } },
          { id: 'c2', url_path: '/items', pagination: { type: 'offset', cursor_param: 'after' } },
          { id: 'd', url_path: '/items', response_filters: [{ http_codes: [200], action: 'ignore' }] },
          {
            id: 'e',
            url_path: '/items/{{page_token}}',
            pagination: { type: 'page', inject_into: 'path' },
            response_filters: [{ http_codes: [200], path: 'status', equals: 'gone', action: 'ignore' }],
          },
        ],
      }),
    ).toEqual([
      'spec/operations/0/url_path: with inject_into "path", url_path must hold {{page_token}} where the page token goes',
      'spec/operations/1/pagination/cursor_header: give the cursor one source: cursor_path, cursor_header are all set',
      'spec/operations/2/pagination/cursor_record_field: cursor_record_field belongs to type "cursor", not "page"',
      'spec/operations/3/pagination/cursor_param: cursor_param belongs to type "cursor", not "offset"',
      'spec/operations/4/response_filters/0/http_codes: ignoring every successful answer would store nothing: add a path or header condition',
    ]);
  });
});
