import type { RunOperationOutcome } from '../entities/connector-run.entity';

/**
 * The run as a whole: failed when any operation failed (or nothing could start); the rows the
 * operations that succeeded stored (each commits on its own, so they stay when another fails),
 * the pages of all, and each message named by its operation when there were several.
 */
export function summarise(
  outcomes: RunOperationOutcome[],
  setupError: string | null,
): {
  status: 'succeeded' | 'failed';
  rowCount: number;
  pages: number;
  error: string | null;
  warning: string | null;
} {
  const named = (outcome: RunOperationOutcome, text: string) =>
    outcomes.length > 1 ? `${outcome.operation_id}: ${text}` : text;
  const errors = outcomes.flatMap((outcome) => (outcome.error ? [named(outcome, outcome.error)] : []));
  if (setupError) errors.unshift(setupError);
  const stored = outcomes.filter((outcome) => !outcome.error);
  const warnings = stored.flatMap((outcome) => (outcome.warning ? [named(outcome, outcome.warning)] : []));
  const failed = errors.length > 0;
  return {
    status: failed ? 'failed' : 'succeeded',
    rowCount: setupError ? 0 : stored.reduce((sum, outcome) => sum + outcome.row_count, 0),
    pages: outcomes.reduce((sum, outcome) => sum + outcome.pages_fetched, 0),
    error: failed ? errors.join(' ') : null,
    warning: warnings.length > 0 ? warnings.join(' ') : null,
  };
}
