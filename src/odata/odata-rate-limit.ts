import type { ApiKeyRateLimit } from '../stream/api-key.guard';

/**
 * The OData feed's own per-key budget: a BI refresh follows one next-page link per 50,000 rows
 * (20 calls for a million-row table), so it needs more calls than a stream link, which
 * answers a whole table in one.
 */
export const ODATA_RATE_LIMIT: ApiKeyRateLimit = { bucket: 'odata', rule: { limit: 600, windowSeconds: 60 } };
