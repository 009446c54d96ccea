/**
 * The required parts of the Frictionless Data Package v2 profile (datapackage.org/profiles/2.0),
 * written from the specification: a package needs resources; a name (package, resource or licence)
 * is a lower-case identifier; a licence needs a name or a path; a resource needs a name and a path
 * or data; a Table Schema field needs a name and, when typed, one of the spec's types.
 */
const NAME = { type: 'string', pattern: '^([-a-z0-9._/])+$' };
const FIELD_TYPES = [
  'string',
  'number',
  'integer',
  'boolean',
  'object',
  'array',
  'list',
  'date',
  'time',
  'datetime',
  'year',
  'yearmonth',
  'duration',
  'geopoint',
  'geojson',
  'any',
];

export const DATA_PACKAGE_SCHEMA = {
  type: 'object',
  required: ['resources'],
  properties: {
    $schema: { type: 'string', format: 'uri' },
    name: NAME,
    id: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    homepage: { type: 'string', format: 'uri' },
    version: { type: 'string' },
    created: { type: 'string', format: 'date-time' },
    keywords: { type: 'array', items: { type: 'string' } },
    licenses: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        anyOf: [{ required: ['name'] }, { required: ['path'] }],
        properties: {
          // Data Package v2 names licences by their Open Definition / SPDX id, which may be mixed case.
          name: { type: 'string', pattern: '^([-a-zA-Z0-9._])+$' },
          path: { type: 'string', format: 'uri' },
          title: { type: 'string' },
        },
      },
    },
    contributors: {
      type: 'array',
      items: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } },
    },
    resources: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['name'],
        oneOf: [{ required: ['path'] }, { required: ['data'] }],
        properties: {
          name: NAME,
          path: { type: 'string', format: 'uri' },
          type: { type: 'string' },
          format: { type: 'string' },
          mediatype: { type: 'string', pattern: '^(.+)/(.+)$' },
          encoding: { type: 'string' },
          schema: {
            type: 'object',
            required: ['fields'],
            properties: {
              fields: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['name'],
                  properties: { name: { type: 'string' }, type: { enum: FIELD_TYPES } },
                },
              },
            },
          },
        },
      },
    },
  },
};
