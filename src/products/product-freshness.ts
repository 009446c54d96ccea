/** The shortest grace a refresh gets before its product is called stale. */
export const MIN_GRACE_MINUTES = 15;

/** How long after a missed refresh a product turns stale: one more interval, at least MIN_GRACE_MINUTES. */
export function graceMinutes(intervalMinutes: number): number {
  return Math.max(intervalMinutes, MIN_GRACE_MINUTES);
}

/**
 * SQL for the moment a product turns stale, from `product` (live_products) and `instance`
 * (connector_instances); NULL for a connection without a schedule, which is never overdue.
 */
export const STALE_AT_SQL = `CASE WHEN instance.refresh_interval > 0
  THEN product.last_refreshed_at
       + make_interval(mins => instance.refresh_interval + greatest(instance.refresh_interval, ${MIN_GRACE_MINUTES}))
  END`;
