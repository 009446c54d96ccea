import { BadRequestException } from '@nestjs/common';
import { defaultParser } from '@odata/parser';
import type { Token } from '@odata/parser';

/** An entity set request's query options, read by the OData parser and checked for shape. */
export interface QueryOptions {
  /** Property names; undefined means every property. */
  select?: string[];
  filter?: Token;
  orderBy: Array<{ property: string; descending: boolean }>;
  top?: number;
  skip: number;
  count: boolean;
  skipToken?: string;
  /** IEEE754Compatible=true: Int64 and Decimal values (and the count) go out as JSON strings. */
  ieee754Compatible: boolean;
}

/** Options the parser knows that this read-only, flat service does not offer. */
const UNSUPPORTED = new Set([
  '$expand',
  '$search',
  '$apply',
  '$compute',
  '$levels',
  '$index',
  '$schemaversion',
  '$deltatoken',
  '$id',
]);
const SUPPORTED = new Set([
  '$select',
  '$filter',
  '$orderby',
  '$top',
  '$skip',
  '$count',
  '$skiptoken',
  '$format',
]);
const WHOLE_NUMBER = /^[0-9]{1,15}$/;
const JSON_FORMAT = /^(json|application\/json)(;.*)?$/i;
const IEEE754_COMPATIBLE = /;\s*IEEE754Compatible\s*=\s*true\s*(?:[;,]|$)/i;
const SIMPLE_PROPERTY = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function badOption(message: string): BadRequestException {
  return new BadRequestException(message);
}

/** The one value of a query option; a repeated option is ambiguous. */
function single(name: string, value: unknown): string {
  if (typeof value !== 'string') throw badOption(`The query option ${name} must be given once, as text`);
  return value;
}

/** Runs the parser on one option's text, turning its failures into a 400 naming the option. */
function parsed<T>(name: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw badOption(`The ${name} option could not be read (${reason})`);
  }
}

/** The single option token the parser made of `$name=value`. */
function optionToken(name: string, value: string): Token {
  const queryToken = parsed(name, () => defaultParser.query(`${name}=${value}`));
  const option = (queryToken?.value as { options?: Token[] } | undefined)?.options?.[0];
  if (!option) throw badOption(`The ${name} option could not be read`);
  return option;
}

/** A property named by a member expression: one simple identifier, no path. */
export function memberName(token: Token): string | undefined {
  let current: Token | undefined = token;
  while (current && current.type === 'CommonExpression') current = current.value as Token;
  if (current?.type !== 'FirstMemberExpression') return undefined;
  return SIMPLE_PROPERTY.test(current.raw) ? current.raw : undefined;
}

function selectOption(value: string): string[] | undefined {
  const items = (optionToken('$select', value).value as { items: Token[] }).items;
  const names: string[] = [];
  for (const item of items) {
    if (item.raw === '*') return undefined;
    if (!SIMPLE_PROPERTY.test(item.raw))
      throw badOption(`$select supports property names only, not ${JSON.stringify(item.raw)}`);
    names.push(item.raw);
  }
  return names;
}

function orderByOption(value: string): QueryOptions['orderBy'] {
  const items = (optionToken('$orderby', value).value as { items: Token[] }).items;
  return items.map((item) => {
    const { expr, direction } = item.value as { expr: Token; direction: number };
    const property = memberName(expr);
    if (!property) throw badOption(`$orderby supports property names only, not ${JSON.stringify(expr.raw)}`);
    return { property, descending: direction === -1 };
  });
}

function wholeNumber(name: string, value: string): number {
  if (!WHOLE_NUMBER.test(value)) throw badOption(`${name} must be a whole number of at most 15 digits`);
  return Number(value);
}

function filterOption(value: string): Token {
  return parsed('$filter', () => defaultParser.filter(value));
}

/**
 * Reads the system query options of a request. Custom options (no `$`, e.g. api_key) are left
 * to others; options this service does not offer, and any unknown `$` option, answer 400.
 * Format parameters (IEEE754Compatible) come from `$format` when given, else from the Accept header.
 */
export function readQueryOptions(query: Record<string, unknown>, accept = ''): QueryOptions {
  const options: QueryOptions = {
    orderBy: [],
    skip: 0,
    count: false,
    ieee754Compatible: IEEE754_COMPATIBLE.test(accept),
  };
  for (const [rawName, rawValue] of Object.entries(query)) {
    if (!rawName.startsWith('$')) continue;
    const name = rawName.toLowerCase();
    if (UNSUPPORTED.has(name)) throw badOption(`The query option ${name} is not supported by this service`);
    if (!SUPPORTED.has(name)) throw badOption(`Unknown query option ${rawName}`);
    const value = single(name, rawValue);
    switch (name) {
      case '$select':
        options.select = selectOption(value);
        break;
      case '$filter':
        options.filter = filterOption(value);
        break;
      case '$orderby':
        options.orderBy = orderByOption(value);
        break;
      case '$top':
        options.top = wholeNumber(name, value);
        break;
      case '$skip':
        options.skip = wholeNumber(name, value);
        break;
      case '$count':
        if (value !== 'true' && value !== 'false') throw badOption('$count must be true or false');
        options.count = value === 'true';
        break;
      case '$skiptoken':
        options.skipToken = value;
        break;
      case '$format':
        if (!JSON_FORMAT.test(value)) throw badOption('$format supports json only');
        options.ieee754Compatible = IEEE754_COMPATIBLE.test(value);
        break;
    }
  }
  return options;
}

/** Decodes each run of %XX escapes that forms UTF-8; a stray `%` (contains(Name,'50%')) stays as it is. */
function percentDecoded(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (escapes) => {
    try {
      return decodeURIComponent(escapes);
    } catch {
      return escapes;
    }
  });
}

/** A raw `+` that is a time zone offset's sign (2024-01-01T00:00:00+02:00): a space there would mean nothing. */
const OFFSET_PLUS = /(?<=T\d\d(?::|%3A)\d\d(?:(?::|%3A)\d\d(?:\.\d+)?)?)\+(?=\d\d(?::|%3A)\d\d)/gi;

/** A raw `+` as form encoding means it (Python requests, curl --data-urlencode, URLSearchParams): a space. */
function plusAsSpace(text: string): string {
  return text.replace(OFFSET_PLUS, '%2B').replace(/\+/g, ' ');
}

/**
 * The query parameters of a request URL, decoded as HTML forms encode them: a raw `+` is a
 * space (`$orderby=day+desc`), a plus sign arrives as %2B. The one exception is the sign of a
 * time zone offset left raw by clients that do not encode it (2024-01-01T00:00:00+02:00), which
 * stays a plus. A repeated name collects its values in a list.
 */
export function queryParameters(url: string): Record<string, string | string[]> {
  const parameters: Record<string, string | string[]> = {};
  const start = url.indexOf('?');
  if (start === -1) return parameters;
  for (const pair of url.slice(start + 1).split('&')) {
    if (!pair) continue;
    const separator = pair.indexOf('=');
    const [rawName, rawValue] =
      separator === -1 ? [pair, ''] : [pair.slice(0, separator), pair.slice(separator + 1)];
    const name = percentDecoded(plusAsSpace(rawName));
    const value = percentDecoded(plusAsSpace(rawValue));
    const earlier = parameters[name];
    parameters[name] =
      earlier === undefined ? value : [...(Array.isArray(earlier) ? earlier : [earlier]), value];
  }
  return parameters;
}
