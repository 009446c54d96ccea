import { ArgumentMetadata, BadRequestException, Injectable, PipeTransform } from '@nestjs/common';

/** Deeper than any real settings or connector document; far below what would exhaust the stack. */
export const MAX_INPUT_DEPTH = 64;

/** Half of a UTF-16 surrogate pair: JSON can carry it (\ud800), PostgreSQL text and jsonb cannot. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The first reason a decoded body or query cannot be stored or validated safely, or undefined.
 * PostgreSQL text cannot hold the NUL character, and the validators recurse into nested values,
 * so both are refused up front. Walks iteratively: the check itself cannot overflow the stack.
 */
export function inputShapeProblem(input: unknown, maxDepth = MAX_INPUT_DEPTH): string | undefined {
  const pending: Array<{ value: unknown; path: string; depth: number }> = [
    { value: input, path: '', depth: 0 },
  ];
  while (pending.length > 0) {
    const { value, path, depth } = pending.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\0'))
        return `${path || 'The request'} must not contain the NUL character (\\u0000)`;
      if (LONE_SURROGATE.test(value))
        return `${path || 'The request'} must be valid Unicode text (it holds half of a character pair)`;
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= maxDepth) return `The request is nested too deeply (at most ${maxDepth} levels)`;
    for (const [key, child] of Object.entries(value)) {
      if (key.includes('\0')) return 'Field names must not contain the NUL character (\\u0000)';
      if (LONE_SURROGATE.test(key)) return 'Field names must be valid Unicode text';
      pending.push({ value: child, path: path ? `${path}.${key}` : key, depth: depth + 1 });
    }
  }
  return undefined;
}

/** Runs before validation on every body and query: 400 for NUL characters, broken Unicode or runaway nesting. */
@Injectable()
export class InputShapePipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'body' && metadata.type !== 'query') return value;
    const problem = inputShapeProblem(value);
    if (problem) throw new BadRequestException(problem);
    return value;
  }
}
