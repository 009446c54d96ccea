/** A complete connector spec, as a user would upload it. */
export const EXAMPLE_SPEC = {
  title: 'Weather Observations',
  description: 'Hourly observations from a weather station network.',
  protocol: 'rest',
  base_url: 'https://api.weather.example.com/v2',
  category: 'Science',
  auth: {
    type: 'oauth2',
    grant_type: 'client_credentials',
    token_url: '/oauth/token',
    scopes: ['observations.read'],
    fields: [
      { key: 'client_id', label: 'Client ID', required: true },
      { key: 'client_secret', label: 'Client secret', required: true },
    ],
  },
  requests: {
    timeout_seconds: 15,
    retries: 4,
    backoff: 'exponential',
    backoff_seconds: 1,
    rate_limit: { requests: 10, per_seconds: 1 },
  },
  fields: [
    {
      key: 'station',
      label: 'Station',
      type: 'select',
      options_endpoint: '/stations?country={{country}}',
      depends_on: ['country'],
      required: true,
    },
    {
      key: 'country',
      label: 'Country',
      type: 'select',
      options: [
        { label: 'Germany', value: 'DE' },
        { label: 'France', value: 'FR' },
      ],
      default: 'DE',
    },
    {
      key: 'period',
      label: 'Period',
      type: 'group',
      fields: [
        { key: 'from', label: 'From', type: 'date', required: true },
        { key: 'to', label: 'To', type: 'date' },
      ],
    },
    { key: 'units', label: 'Units', type: 'select', options: ['metric', 'imperial'], default: 'metric' },
    { key: 'include_gusts', label: 'Include wind gusts', type: 'bool', default: false },
    { key: 'gust_threshold', label: 'Gust threshold', type: 'number', conditions: { include_gusts: true } },
    { key: 'preview_note', label: 'Note for yourself', type: 'text', include: false },
  ],
  operations: [
    {
      id: 'observations',
      name: 'Hourly observations',
      method: 'GET',
      url_path: '/stations/{{station}}/observations',
      headers: { Accept: 'application/json' },
      query: { from: '{{period.from}}', to: '{{period.to}}', units: '{{units}}' },
      pagination: {
        type: 'cursor',
        cursor_param: 'cursor',
        cursor_path: 'meta.next',
        has_more_path: 'meta.has_more',
        size_param: 'limit',
        page_size: 500,
      },
      response_filters: [
        { http_codes: [404], action: 'ignore' },
        { path: 'status', equals: 'error', action: 'fail', message_path: 'message' },
        { http_codes: [403], header: 'X-RateLimit-Remaining', equals: '0', action: 'retry' },
      ],
      response_path: 'data.observations',
    },
    {
      id: 'stations',
      name: 'Stations',
      url_path: '/stations',
      pagination: { type: 'link_header', size_param: 'per_page', page_size: 100, max_pages: 50 },
    },
    {
      id: 'alerts',
      name: 'Alerts of each station',
      url_path: '/stations/{{station_id}}/alerts',
      parent: { operation: 'stations', field: 'id', as: 'station_id' },
      pagination: { type: 'next_url', next_url_path: 'links.next' },
      response_path: 'data',
    },
    {
      id: 'search',
      name: 'Search observations',
      method: 'POST',
      url_path: '/observations/search',
      body: { station: '{{station}}', min_temperature: '{{min_temperature}}' },
      params_fields: [{ key: 'min_temperature', label: 'Minimum temperature', type: 'number' }],
      pagination: { type: 'cursor', cursor_path: 'paging.after', cursor_param: 'after', inject_into: 'body' },
      response_path: 'results',
    },
  ],
};

export const EXAMPLE_SPEC_JSON = JSON.stringify(EXAMPLE_SPEC, null, 2);
