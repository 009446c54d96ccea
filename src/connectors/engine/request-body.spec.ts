import { encodeBody, withBodyValues } from './request-body';

describe('request body', () => {
  it('encodes JSON or form bodies', () => {
    expect(encodeBody({ a: 1, b: 'x y' }, 'json')).toEqual({
      body: '{"a":1,"b":"x y"}',
      contentType: 'application/json',
    });
    expect(encodeBody({ a: 1, b: 'x y', c: null, d: ['p', 'q'] }, 'form')).toEqual({
      body: 'a=1&b=x+y&d=p%2Cq',
      contentType: 'application/x-www-form-urlencoded',
    });
  });

  it('sets the page token at a dotted path without touching the template', () => {
    const template = { query: 'x', paging: { limit: 10 } };
    expect(withBodyValues(template, { 'paging.after': '20' })).toEqual({
      query: 'x',
      paging: { limit: 10, after: '20' },
    });
    expect(template).toEqual({ query: 'x', paging: { limit: 10 } });
  });
});
