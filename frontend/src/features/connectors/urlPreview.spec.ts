import type { SchemaField } from '../../api/connectors';
import {
  declaredParams,
  emptyPathPlaceholders,
  fillUrlTemplate,
  placeholders,
  previewUrl,
} from './urlPreview';

describe('previewUrl', () => {
  it('fills flat and dotted placeholders URL-encoded', () => {
    expect(
      previewUrl('https://api.test/{{city}}/forecast?lat={{location.lat}}', {
        city: 'São Paulo',
        location: { lat: 52.5 },
      }),
    ).toBe('https://api.test/S%C3%A3o%20Paulo/forecast?lat=52.5');
  });

  it('drops query parameters whose placeholder is empty', () => {
    expect(fillUrlTemplate('https://x.test/p?a={{a}}&b={{b}}&c=1', { a: 'x' })).toBe(
      'https://x.test/p?a=x&c=1',
    );
  });

  it('appends settings no template uses as query parameters, as the engine does, but not override', () => {
    expect(
      previewUrl('https://x.test/{{user}}/repos', {
        user: 'nodejs',
        sort: 'updated',
        override: true,
        range: { to: 5 },
      }),
    ).toBe('https://x.test/nodejs/repos?sort=updated&range.to=5');
  });

  it('does not append settings the body template or headers use', () => {
    expect(previewUrl('https://x.test/search', { q: 'cats', page: 2 }, ['{"q": "{{q}}"}'])).toBe(
      'https://x.test/search?page=2',
    );
  });

  it('joins array values with commas', () => {
    expect(previewUrl('https://x.test/?v={{vars}}', { vars: ['a', 'b'] })).toBe('https://x.test/?v=a%2Cb');
  });

  it('returns the filled text when it is not a valid URL yet', () => {
    expect(previewUrl('{{base}}/x', {})).toBe('/x');
  });

  it('lists placeholders', () => {
    expect(placeholders('/{{a}}/{{ b.c }}')).toEqual(['a', 'b.c']);
  });
});

describe('previewUrl with the declared fields', () => {
  it('appends only declared settings, as the engine sends only those', () => {
    expect(previewUrl('https://api.example.com/items', { units: 'metric', extra: 'x' }, [], ['units'])).toBe(
      'https://api.example.com/items?units=metric',
    );
  });
});

describe('emptyPathPlaceholders', () => {
  it('names the path placeholders without a value, not the query ones', () => {
    const template = 'https://api.example.com/stations/{{station}}/observations?from={{period.from}}';
    expect(emptyPathPlaceholders(template, {})).toEqual(['station']);
    expect(emptyPathPlaceholders(template, { station: '' })).toEqual(['station']);
    expect(emptyPathPlaceholders(template, { station: 'BER' })).toEqual([]);
  });
});

describe('declaredParams', () => {
  const fields: SchemaField[] = [
    { key: 'org', label: 'Organisation', type: 'text' },
    { key: 'note', label: 'Note for yourself', type: 'text' },
  ];

  it("appends only the first operation's own params_fields, never the shared fields, with a spec", () => {
    const spec = {
      operations: [
        {
          id: 'repos',
          params_fields: [
            { key: 'type', label: 'Type' },
            { key: 'token', label: 'Token', private: true },
            { key: 'switch', label: 'Switch', type: 'bool', include: false },
          ],
        },
        { id: 'issues', params_fields: [{ key: 'state', label: 'State' }] },
      ],
    };
    expect(declaredParams(spec, fields)).toEqual(['type']);
    expect(
      previewUrl(
        'https://api.test/orgs/{{org}}/repos',
        { org: 'acme', note: 'hi', type: 'all' },
        [],
        declaredParams(spec, fields),
      ),
    ).toBe('https://api.test/orgs/acme/repos?type=all');
  });

  it('appends every field of a connector without a spec', () => {
    expect(declaredParams(null, fields)).toEqual(['org', 'note']);
  });
});
