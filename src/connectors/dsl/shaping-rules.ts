import { isReadablePattern } from '../engine/cursor-format';
import { DATE_PIPES, durationOf } from '../engine/date-functions';
import type { Problem } from './connector-spec.rules';
import type { OperationSpec } from './connector-spec.types';

const TEMPLATE = /\{\{\s*([^}]*?)\s*\}\}/g;

/** Placeholders that every template may use besides fields: the clock. */
export const CLOCK_PLACEHOLDERS = ['now', 'today'];

/** Placeholders an operation's incremental declaration makes available to its templates. */
export function incrementalPlaceholders(operation: OperationSpec): string[] {
  if (!operation.incremental) return [];
  const names = ['state.cursor', 'incremental.since'];
  if (operation.incremental.window) names.push('window.start', 'window.end');
  return names;
}

/** Problems in the date functions (`| minus:P1D | format:date`) of one template. */
export function pipeProblems(template: string, path: string): Problem[] {
  const problems: Problem[] = [];
  for (const match of template.matchAll(TEMPLATE)) {
    const [, ...pipes] = match[1].split('|');
    for (const pipe of pipes) {
      const colon = pipe.indexOf(':');
      const name = (colon === -1 ? pipe : pipe.slice(0, colon)).trim();
      const arg = colon === -1 ? '' : pipe.slice(colon + 1).trim();
      if (!DATE_PIPES.includes(name)) {
        problems.push({ path, message: `'${name}' is not a date function (use ${DATE_PIPES.join(', ')})` });
      } else if (name === 'minus' || name === 'plus') {
        const problem = durationProblem(arg, path);
        if (problem) problems.push(problem);
      } else if (name === 'start_of' && !['hour', 'day', 'week', 'month', 'year'].includes(arg)) {
        problems.push({ path, message: `start_of takes hour, day, week, month or year, not '${arg}'` });
      } else if (name === 'format' && arg === '') {
        problems.push({ path, message: 'format needs a format: iso, date, unix, unix_ms or a luxon format' });
      }
    }
  }
  return problems;
}

function durationProblem(text: string, path: string): Problem | undefined {
  try {
    durationOf(text);
    return undefined;
  } catch (error) {
    return { path, message: (error as Error).message };
  }
}

