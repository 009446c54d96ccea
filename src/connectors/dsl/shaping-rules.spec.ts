import { validateConnectorSpec } from './connector-spec.validator';

const base = { base_url: 'https://api.example.com' };
const op = (extra: Record<string, unknown>) => ({
  ...base,
  operations: [{ id: 'a', url_path: '/a', ...extra }],
});

describe('connector spec validator: records, formats and incremental sync', () => {
  it('accepts every shaping step, format and incremental option together', () => {
    expect(
      validateConnectorSpec({
        ...base,
        fields: [{ key: 'start_date', type: 'date' }],
        operations: [
          {
            id: 'a',
            url_path: '/a',
            query: { until: '{{today | minus:P1D | format:yyyyMMdd}}' },
            format: { type: 'csv', delimiter: ';' },
            records: {
              path: 'data.*',
              key_field: 'day',
              zip: ['time', 'value'],
              flatten_depth: 2,
              add_fields: {
                source: '{{start_date}}',
                at: '{{now | start_of:day}}',
                parent_id: '{{parent.id}}',
              },
              remove_fields: ['noise'],
              rename_fields: { value: 'reading' },
              filter: { field: 'reading', op: 'gte', value: 0 },
            },
            primary_key: ['day', 'time'],
            incremental: {
              cursor_field: 'time',
              format: 'date',
              cursor_format: 'dd/MM/yyyy HH:mm',
              start_setting: 'start_date',
              lookback: 'P1D',
              window: { step: 'P30D', start_param: 'from', end_param: 'to' },
            },
          },
        ],
      }),
    ).toEqual([]);
  });

  it.each([
    [
      'both record paths',
      op({ response_path: 'x', records: { path: 'y' } }),
      'spec/operations/0/records/path: give records.path or response_path, not both',
    ],
    [
      'an unknown date function',
      op({ query: { since: '{{today | yesterday}}' } }),
      "spec/operations/0/query/since: 'yesterday' is not a date function (use minus, plus, start_of, format)",
    ],
    [
      'a bad duration in a template',
      op({ query: { since: '{{now | minus:1 day}}' } }),
      "spec/operations/0/query/since: '1 day' is not an ISO-8601 duration such as P1D or PT1H",
    ],
    [
      'an add_fields placeholder that names nothing',
      op({ records: { add_fields: { x: '{{nope}}' } } }),
      'spec/operations/0/records/add_fields/x: placeholder {{nope}} is neither a field nor partition.*, parent.*, record.*, now or today',
    ],
    [
      'windows without a start',
      op({ incremental: { cursor_field: 'd', window: { step: 'P1D', start_param: 's' } } }),
      'spec/operations/0/incremental/window: windows need a start or a start_setting to begin from',
    ],
    [
      'a start setting that is not a field',
      op({ incremental: { cursor_field: 'd', param: 'since', start_setting: 'from' } }),
      "spec/operations/0/incremental/start_setting: 'from' is not a field key",
    ],
    [
      'a cursor in the body of a GET',
      op({ incremental: { cursor_field: 'd', param: 'since', in: 'body' } }),
      'spec/operations/0/incremental/in: a cursor goes into the body only with method POST',
    ],
    [
      'a cursor format that cannot read a date back',
      op({ incremental: { cursor_field: 'd', param: 'since', cursor_format: 'EEEE' } }),
      'spec/operations/0/incremental/cursor_format: must be rfc2822, http, iso, unix, unix_ms or a luxon format that reads dates back (such as dd/MM/yyyy HH:mm)',
    ],
    [
      'conditional requests on a paged operation',
      op({ conditional_requests: true, pagination: { type: 'page' } }),
      'spec/operations/0/conditional_requests: conditional requests need an operation of one request: no pagination, windows or parent',
    ],
    [
      'a header row with a key field',
      op({ records: { path: 'values.*', header_row: true, key_field: 'sheet' } }),
      'spec/operations/0/records/header_row: header_row makes records from arrays: key_field does not apply',
    ],
    [
      'a removed primary key',
      op({ primary_key: ['id'], records: { remove_fields: ['id'] } }),
      'spec/operations/0/primary_key: a primary_key field must not be removed by remove_fields',
    ],
    [
      'a delimiter for JSON',
      op({ format: { type: 'json', delimiter: ';' } }),
      'spec/operations/0/format/delimiter: a delimiter applies to csv only',
    ],
    [
      'an unknown format',
      op({ format: { type: 'xml' } }),
      'spec/operations/0/format/type: must be one of: json, jsonl, csv',
    ],
    [
      'a template using the state without incremental',
      op({ query: { since: '{{state.cursor}}' } }),
      'spec/operations/0/query/since: placeholder {{state.cursor}} does not match any field or auth field',
    ],
  ])('refuses %s, naming the path', (_name, spec, message) => {
    expect(validateConnectorSpec(spec)).toEqual([message]);
  });

  it('still refuses free-form transform pipelines by name', () => {
    expect(validateConnectorSpec(op({ transforms: [{ type: 'map' }] }))).toEqual([
      'spec/operations/0/transforms: Nested transforms are not supported',
    ]);
  });
});
