/** JSON Schema fragments of the connector views' OpenAPI document, for values of any JSON shape. */

/** Text, a number or a flag. */
export const SCALAR_VALUE = { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] };
/** Any JSON value: a field's default may be text, a number, a flag, a list or an object. */
export const ANY_JSON_VALUE = {
  oneOf: [
    ...SCALAR_VALUE.oneOf,
    { type: 'object', additionalProperties: true },
    { type: 'array', items: {} },
  ],
  nullable: true,
};
export const OBJECT_OF_ANYTHING = { type: 'object', additionalProperties: true } as const;
export const OBJECT_OF_TEXT = { type: 'object', additionalProperties: { type: 'string' } } as const;