/** Rules of records (selection and shaping), format and incremental that JSON Schema cannot express. */
export function shapingProblems(operation: OperationSpec, base: string, fieldKeys: Set<string>): Problem[] {
  const problems: Problem[] = [];
  const records = operation.records;
  if (records) {
    if (records.path && operation.response_path) {
      problems.push({
        path: `${base}/records/path`,
        message: 'give records.path or response_path, not both',
      });
    }
    if (records.header_row && records.key_field) {
      problems.push({
        path: `${base}/records/header_row`,
        message: 'header_row makes records from arrays: key_field does not apply',
      });
    }
    if (records.key_field && !(records.path ?? operation.response_path ?? '').includes('*')) {
      problems.push({
        path: `${base}/records/key_field`,
        message: 'key_field keeps the key a * step went over: the record path needs a *',
      });
    }
    const roots = new Set([
      ...fieldKeys,
      ...CLOCK_PLACEHOLDERS,
      'partition',
      'parent',
      'record',
      'state',
      'window',
      'incremental',
    ]);
    for (const [field, template] of Object.entries(records.add_fields ?? {})) {
      const path = `${base}/records/add_fields/${field}`;
      problems.push(...pipeProblems(template, path));
      for (const match of template.matchAll(TEMPLATE)) {
        const name = match[1].split('|')[0].trim();
        if (!roots.has(name) && !roots.has(name.split('.')[0])) {
          problems.push({
            path,
            message: `placeholder {{${name}}} is neither a field nor partition.*, parent.*, record.*, now or today`,
          });
        }
      }
    }
    const filter = records.filter;
    if (filter && filter.op === 'in' && !Array.isArray(filter.value)) {
      problems.push({ path: `${base}/records/filter/value`, message: "op 'in' needs an array of values" });
    }
    if (
      filter &&
      !['in', 'exists', 'not_exists'].includes(filter.op) &&
      (filter.value === undefined || Array.isArray(filter.value))
    ) {
      problems.push({
        path: `${base}/records/filter/value`,
        message: `op '${filter.op}' needs one value to compare with`,
      });
    }
  }
  if (operation.format?.delimiter && operation.format.type !== 'csv') {
    problems.push({ path: `${base}/format/delimiter`, message: 'a delimiter applies to csv only' });
  }
  const incremental = operation.incremental;
  if (incremental) {
    const at = `${base}/incremental`;
    for (const [key, text] of [
      ['lookback', incremental.lookback],
      ['window/step', incremental.window?.step],
      ['start', incremental.start?.startsWith('-') ? incremental.start.slice(1) : undefined],
    ] as const) {
      if (text === undefined) continue;
      const problem = durationProblem(text, `${at}/${key}`);
      if (problem) problems.push(problem);
    }
    if (
      incremental.start &&
      !incremental.start.startsWith('-') &&
      Number.isNaN(Date.parse(incremental.start))
    ) {
      problems.push({
        path: `${at}/start`,
        message: 'must be an ISO date (2024-01-01) or a duration back from now (-P30D)',
      });
    }
    if (incremental.cursor_format && !isReadablePattern(incremental.cursor_format)) {
      problems.push({
        path: `${at}/cursor_format`,
        message:
          'must be rfc2822, http, iso, unix, unix_ms or a luxon format that reads dates back (such as dd/MM/yyyy HH:mm)',
      });
    }
    if (incremental.start_setting && !fieldKeys.has(incremental.start_setting)) {
      problems.push({
        path: `${at}/start_setting`,
        message: `'${incremental.start_setting}' is not a field key`,
      });
    }
    if (incremental.in === 'body' && (operation.method ?? 'GET') !== 'POST') {
      problems.push({ path: `${at}/in`, message: 'a cursor goes into the body only with method POST' });
    }
    if (incremental.window && !incremental.start && !incremental.start_setting) {
      problems.push({
        path: `${at}/window`,
        message: 'windows need a start or a start_setting to begin from',
      });
    }
    if (
      incremental.window &&
      !incremental.window.start_param &&
      !incremental.window.end_param &&
      !usesTemplates(operation, ['window.'])
    ) {
      problems.push({
        path: `${at}/window`,
        message:
          'windows are sent through start_param/end_param or {{window.start}}/{{window.end}} in a template',
      });
    }
    if (!incremental.window && !incremental.param && !usesTemplates(operation, ['state.', 'incremental.'])) {
      problems.push({
        path: `${at}/param`,
        message:
          'the cursor is sent through param, or {{incremental.since}} / {{state.cursor}} in a template',
      });
    }
  }
  if (
    operation.conditional_requests &&
    ((operation.pagination && operation.pagination.type !== 'none') ||
      operation.incremental?.window ||
      operation.parent)
  ) {
    problems.push({
      path: `${base}/conditional_requests`,
      message: 'conditional requests need an operation of one request: no pagination, windows or parent',
    });
  }
  const key = operation.primary_key;
  if (key && operation.records?.remove_fields?.some((field) => key.includes(field))) {
    problems.push({
      path: `${base}/primary_key`,
      message: 'a primary_key field must not be removed by remove_fields',
    });
  }
  return problems;
}

function usesTemplates(operation: OperationSpec, prefixes: string[]): boolean {
  const text = JSON.stringify([
    operation.url_path,
    operation.query ?? {},
    operation.headers ?? {},
    operation.body ?? null,
  ]);
  return [...text.matchAll(TEMPLATE)].some((match) =>
    prefixes.some((prefix) => match[1].trim().startsWith(prefix)),
  );
}
