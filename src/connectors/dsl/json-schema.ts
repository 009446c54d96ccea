import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * The one JSON Schema validator of connectors: it checks an uploaded spec and the values an
 * instance's settings give the spec's fields, so both answer by the same rules.
 */
export const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv, ['date', 'date-time']);
