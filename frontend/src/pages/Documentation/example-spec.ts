/** A complete connector spec, as a user would upload it. */
export const EXAMPLE_SPEC = {
  title: 'Weather Observations',
  description: 'Hourly observations from a weather station network.',
  protocol: 'rest',
  base_url: 'https://api.weather.example.com/v2',
  category: 'Science',
  auth: {
    type: 'api_key',
    in: 'query',
    name: 'apikey',
    fields: [{ key: 'api_key', label: 'API key', required: true }],
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
        size_param: 'limit',
        page_size: 500,
      },
      response_path: 'data.observations',
    },
    {
      id: 'search',
      name: 'Search observations',
      method: 'POST',
      url_path: '/observations/search',
      body: { station: '{{station}}', min_temperature: '{{min_temperature}}' },
      params_fields: [{ key: 'min_temperature', label: 'Minimum temperature', type: 'number' }],
      pagination: { type: 'page', page_param: 'page', start_page: 1, size_param: 'per_page', page_size: 100 },
      response_path: 'results',
    },
  ],
};

export const EXAMPLE_SPEC_JSON = JSON.stringify(EXAMPLE_SPEC, null, 2);
