/**
 * Whether this process has been asked to stop (SIGINT, SIGTERM). Ctrl-C in a terminal reaches the
 * embedded PostgreSQL too, which then ends every connection before the app has closed them: from
 * then on a lost connection is the stop itself, not a fault worth a warning.
 */
let stopping = false;

export function markStopping(): void {
  stopping = true;
}

export function isStopping(): boolean {
  return stopping;
}
