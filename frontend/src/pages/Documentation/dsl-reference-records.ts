import type { FieldRow } from './FieldTable';

/** The keys of an operation's `records`, applied in this order. */
export const RECORD_FIELDS: FieldRow[] = [
  {
    name: 'path',
    type: 'string',
    description:
      'Dotted path to the records (instead of response_path). A * step goes over every item of an array or every value of an object: near_earth_objects.* or data.*.items.',
  },
  {
    name: 'key_field',
    type: 'string',
    description: 'With a * over object values: the key each value had is kept in this field (e.g. the date).',
  },
  {
    name: 'header_row',
    type: 'true',
    description:
      'The values at the path are arrays (Google Sheets values): the first names the fields, each later one is a record. Missing cells are null; a cell beyond the header, or under an empty header cell, is kept as column_<n>.',
  },
  {
    name: 'zip',
    type: 'true | string[]',
    description:
      'Parallel arrays of each selected object become one row per index (true: every array field; or the named ones). Other fields repeat on every row.',
  },
  {
    name: 'flatten_depth',
    type: 'integer 1–10',
    description:
      'Nested objects become outer_inner fields down to this depth: properties.email becomes properties_email. Arrays stay whole (JSON).',
  },
  {
    name: 'add_fields',
    type: '{ field: template }',
    description:
      'Adds fields from templates: settings, {{partition.key}} (an iterated value), {{parent.field}} (the parent stream record), {{record.field}}, and the date functions. A template that is one placeholder keeps the value’s type.',
  },
  { name: 'remove_fields', type: 'string[]', description: 'Drops these fields (after flattening).' },
  { name: 'rename_fields', type: '{ old: new }', description: 'Renames fields (after adding and removing).' },
  {
    name: 'filter',
    type: '{ field, op, value }',
    description:
      'Keeps a record only when the comparison holds. op: eq, ne, gt, gte, lt, lte (numbers as numbers, else text), in (value is a list), exists, not_exists.',
  },
];

export const FORMAT_FIELDS: FieldRow[] = [
  {
    name: 'format.type',
    type: '"json" | "jsonl" | "csv"',
    description:
      'json (default): numbers are read exactly. jsonl: one JSON value per line (NDJSON). csv: a header row names the fields; empty fields are null, numbers and true/false are typed. Each page is decoded on its own; gzip answers are unpacked first, by Content-Encoding or, for a file such as data.json.gz, by its first bytes. A binary answer that is none of these fails the run, named by its size.',
  },
  {
    name: 'format.delimiter',
    type: 'one character',
    description: 'csv only: the field separator (default ,).',
  },
];

export const INCREMENTAL_FIELDS: FieldRow[] = [
  {
    name: 'cursor_field',
    type: 'string',
    description:
      'Field of the shaped records whose greatest value is saved as the state when the run’s rows are committed; the next run starts from it. The column name the table shows for a field is accepted too (fields_last_modified for fields.Last Modified). A run whose records never carry it fails, naming it.',
  },
  {
    name: 'param / in',
    type: 'string / "query" | "body"',
    description:
      'The query (default) or body parameter the start value is sent in. Or use {{incremental.since}} or {{state.cursor}} in a template instead.',
  },
  {
    name: 'format',
    type: 'string',
    description:
      'How dates are sent: iso (default), date (yyyy-MM-dd), unix, unix_ms, rfc2822, http, or a luxon format such as yyyyMMdd.',
  },
  {
    name: 'cursor_format',
    type: 'string',
    description:
      'How the records write a date cursor when it is not ISO: rfc2822 (Twilio: Tue, 14 Jan 2025 10:00:00 +0000), http, unix, unix_ms, or a luxon format such as dd/MM/yyyy HH:mm. Cursors are then compared as instants and sent in format.',
  },
  {
    name: 'start_setting / start',
    type: 'field key / string',
    description:
      'The first run’s start: the value of this setting, else start (an ISO date, or a duration back from now such as -P30D; whole days count from the start of that day).',
  },
  {
    name: 'lookback',
    type: 'ISO-8601 duration',
    description:
      'Re-reads this much before the saved cursor (late updates), e.g. PT1H or P1D. Use with primary_key.',
  },
  {
    name: 'window',
    type: '{ step, start_param, end_param }',
    description:
      'Date-range APIs: one request sequence per window of step (P1D, P30D) from the start to the end of today (23:59:59 UTC, never a later date), so a first run includes today, the bounds sent in start_param and end_param (or {{window.start}} / {{window.end}}). A start such as -P5D counts whole days back from the start of today.',
  },
  {
    name: 'primary_key (on the operation)',
    type: 'string[]',
    description:
      'Fields identifying a record: stored rows with the same key are replaced (upsert), so re-reading never duplicates. Without it the append/override choice stands; an incremental run always adds.',
  },
];

export const DATE_FUNCTIONS: FieldRow[] = [
  {
    name: '{{now}} / {{today}}',
    type: 'date',
    description: 'The run’s start time, and that day at 00:00 (UTC).',
  },
  {
    name: '| minus:P7D / | plus:PT1H',
    type: 'ISO-8601 duration',
    description: 'Moves a date back or forward.',
  },
  {
    name: '| start_of:month',
    type: 'hour, day, week, month, year',
    description: 'The start of that period.',
  },
  {
    name: '| format:date',
    type: 'iso, date, unix, unix_ms, rfc2822, http or a luxon format',
    description: 'Writes the date; without it a date is written as ISO-8601.',
  },
];

export const RECORDS_EXAMPLE = `// NASA-style: a map of dates to arrays
"records": { "path": "near_earth_objects.*", "key_field": "date" }

// Open-Meteo-style: parallel arrays into rows of (time, temperature_2m)
"records": { "path": "hourly", "zip": ["time", "temperature_2m"] }

// HubSpot-style: properties.email -> email, archived records dropped
"response_path": "results",
"records": {
  "flatten_depth": 1,
  "rename_fields": { "properties_email": "email" },
  "remove_fields": ["properties_hs_object_id"],
  "add_fields": { "city": "{{city}}", "repo": "{{partition.repo}}", "org_id": "{{parent.id}}" },
  "filter": { "field": "archived", "op": "eq", "value": false }
}`;

export const FORMAT_EXAMPLE = `"format": { "type": "jsonl" }
"format": { "type": "csv", "delimiter": ";" }`;

export const INCREMENTAL_EXAMPLE = `// Changed records since the last run, upserted on id
{
  "id": "tickets",
  "url_path": "/tickets",
  "primary_key": ["id"],
  "incremental": {
    "cursor_field": "updated_at",
    "param": "updated_since",
    "start_setting": "start_date",
    "lookback": "PT1H"
  }
}

// A date-range API read one day per request, from 30 days ago to now
"incremental": {
  "cursor_field": "date",
  "format": "date",
  "start": "-P30D",
  "window": { "step": "P1D", "start_param": "start_date", "end_param": "end_date" }
}

// Date functions in any template
"query": { "from": "{{today | minus:P7D | format:date}}", "since": "{{state.cursor}}" }`;
