import { parse as parseCsv } from 'csv-parse/sync';
import { isSafeNumber, LosslessNumber, parse as parseLossless } from 'lossless-json';
import type { ResponseFormat } from '../dsl/connector-spec.types';
import { ConnectorFetchError } from './connector-fetch-error';
import { parseProblem } from './http-errors';
import type { HttpResponse } from './safe-http-client';

/**
 * Numbers a double holds exactly stay numbers; the rest (integers beyond 2^53, long decimals)
 * stay LosslessNumber with their digits, so they reach numeric columns exactly.
 */
export function exactNumber(text: string): number | LosslessNumber {
  return isSafeNumber(text) ? Number(text) : new LosslessNumber(text);
}

/** Whether the character at `index` is a digit or a decimal point. */
function numberCharacterAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return (code >= 48 && code <= 57) || code === 46;
}

/**
 * Whether the text holds a run of 16 or more digits and points: somewhere a number may hold more
 * digits than a double keeps. Without one, JSON.parse is exact and several times faster. Any
 * such run covers one of every 16 positions, so only those are looked at, and a run only when
 * one of them falls in it: a page of ordinary records is checked in a sixteenth of the reads.
 */
export function mayHoldLongNumber(text: string): boolean {
  for (let index = 15; index < text.length; index += 16) {
    if (!numberCharacterAt(text, index)) continue;
    let start = index;
    let end = index;
    while (start > 0 && numberCharacterAt(text, start - 1)) start--;
    while (end + 1 < text.length && numberCharacterAt(text, end + 1)) end++;
    if (end - start + 1 >= 16) return true;
    // Positions 16 apart from the run's end again cover every run that starts after it.
    index = end;
  }
  return false;
}

/** JSON text parsed without losing numeric precision. */
export function parseExactJson(text: string): unknown {
  return mayHoldLongNumber(text) ? parseLossless(text, null, exactNumber) : JSON.parse(text);
}

/** Decodes a response body as JSON (an empty body is null), numbers exact. */
export function decodeJson(response: HttpResponse, where: string): unknown {
  const text = response.body.toString('utf8');
  if (text.trim() === '') return null;
  try {
    return parseExactJson(text);
  } catch (error) {
    throw new ConnectorFetchError(
      `Response from ${where} is not valid JSON ${parseProblem(error, response.body)}`,
    );
  }
}

/** JSON Lines (NDJSON): one JSON value per non-empty line, answered as an array. */
export function decodeJsonLines(response: HttpResponse, where: string): unknown {
  const lines = response.body.toString('utf8').split(/\r?\n/);
  const values: unknown[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      values.push(parseExactJson(line));
    } catch (error) {
      throw new ConnectorFetchError(
        `Line ${index + 1} of the response from ${where} is not valid JSON ${parseProblem(error, Buffer.from(line))}`,
      );
    }
  });
  return values;
}

const CSV_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * A CSV field as a value, as COPY would read it: empty is null, quoted empty (`""`) an empty
 * string; numbers exact, true/false booleans, the rest text. A number a double would write
 * otherwise (`12.50`, `1e3`) keeps its digits as written.
 */
function csvValue(text: string, quoted: boolean): unknown {
  if (text === '') return quoted ? '' : null;
  if (CSV_NUMBER.test(text)) {
    const number = Number(text);
    return String(number) === text ? number : new LosslessNumber(text);
  }
  if (text === 'true' || text === 'false') return text === 'true';
  return text;
}

/** CSV with a header row (csv-parse): an array of records keyed by the header's names. */
export function decodeCsv(response: HttpResponse, where: string, delimiter = ','): unknown {
  try {
    return parseCsv(response.body, {
      columns: true,
      bom: true,
      delimiter,
      skip_empty_lines: true,
      relax_column_count: false,
      cast: (value, context) => (context.header ? value : csvValue(value, context.quoting)),
    }) as unknown[];
  } catch (error) {
    throw new ConnectorFetchError(
      `Response from ${where} is not valid CSV ${parseProblem(error, response.body)}`,
    );
  }
}

/** The decoder of a declared response format (JSON when none is declared). */
export function decoderFor(
  format: ResponseFormat | undefined,
): (response: HttpResponse, where: string) => unknown {
  switch (format?.type) {
    case 'jsonl':
      return decodeJsonLines;
    case 'csv':
      return (response, where) => decodeCsv(response, where, format.delimiter ?? ',');
    default:
      return decodeJson;
  }
}
