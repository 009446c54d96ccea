import { RateBudget } from './rate-budget';

describe('rate budget', () => {
  it('lets the first requests of a window through at once and queues the rest, per key', async () => {
    const budget = new RateBudget();
    const limit = { requests: 2, per_seconds: 0.2 };
    const started = Date.now();
    const done: number[] = [];
    await Promise.all(
      [0, 1, 2, 3].map((index) => budget.take('a', limit).then(() => (done[index] = Date.now() - started))),
    );
    expect(done[0]).toBeLessThan(150);
    expect(done[1]).toBeLessThan(150);
    expect(done[2]).toBeGreaterThanOrEqual(190);
    expect(done[3]).toBeGreaterThanOrEqual(190);
    const other = Date.now();
    await budget.take('b', limit);
    expect(Date.now() - other).toBeLessThan(150);
  });
});
