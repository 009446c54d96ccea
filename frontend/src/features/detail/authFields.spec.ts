import { missingAuthFields, parseAuthFields } from './authFields';

describe('parseAuthFields', () => {
  it('reads a JSON string or an array', () => {
    const expected = [{ key: 'token', label: 'Token', required: true }];
    expect(parseAuthFields('[{"key":"token","label":"Token","required":true}]')).toEqual(expected);
    expect(parseAuthFields([{ key: 'token', label: 'Token', required: true }])).toEqual(expected);
  });

  it('labels a field by its key when no label is given and skips entries without key', () => {
    expect(parseAuthFields([{ key: 'api_key' }, { label: 'orphan' }])).toEqual([
      { key: 'api_key', label: 'api_key', required: false },
    ]);
  });

  it('gives no fields for broken JSON', () => {
    expect(parseAuthFields('{oops')).toEqual([]);
  });
});

describe('missingAuthFields', () => {
  it('lists required fields left empty', () => {
    const fields = parseAuthFields([{ key: 'a', required: true }, { key: 'b' }]);
    expect(missingAuthFields(fields, { a: ' ', b: '' })).toEqual(['a']);
    expect(missingAuthFields(fields, { a: 'x' })).toEqual([]);
  });
});
