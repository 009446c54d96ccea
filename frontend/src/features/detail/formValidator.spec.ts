import { findProblems, formValidator, toErrorSchema } from './formValidator';
import { toFormSchema } from './settingsSchema';

const { schema } = toFormSchema(
  [
    { key: 'city', label: 'City', type: 'text', required: true },
    { key: 'days', type: 'number' },
    { key: 'from', type: 'date' },
    { key: 'units', type: 'select', options: ['metric', 'imperial'] },
    { key: 'range', type: 'group', fields: [{ key: 'start', type: 'text', required: true }] },
  ],
  {},
);

describe('form validation of required and typed settings', () => {
  it('reports required fields left empty, nested ones too', () => {
    const problems = findProblems(schema, { city: '', range: {} });
    expect(problems.map((problem) => problem.path.join('.'))).toEqual(['city', 'range.start']);
  });

  it('accepts complete, well-typed values', () => {
    expect(
      findProblems(schema, {
        city: 'Oslo',
        days: 3,
        from: '2024-05-01',
        units: 'metric',
        range: { start: 'a' },
      }),
    ).toEqual([]);
  });

  it('refuses wrong types, bad dates and unknown options', () => {
    const problems = findProblems(schema, {
      city: 'Oslo',
      days: 'x',
      from: '05/01/2024',
      units: 'kelvin',
      range: { start: 'a' },
    });
    expect(problems.map((problem) => problem.path[0])).toEqual(['days', 'from', 'units']);
  });

  it('treats an empty form as missing its required fields', () => {
    expect(formValidator.isValid(schema as never, undefined, schema as never)).toBe(false);
  });

  it('places messages where the form shows them', () => {
    expect(toErrorSchema([{ path: ['range', 'start'], message: 'This field is required.' }])).toEqual({
      range: { start: { __errors: ['This field is required.'] } },
    });
  });
});
