/**
 * Keeps up to `depth` items of an async source in flight while the consumer works on the
 * current one, so fetching the next page overlaps writing this one.
 */
export async function* prefetch<T>(source: AsyncIterable<T>, depth: number): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  const queue: Array<Promise<IteratorResult<T>>> = [];
  let exhausted = false;
  try {
    for (;;) {
      while (!exhausted && queue.length < depth) {
        const next = iterator.next();
        // Rejections are observed when their turn comes; this only keeps Node from calling them unhandled.
        next.catch(() => undefined);
        queue.push(next);
      }
      const result = await queue.shift()!;
      if (result.done) {
        exhausted = true;
        return;
      }
      yield result.value;
    }
  } finally {
    if (!exhausted) await iterator.return?.(undefined).catch(() => undefined);
  }
}
