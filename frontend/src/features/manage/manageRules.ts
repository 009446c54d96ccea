/** Texts and list rules of the Manage screen. */

/** The refresh alert; a run's warning (a cap, ignored answers) follows, as the rows may be incomplete. */
export function refreshedMessage(rowCount: number | null | undefined, warning?: string | null): string {
  const done = `Connector refreshed with ${rowCount ?? 0} rows.`;
  return warning ? `${done} ${warning}` : done;
}

export const COMING_SOON = 'coming soon';

/** Whether a failed load means "sign in first" (the screen is not guarded but needs a session). */
export function needsSignIn(error: unknown): boolean {
  return (error as { status?: unknown } | null)?.status === 401;
}

/** Connectors the user uploaded: flagged `owned` by the server, or carrying their id as owner. */
export function ownConnectors<
  T extends { owned?: boolean; owner_user_id?: string | null; owner_id?: string | null },
>(connectors: T[], userId: string | undefined): T[] {
  if (!userId) return [];
  return connectors.filter(
    (connector) => connector.owned || connector.owner_user_id === userId || connector.owner_id === userId,
  );
}
