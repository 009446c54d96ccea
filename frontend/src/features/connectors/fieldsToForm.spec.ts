import type { RJSFSchema } from '@rjsf/utils';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { SchemaField } from './connectorTypes';
import { fieldsToForm } from './fieldsToForm';

const FIELDS: SchemaField[] = [
  { key: 'city', label: 'City', type: 'text', required: true, default: 'Berlin' },
  { key: 'days', label: 'Days', type: 'number', default: 7 },
  { key: 'from', label: 'From', type: 'date' },
  { key: 'hourly', label: 'Hourly', type: 'bool' },
  { key: 'flag', label: 'Flag', type: 'boolean' },
  { key: 'unit', label: 'Unit', type: 'select', options: ['celsius', 'fahrenheit'] },
  {
    key: 'var',
    label: 'Variable',
    type: 'select',
    options: [
      { label: 'Temperature', value: 'temp' },
      { label: 'Rain', value: 'rain' },
    ],
  },
  { key: 'token', label: 'Token', type: 'text', private: true, required: true },
  { key: 'ui_only', label: 'Only in the form', type: 'bool', include: false },
  { key: 'mode', label: 'Mode', type: 'select', options: ['simple', 'advanced'], default: 'simple' },
  { key: 'depth', label: 'Depth', type: 'number', required: true, conditions: { mode: 'advanced' } },
  {
    key: 'range',
    label: 'Range',
    type: 'group',
    fields: [
      { key: 'start', label: 'Start', type: 'date', required: true },
      { key: 'custom', label: 'Custom', type: 'bool' },
      { key: 'end', label: 'End', type: 'date', required: true, conditions: { custom: true } },
      { key: 'note', label: 'Note', type: 'text', required: true, conditions: { mode: ['advanced'] } },
    ],
  },
];

// The same validator family @rjsf/validator-ajv8 wraps (its ESM-only dependencies do not load under jest here).
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);

/** Paths of the required properties missing from the data (`.range.end`). */
function errorsOf(schema: RJSFSchema, data: Record<string, unknown>): string[] {
  const validate = ajv.compile(schema);
  validate(data);
  return (validate.errors ?? [])
    .filter((error) => error.keyword === 'required')
    .map((error) => `${error.instancePath.replace(/\//g, '.')}.${String(error.params.missingProperty)}`)
    .sort();
}

describe('fieldsToForm', () => {
  const { schema, uiSchema } = fieldsToForm(FIELDS);
  const properties = schema.properties as Record<string, RJSFSchema>;

  it('maps text/number/date/bool/select/group to string/number/date-format/boolean/enum/object', () => {
    expect(properties.city).toEqual({ title: 'City', type: 'string', default: 'Berlin' });
    expect(properties.days).toEqual({ title: 'Days', type: 'number', default: 7 });
    expect(properties.from).toEqual({ title: 'From', type: 'string', format: 'date' });
    expect(properties.hourly).toEqual({ title: 'Hourly', type: 'boolean' });
    expect(properties.flag).toEqual({ title: 'Flag', type: 'boolean' });
    expect(properties.unit).toEqual({ title: 'Unit', type: 'string', enum: ['celsius', 'fahrenheit'] });
    expect(properties.var).toEqual({
      title: 'Variable',
      type: 'string',
      oneOf: [
        { const: 'temp', title: 'Temperature' },
        { const: 'rain', title: 'Rain' },
      ],
    });
    expect(properties.range).toMatchObject({ title: 'Range', type: 'object', required: ['start'] });
    expect((properties.range.properties as Record<string, RJSFSchema>).start).toEqual({
      title: 'Start',
      type: 'string',
      format: 'date',
    });
  });

  it('marks required fields and keeps defaults', () => {
    expect(schema.required).toEqual(['city', 'token']);
  });

  it('renders private fields with a password widget and keeps the field order', () => {
    expect(uiSchema.token).toMatchObject({ 'ui:widget': 'password' });
    expect(uiSchema['ui:order']).toEqual([...FIELDS.map((field) => field.key), '*']);
    expect(uiSchema.range).toMatchObject({
      'ui:title': 'Range',
      'ui:order': ['start', 'custom', 'end', 'note', '*'],
    });
  });

  it('turns conditions into if/then, so the field is required only while they hold', () => {
    const base = { city: 'x', token: 't', range: { start: '2024-01-01' } };
    expect(errorsOf(schema, { ...base, mode: 'simple' })).toEqual([]);
    expect(errorsOf(schema, { ...base, mode: 'advanced', range: { start: '2024-01-01' } })).toEqual([
      '.depth',
      '.range.note',
    ]);
    expect(
      errorsOf(schema, { ...base, mode: 'advanced', depth: 2, range: { start: '2024-01-01', note: 'n' } }),
    ).toEqual([]);
  });

  it('resolves a condition on a sibling inside a group', () => {
    const base = { city: 'x', token: 't' };
    expect(errorsOf(schema, { ...base, range: { start: '2024-01-01', custom: false } })).toEqual([]);
    expect(errorsOf(schema, { ...base, range: { start: '2024-01-01', custom: true } })).toEqual([
      '.range.end',
    ]);
  });

  it('reports missing required fields', () => {
    expect(errorsOf(schema, { range: {} })).toEqual(['.city', '.range.start', '.token']);
  });

  it('declares a conditional field only under its then', () => {
    expect(properties.depth).toBeUndefined();
    expect(schema.allOf).toEqual(
      expect.arrayContaining([
        {
          if: { properties: { mode: { const: 'advanced' } }, required: ['mode'] },
          then: { properties: { depth: { title: 'Depth', type: 'number' } }, required: ['depth'] },
        },
      ]),
    );
  });

  it('passes options_endpoint and depends_on to the widget options', () => {
    const form = fieldsToForm([
      { key: 'country', type: 'select', options_endpoint: 'countries', depends_on: ['region'] },
    ]);
    expect((form.schema.properties as Record<string, RJSFSchema>).country).toEqual({
      title: 'country',
      type: 'string',
    });
    expect(form.uiSchema.country).toMatchObject({
      'ui:options': { optionsEndpoint: 'countries', dependsOn: ['region'], fieldPath: 'country' },
    });
  });

  it('gives an empty object schema for no fields', () => {
    expect(fieldsToForm(undefined).schema).toEqual({ type: 'object', properties: {} });
  });
});
