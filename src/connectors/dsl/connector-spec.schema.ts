/**
 * JSON Schema (draft 2020-12 subset understood by ajv) of the connector upload DSL (see the
 * /documentation page). Unsupported features are refused by name before this schema runs.
 */
const templateMap = {
  type: 'object',
  additionalProperties: { type: ['string', 'number', 'boolean'] },
} as const;

export const CONNECTOR_SPEC_SCHEMA = {
  $id: 'https://data-marketplace.local/schemas/connector-spec.json',
  type: 'object',
  required: ['operations'],
  additionalProperties: false,
  properties: {
    title: { type: 'string', maxLength: 200 },
    description: { type: 'string', maxLength: 5000 },
    category: { type: 'string', maxLength: 100 },
    version: { type: ['string', 'number'] },
    protocol: { enum: ['http', 'https', 'rest', 'REST', 'HTTP', 'HTTPS'] },
    base_url: { type: 'string', pattern: '^https?://[^\\s]+$' },
    auth: {
      type: 'object',
      required: ['type'],
      additionalProperties: false,
      properties: {
        type: { enum: ['none', 'bearer', 'api_key', 'basic', 'header', 'oauth2', 'session'] },
        in: { enum: ['header', 'query'] },
        name: { type: 'string', pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$" },
        format: { type: 'string', maxLength: 500 },
        fields: { type: 'array', maxItems: 10, items: { $ref: '#/$defs/authField' } },
        grant_type: { enum: ['client_credentials', 'refresh_token'] },
        token_url: { type: 'string', minLength: 1, maxLength: 2000 },
        scopes: { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1 } },
        token_params: { type: 'object', additionalProperties: { type: 'string' } },
        login: {
          type: 'object',
          required: ['url_path'],
          additionalProperties: false,
          properties: {
            url_path: { type: 'string', minLength: 1, maxLength: 2000 },
            method: { enum: ['GET', 'POST'] },
            body: { type: 'object' },
            body_format: { enum: ['json', 'form'] },
            headers: templateMap,
            token_path: { type: 'string', minLength: 1 },
            token_header: { type: 'string', minLength: 1 },
          },
        },
      },
      allOf: [
        { if: { properties: { type: { const: 'session' } } }, then: { required: ['login'] } },
        { if: { required: ['grant_type'] }, then: { required: ['token_url'] } },
      ],
    },
    requests: {
      type: 'object',
      additionalProperties: false,
      properties: {
        timeout_seconds: { type: 'number', exclusiveMinimum: 0, maximum: 30 },
        retries: { type: 'integer', minimum: 0, maximum: 10 },
        backoff: { enum: ['exponential', 'constant'] },
        backoff_seconds: { type: 'number', minimum: 0, maximum: 60 },
        rate_limit: {
          type: 'object',
          required: ['requests', 'per_seconds'],
          additionalProperties: false,
          properties: {
            requests: { type: 'integer', minimum: 1, maximum: 10000 },
            per_seconds: { type: 'number', exclusiveMinimum: 0, maximum: 86400 },
          },
        },
      },
    },
    fields: { type: 'array', maxItems: 200, items: { $ref: '#/$defs/field' } },
    operations: {
      type: 'array',
      minItems: 1,
      maxItems: 50,
      items: {
        type: 'object',
        required: ['id', 'url_path'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,100}$' },
          name: { type: 'string', maxLength: 200 },
          description: { type: 'string', maxLength: 2000 },
          method: { enum: ['GET', 'POST'] },
          url_path: { type: 'string', minLength: 1, maxLength: 2000 },
          headers: templateMap,
          query: templateMap,
          body: { type: ['object', 'array', 'string'] },
          body_format: { enum: ['json', 'form'] },
          response_filters: { type: 'array', maxItems: 50, items: { $ref: '#/$defs/responseFilter' } },
          parent: {
            type: 'object',
            required: ['operation', 'field', 'as'],
            additionalProperties: false,
            properties: {
              operation: { type: 'string', minLength: 1 },
              field: { type: 'string', minLength: 1 },
              as: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_-]*$' },
            },
          },
          params_fields: { type: 'array', maxItems: 200, items: { $ref: '#/$defs/field' } },
          pagination: {
            type: 'object',
            required: ['type'],
            additionalProperties: false,
            properties: {
              type: { enum: ['none', 'page', 'cursor', 'offset', 'link_header', 'next_url'] },
              page_param: { type: 'string', minLength: 1 },
              start_page: { type: 'integer', minimum: 0 },
              size_param: { type: 'string', minLength: 1 },
              page_size: { type: 'integer', minimum: 1, maximum: 100000 },
              offset_param: { type: 'string', minLength: 1 },
              limit_param: { type: 'string', minLength: 1 },
              cursor_param: { type: 'string', minLength: 1 },
              cursor_path: { type: 'string', minLength: 1 },
              total_path: { type: 'string', minLength: 1 },
              max_pages: { type: 'integer', minimum: 1 },
              cursor_header: { type: 'string', pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$" },
              cursor_record_field: { type: 'string', minLength: 1 },
              next_url_path: { type: 'string', minLength: 1 },
              inject_into: { enum: ['query', 'body', 'header', 'path'] },
              has_more_path: { type: 'string', minLength: 1 },
              stop_on_short_page: { type: 'boolean' },
            },
            allOf: [
              {
                // A cursor comes from a body path unless it comes from a header or the last record.
                if: {
                  properties: { type: { const: 'cursor' } },
                  not: { anyOf: [{ required: ['cursor_header'] }, { required: ['cursor_record_field'] }] },
                },
                then: { required: ['cursor_path'] },
              },
              { if: { properties: { type: { const: 'next_url' } } }, then: { required: ['next_url_path'] } },
            ],
          },
          response_path: { type: 'string', maxLength: 500 },
          format: {
            type: 'object',
            required: ['type'],
            additionalProperties: false,
            properties: {
              type: { enum: ['json', 'jsonl', 'csv'] },
              delimiter: { type: 'string', minLength: 1, maxLength: 1 },
            },
          },
          records: { $ref: '#/$defs/records' },
          incremental: { $ref: '#/$defs/incremental' },
          conditional_requests: { type: 'boolean' },
          primary_key: {
            type: 'array',
            minItems: 1,
            maxItems: 10,
            uniqueItems: true,
            items: { type: 'string', minLength: 1, maxLength: 200 },
          },
        },
      },
    },
  },
  $defs: {
    records: {
      type: 'object',
      additionalProperties: false,
      properties: {
        path: { type: 'string', minLength: 1, maxLength: 500 },
        key_field: { type: 'string', minLength: 1, maxLength: 200 },
        header_row: { const: true },
        zip: {
          anyOf: [
            { const: true },
            { type: 'array', minItems: 1, maxItems: 100, items: { type: 'string', minLength: 1 } },
          ],
        },
        flatten_depth: { type: 'integer', minimum: 1, maximum: 10 },
        add_fields: {
          type: 'object',
          maxProperties: 100,
          additionalProperties: { type: 'string', maxLength: 2000 },
        },
        remove_fields: { type: 'array', maxItems: 500, items: { type: 'string', minLength: 1 } },
        rename_fields: {
          type: 'object',
          maxProperties: 500,
          additionalProperties: { type: 'string', minLength: 1, maxLength: 200 },
        },
        filter: {
          type: 'object',
          required: ['field', 'op'],
          additionalProperties: false,
          properties: {
            field: { type: 'string', minLength: 1 },
            op: { enum: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'exists', 'not_exists'] },
            value: {
              anyOf: [
                { type: ['string', 'number', 'boolean', 'null'] },
                { type: 'array', maxItems: 1000, items: { type: ['string', 'number', 'boolean'] } },
              ],
            },
          },
        },
      },
    },
    incremental: {
      type: 'object',
      required: ['cursor_field'],
      additionalProperties: false,
      properties: {
        cursor_field: { type: 'string', minLength: 1, maxLength: 200 },
        param: { type: 'string', minLength: 1, maxLength: 200 },
        in: { enum: ['query', 'body'] },
        format: { type: 'string', minLength: 1, maxLength: 100 },
        cursor_format: { type: 'string', minLength: 1, maxLength: 100 },
        start_setting: { type: 'string', minLength: 1, maxLength: 200 },
        start: { type: 'string', minLength: 1, maxLength: 100 },
        lookback: { type: 'string', minLength: 2, maxLength: 50 },
        window: {
          type: 'object',
          required: ['step'],
          additionalProperties: false,
          properties: {
            step: { type: 'string', minLength: 2, maxLength: 50 },
            start_param: { type: 'string', minLength: 1, maxLength: 200 },
            end_param: { type: 'string', minLength: 1, maxLength: 200 },
          },
        },
      },
    },
    responseFilter: {
      type: 'object',
      required: ['action'],
      additionalProperties: false,
      properties: {
        http_codes: {
          type: 'array',
          minItems: 1,
          items: { type: 'integer', minimum: 100, maximum: 599 },
        },
        path: { type: 'string', minLength: 1 },
        header: { type: 'string', pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$" },
        equals: { type: ['string', 'number', 'boolean', 'null'] },
        action: { enum: ['ignore', 'fail', 'retry'] },
        message_path: { type: 'string', minLength: 1 },
      },
      anyOf: [{ required: ['http_codes'] }, { required: ['path'] }, { required: ['header'] }],
    },
    authField: {
      type: 'object',
      required: ['key'],
      additionalProperties: false,
      properties: {
        key: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_-]*$' },
        label: { type: 'string' },
        required: { type: 'boolean' },
      },
    },
    option: {
      anyOf: [
        { type: ['string', 'number', 'boolean'] },
        {
          type: 'object',
          required: ['value'],
          additionalProperties: false,
          properties: { label: { type: 'string' }, value: { type: ['string', 'number', 'boolean'] } },
        },
      ],
    },
    optionsEndpoint: {
      anyOf: [
        { type: 'string', minLength: 1 },
        {
          type: 'object',
          additionalProperties: false,
          properties: {
            operation: { type: 'string' },
            url: { type: 'string' },
            response_path: { type: 'string' },
            value_key: { type: 'string' },
            label_key: { type: 'string' },
          },
        },
      ],
    },
    field: {
      type: 'object',
      required: ['key', 'type'],
      additionalProperties: false,
      properties: {
        key: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_-]*$' },
        label: { type: 'string' },
        description: { type: 'string' },
        type: { enum: ['text', 'number', 'date', 'bool', 'boolean', 'select', 'group'] },
        options: { type: 'array', items: { $ref: '#/$defs/option' } },
        fields: { type: 'array', items: { $ref: '#/$defs/field' } },
        conditions: { type: 'object' },
        private: { type: 'boolean' },
        include: { type: 'boolean' },
        required: { type: 'boolean' },
        default: {},
        options_endpoint: { $ref: '#/$defs/optionsEndpoint' },
        depends_on: { type: 'array', items: { type: 'string' } },
      },
      allOf: [
        { if: { properties: { type: { const: 'group' } } }, then: { required: ['fields'] } },
        {
          if: { properties: { type: { const: 'select' } } },
          then: { anyOf: [{ required: ['options'] }, { required: ['options_endpoint'] }] },
        },
      ],
    },
  },
} as const;
