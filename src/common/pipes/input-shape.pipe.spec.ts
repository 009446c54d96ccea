import { BadRequestException } from '@nestjs/common';
import { inputShapeProblem, InputShapePipe, MAX_INPUT_DEPTH } from './input-shape.pipe';

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level++) value = { inner: value };
  return value;
}

describe('inputShapeProblem', () => {
  it('accepts ordinary nested input', () => {
    expect(
      inputShapeProblem({ title: 'A', settings: { range: { from: '2024' } }, list: [1, 'b'] }),
    ).toBeUndefined();
    expect(inputShapeProblem(nested(MAX_INPUT_DEPTH))).toBeUndefined();
  });

  it('names the field holding a NUL character', () => {
    expect(inputShapeProblem({ settings: { list: ['ok', 'a\u0000b'] } })).toBe(
      'settings.list.1 must not contain the NUL character (\\u0000)',
    );
    expect(inputShapeProblem('a\u0000')).toBe('The request must not contain the NUL character (\\u0000)');
    expect(inputShapeProblem({ ['key\u0000']: 1 })).toBe(
      'Field names must not contain the NUL character (\\u0000)',
    );
  });

  it('names the field holding half of a surrogate pair, which PostgreSQL cannot store', () => {
    expect(inputShapeProblem({ settings: { city: 'x\ud800' } })).toBe(
      'settings.city must be valid Unicode text (it holds half of a character pair)',
    );
    expect(inputShapeProblem({ city: '\udc00y' })).toMatch(/^city must be valid Unicode/);
    expect(inputShapeProblem({ ['k\ud800']: 1 })).toBe('Field names must be valid Unicode text');
    expect(inputShapeProblem({ city: 'emoji \ud83d\ude00 ok' })).toBeUndefined();
  });

  it('refuses nesting beyond the limit without overflowing the stack itself', () => {
    expect(inputShapeProblem(nested(MAX_INPUT_DEPTH + 1))).toBe(
      `The request is nested too deeply (at most ${MAX_INPUT_DEPTH} levels)`,
    );
    expect(inputShapeProblem(nested(200_000))).toBe(
      `The request is nested too deeply (at most ${MAX_INPUT_DEPTH} levels)`,
    );
  });
});

describe('InputShapePipe', () => {
  const pipe = new InputShapePipe();

  it('checks bodies and queries and leaves other arguments alone', () => {
    expect(() => pipe.transform({ a: '\u0000' }, { type: 'body' })).toThrow(BadRequestException);
    expect(() => pipe.transform({ a: '\u0000' }, { type: 'query' })).toThrow(BadRequestException);
    expect(pipe.transform('\u0000', { type: 'param' })).toBe('\u0000');
    expect(pipe.transform({ a: '\u0000' }, { type: 'custom' })).toEqual({ a: '\u0000' });
  });
});
