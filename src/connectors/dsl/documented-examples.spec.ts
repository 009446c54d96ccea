import { FEATURE_EXAMPLES } from '../../../frontend/src/pages/Documentation/dsl-examples';
import { validateConnectorSpec } from './connector-spec.validator';

/** Places an excerpt where it belongs in a minimal spec: auth and requests at the top, the rest in an operation. */
function specWith(excerpt: Record<string, unknown>): Record<string, unknown> {
  const base = { title: 'Example', protocol: 'http', base_url: 'https://api.example.com' };
  if ('auth' in excerpt || 'requests' in excerpt) {
    return { ...base, ...excerpt, operations: [{ id: 'items', url_path: '/items' }] };
  }
  if ('operations' in excerpt)
    return { ...base, ...excerpt, fields: [{ key: 'org', label: 'Org', type: 'text' }] };
  const fields = [{ key: 'period', type: 'group', fields: [{ key: 'from', type: 'date' }] }];
  return { ...base, fields, operations: [{ id: 'items', url_path: '/items', ...excerpt }] };
}

describe('the documentation page: short examples', () => {
  it.each(Object.entries(FEATURE_EXAMPLES))('%s passes the upload validator', (_name, excerpt) => {
    expect(validateConnectorSpec(specWith(excerpt as Record<string, unknown>))).toEqual([]);
  });
});
