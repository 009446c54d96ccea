/**
 * Stream links for BI tools: the general link (at most 5,000 rows of every dataset the
 * user holds) and one per dataset or connection table, as JSON (default) or CSV;
 * a single table's link also as a Parquet or Excel file.
 */

export type StreamFormat = 'json' | 'csv' | 'parquet' | 'xlsx';

export interface StreamLinkOptions {
  apiKey: string;
  format?: StreamFormat;
  /** Defaults to this page's origin, the host the API is served from. */
  origin?: string;
}

function buildStreamUrl(path: string, { apiKey, format = 'json', origin }: StreamLinkOptions): string {
  const url = new URL(`/api/stream/data${path}`, origin ?? window.location.origin);
  url.searchParams.set('api_key', apiKey);
  if (format !== 'json') url.searchParams.set('format', format);
  return url.toString();
}

/** GET stream/data?api_key=: rows of every dataset the key's owner holds, tagged by dataset. */
export function generalStreamUrl(apiKey: string, format: StreamFormat = 'json', origin?: string): string {
  return buildStreamUrl('', { apiKey, format, origin });
}

/**
 * GET stream/data/{reference}?api_key=: every row of one table (a dataset or a connector table), by
 * its readable name (its id works too).
 */
export function datasetStreamUrl(
  reference: string,
  apiKey: string,
  format: StreamFormat = 'json',
  origin?: string,
): string {
  return buildStreamUrl(`/${encodeURIComponent(reference)}`, { apiKey, format, origin });
}

/** GET downloads/{assetId}?format=: the browser download of a held dataset, through the session. */
export function datasetDownloadUrl(assetId: string, format: StreamFormat): string {
  return `/api/downloads/${encodeURIComponent(assetId)}?format=${format}`;
}
