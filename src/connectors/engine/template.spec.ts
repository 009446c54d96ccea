import { fillJsonTemplate, fillText, fillUrlTemplate, placeholdersOf } from './template';

describe('fillUrlTemplate', () => {
  it('fills flat and dotted placeholders and URL-encodes the values', () => {
    const url = fillUrlTemplate('https://api.test/{{city}}/data?from={{range.from}}&q={{q}}', {
      city: 'São Paulo',
      range: { from: '2024-01-01' },
      q: 'a&b=c',
    });
    expect(url).toBe('https://api.test/S%C3%A3o%20Paulo/data?from=2024-01-01&q=a%26b%3Dc');
  });

  it('joins array values with commas', () => {
    expect(fillUrlTemplate('https://x.test/?hourly={{vars}}', { vars: ['a', 'b'] })).toBe(
      'https://x.test/?hourly=a%2Cb',
    );
  });

  it('drops a query parameter whose whole value is an empty placeholder', () => {
    expect(fillUrlTemplate('https://x.test/p?a={{a}}&b={{b}}&c=1', { a: 'x' })).toBe(
      'https://x.test/p?a=x&c=1',
    );
  });
});

describe('fillJsonTemplate', () => {
  it('puts values raw outside strings and escaped inside strings', () => {
    const body = fillJsonTemplate(
      '{"city": "{{city}}", "limit": {{limit}}, "tags": {{tags}}, "on": {{flag}}}',
      {
        city: 'He said "hi"',
        limit: 10,
        tags: ['a', 'b'],
        flag: true,
      },
    );
    expect(JSON.parse(body)).toEqual({ city: 'He said "hi"', limit: 10, tags: ['a', 'b'], on: true });
  });

  it('keeps numeric strings numeric outside quotes and quotes other text', () => {
    expect(JSON.parse(fillJsonTemplate('{"n": {{n}}, "s": {{s}}}', { n: '42', s: 'word' }))).toEqual({
      n: 42,
      s: 'word',
    });
  });
});

describe('fillText and placeholdersOf', () => {
  it('fills header values without encoding', () => {
    expect(fillText('Token {{auth.key}}', { auth: { key: 'a b/c' } })).toBe('Token a b/c');
  });

  it('lists placeholders', () => {
    expect(placeholdersOf('/{{a}}/{{ b.c }}?x={{d}}')).toEqual(['a', 'b.c', 'd']);
  });
});
