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
  refreshToken: {
    auth: {
      type: 'oauth2',
      grant_type: 'refresh_token',
      token_url: 'https://auth.example.com/oauth/token',
      token_params: { audience: 'https://api.example.com' },
      fields: [{ key: 'client_id' }, { key: 'client_secret' }, { key: 'refresh_token' }],
    },
  },
  formBody: {
    method: 'POST',
    url_path: '/reports/search',
    body_format: 'form',
    body: { from: '{{period.from}}', state: 'open' },
  },
  linkHeader: { pagination: { type: 'link_header', size_param: 'limit', page_size: 250 } },
  headerCursor: {
    pagination: {
      type: 'cursor',
      cursor_header: 'X-Next-Cursor',
      cursor_param: 'X-Cursor',
      inject_into: 'header',
    },
  },
  pathToken: {
    url_path: '/events/page/{{page_token}}',
    pagination: { type: 'page', inject_into: 'path', start_page: 1 },
  },
  totalAndShortPage: {
    pagination: {
      type: 'offset',
      offset_param: 'offset',
      limit_param: 'limit',
      page_size: 100,
      total_path: 'meta.total',
      stop_on_short_page: true,
    },
  },
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
  sheetsValues: {
    url_path: '/v4/spreadsheets/1BxiMVs0XRA5nFMdKvBd/values/Sheet1!A1:D500',
    records: { path: 'values', header_row: true },
  },
  rfc2822Cursor: {
    url_path: '/2010-04-01/Accounts/AC0123456789/Messages.json',
    response_path: 'messages',
    incremental: {
      cursor_field: 'date_updated',
      cursor_format: 'rfc2822',
      format: 'date',
      param: 'DateSent>',
      start: '-P30D',
    },
  },
  conditional: { url_path: '/exports/catalog.json.gz', conditional_requests: true },
  todayWindow: {
    incremental: {
      cursor_field: 'date',
      format: 'date',
      start: '-P5D',
      window: { step: 'P1D', start_param: 'since', end_param: 'until' },
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

/** Choosing streams through the API: PATCH /api/connectors/instance/{id} (or the activate call). */
export const CHOOSE_STREAMS = { operation_ids: ['stations', 'alerts'] };

export const exampleText = (value: unknown) => JSON.stringify(value, null, 2);
