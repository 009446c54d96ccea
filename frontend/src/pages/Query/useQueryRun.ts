import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, refusalOr } from '../../api/client';
import { useRunQuery } from '../../api/query';
import { errorText, SCREEN_ROW_LIMIT } from '../../features/query/queryRules';

/** The error beside the editor: the server's message with the place it points to, if any. */
function failure(error: unknown, sql: string): string {
  if (error instanceof ApiError && error.status === 400) {
    const { position } = (error.body ?? {}) as { position?: number };
    return errorText(sql, error.message, position);
  }
  if (error instanceof TypeError)
    return 'The server could not be reached: check your connection and run again';
  return refusalOr(error, 'The query failed');
}

/** The public listing a failed query named without holding it, when the server says so. */
function unheldListing(error: unknown): { id: string; title: string } | undefined {
  if (!(error instanceof ApiError) || error.status !== 400) return undefined;
  return (error.body as { listing?: { id: string; title: string } } | undefined)?.listing;
}

/**
 * Runs the editor's SQL for the screen (at most SCREEN_ROW_LIMIT rows), one at a time: a new run
 * or Cancel aborts the request in flight, and the server then stops it in the database.
 */
export function useQueryRun() {
  const mutation = useRunQuery();
  const controller = useRef<AbortController | null>(null);
  const [ranSql, setRanSql] = useState('');
  const [cancelled, setCancelled] = useState(false);
  // Leaving the screen stops what is still running.
  useEffect(() => () => controller.current?.abort(), []);

  const { mutate } = mutation;
  const run = useCallback(
    (sql: string) => {
      if (!sql.trim()) return;
      controller.current?.abort();
      const next = new AbortController();
      controller.current = next;
      setRanSql(sql);
      setCancelled(false);
      mutate(
        { sql, limit: SCREEN_ROW_LIMIT, signal: next.signal },
        {
          onSettled: () => {
            if (controller.current === next) controller.current = null;
          },
        },
      );
    },
    [mutate],
  );

  const cancel = () => {
    controller.current?.abort();
    controller.current = null;
    mutation.reset();
    setCancelled(true);
  };

  const aborted = mutation.error instanceof DOMException && mutation.error.name === 'AbortError';
  return {
    run,
    cancel,
    running: mutation.isPending,
    cancelled,
    result: mutation.data,
    /** The SQL of the result on screen: what the downloads fetch in full. */
    ranSql,
    error: mutation.error && !aborted ? failure(mutation.error, ranSql) : undefined,
    /** Where to get a public dataset the query named but the caller does not hold. */
    errorListing: aborted ? undefined : unheldListing(mutation.error),
  };
}
