import type { NotifySeverity } from './notify-context';

export interface QueuedNotice {
  key: number;
  text: string;
  severity: NotifySeverity;
}

/** Notices a success makes untrue: what failed before has now worked. */
const SUPERSEDED_BY_SUCCESS: ReadonlySet<NotifySeverity> = new Set(['error', 'warning']);

/**
 * The queue once `notice` arrives (the first entry is on screen). A success drops the errors and
 * warnings waiting before it: they no longer hold.
 */
export function enqueueNotice(queue: readonly QueuedNotice[], notice: QueuedNotice): QueuedNotice[] {
  if (notice.severity !== 'success' || queue.length === 0) return [...queue, notice];
  const [shown, ...waiting] = queue;
  return [shown, ...waiting.filter((queued) => !SUPERSEDED_BY_SUCCESS.has(queued.severity)), notice];
}

/**
 * The error or warning on screen has been overtaken by a success: it closes now rather than after
 * its minimum time, so "Upload failed" never lingers over the page the good upload led to.
 */
export function shownIsSuperseded(queue: readonly QueuedNotice[]): boolean {
  const [shown, ...waiting] = queue;
  return (
    !!shown &&
    SUPERSEDED_BY_SUCCESS.has(shown.severity) &&
    waiting.some((queued) => queued.severity === 'success')
  );
}
