import type { SchemaField } from '../../api/connectors';
import { REMOTE_SELECT_WIDGET, toFormSchema } from './settingsSchema';

const fields: SchemaField[] = [
  { key: 'city', label: 'City', type: 'text', required: true },
  {
    key: 'units',
    label: 'Units',
    type: 'select',
    options: ['metric', { label: 'Imperial', value: 'imperial' }],
  },
  { key: 'days', label: 'Days', type: 'number', conditions: { units: 'metric' } },
  { key: 'when', type: 'date' },
  { key: 'live', type: 'bool' },
  { key: 'token', label: 'Token', type: 'text', private: true },
  { key: 'internal', type: 'text', include: false },
  { key: 'range', label: 'Range', type: 'group', fields: [{ key: 'from', type: 'date', required: true }] },
];

describe('toFormSchema', () => {
  it('maps field types onto JSON Schema and keeps required fields required', () => {
    const { schema } = toFormSchema(fields, {});
    expect(schema.required).toEqual(['city']);
    expect(schema.properties?.city).toEqual({ title: 'City', type: 'string' });
    expect(schema.properties?.when).toMatchObject({ type: 'string', format: 'date' });
    expect(schema.properties?.live).toMatchObject({ type: 'boolean' });
    expect(schema.properties?.units?.type).toBe('string');
    expect(schema.properties?.units?.oneOf).toEqual([
      { const: 'metric', title: 'metric' },
      { const: 'imperial', title: 'Imperial' },
    ]);
  });

  it('types an option list after its values', () => {
    const { schema } = toFormSchema(
      [{ key: 'n', type: 'select', options: [{ label: 'One', value: 1 }, 2] }],
      {},
    );
    expect(schema.properties?.n?.type).toBe('number');
  });

  it('nests groups as objects with their own required list', () => {
    const { schema } = toFormSchema(fields, {});
    expect(schema.properties?.range).toMatchObject({ type: 'object', required: ['from'] });
  });

  it('shows include:false fields (only settings leave them out) and masks private ones', () => {
    const { schema, uiSchema } = toFormSchema(fields, {});
    expect(schema.properties?.internal).toBeDefined();
    expect(uiSchema.token).toEqual({ 'ui:widget': 'password' });
  });

  it('shows a conditional field only while its condition holds', () => {
    expect(toFormSchema(fields, { units: 'imperial' }).schema.properties?.days).toBeUndefined();
    expect(toFormSchema(fields, { units: 'metric' }).schema.properties?.days).toBeDefined();
  });

  it('no longer requires private values the instance already stores, and says how to keep them', () => {
    const secret: SchemaField[] = [
      { key: 'city', type: 'text', required: true },
      { key: 'token', label: 'Token', type: 'text', private: true, required: true },
    ];
    expect(toFormSchema(secret, {}).schema.required).toEqual(['city', 'token']);
    const stored = toFormSchema(secret, {}, { privateStored: true }).schema;
    expect(stored.required).toEqual(['city']);
    expect(stored.properties?.token?.description).toBe(
      'Stored encrypted. Leave empty to keep the saved value.',
    );
  });
});

describe('toFormSchema with an options_endpoint', () => {
  it('hands the select to the widget that loads its options, with its path and what it depends on', () => {
    const remote: SchemaField[] = [
      {
        key: 'place',
        type: 'group',
        fields: [
          {
            key: 'station',
            label: 'Station',
            type: 'select',
            options_endpoint: '/stations',
            depends_on: ['country'],
          },
        ],
      },
    ];
    const { schema, uiSchema } = toFormSchema(remote, {});
    expect(schema.properties?.place?.properties?.station).toEqual({ title: 'Station', type: 'string' });
    expect(uiSchema.place).toMatchObject({
      station: {
        'ui:widget': REMOTE_SELECT_WIDGET,
        'ui:options': { field: 'place.station', dependsOn: ['country'] },
      },
    });
  });
});
