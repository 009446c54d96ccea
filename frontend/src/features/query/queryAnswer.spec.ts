import { parseQueryAnswer } from './queryAnswer';

describe('reading a query answer', () => {
  it('keeps numbers JavaScript cannot hold exactly as their text, and the rest as numbers', () => {
    const answer = parseQueryAnswer<{ rows: unknown[][]; row_count: number }>(
      '{"rows":[[9223372036854775807, 12, 0.5, "x", null, 1.000000000000000001]],"row_count":1}',
    );
    expect(answer.rows).toEqual([['9223372036854775807', 12, 0.5, 'x', null, '1.000000000000000001']]);
    expect(answer.row_count).toBe(1);
  });
});
