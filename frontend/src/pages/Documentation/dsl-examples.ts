/** Short spec excerpts, one per feature, shown next to its reference table. */
export const FEATURE_EXAMPLES = {
  oauth2: {
    auth: {
      type: 'oauth2',
      grant_type: 'client_credentials',
      token_url: 'https://auth.example.com/oauth/token',
      scopes: ['orders.read'],
      fields: [{ key: 'client_id' }, { key: 'client_secret' }],
    },
  },
  session: {
    auth: {
      type: 'session',
      login: {
        url_path: '/session',
        body: { username: '{{username}}', password: '{{password}}' },
        body_format: 'form',
        token_path: 'session.id',
      },
      name: 'X-Session-Id',
      format: '{{session_token}}',
      fields: [{ key: 'username' }, { key: 'password' }],
    },
  },
  linkHeader: { pagination: { type: 'link_header', size_param: 'limit', page_size: 250 } },
  nextUrl: { pagination: { type: 'next_url', next_url_path: 'links.next' } },
  lastRecordCursor: {
    pagination: {
      type: 'cursor',
      cursor_record_field: 'id',
      cursor_param: 'starting_after',
      has_more_path: 'has_more',
      size_param: 'limit',
      page_size: 100,
    },
  },
  bodyCursor: {
    method: 'POST',
    body: { limit: 100 },
    pagination: {
      type: 'cursor',
      cursor_path: 'paging.next.after',
      cursor_param: 'after',
      inject_into: 'body',
    },
  },
  filters: {
    response_filters: [
      { http_codes: [404], action: 'ignore' },
      { path: 'ok', equals: false, action: 'fail', message_path: 'error' },
      { http_codes: [403], header: 'X-RateLimit-Remaining', equals: '0', action: 'retry' },
    ],
  },
  requests: {
    requests: {
      timeout_seconds: 10,
      retries: 5,
      backoff: 'exponential',
      backoff_seconds: 1,
      rate_limit: { requests: 10, per_seconds: 1 },
    },
  },
  parent: {
    operations: [
      { id: 'repos', url_path: '/orgs/{{org}}/repos' },
      {
        id: 'issues',
        url_path: '/repos/{{org}}/{{repo}}/issues',
        parent: { operation: 'repos', field: 'name', as: 'repo' },
      },
    ],
  },
};

export const exampleText = (value: unknown) => JSON.stringify(value, null, 2);
