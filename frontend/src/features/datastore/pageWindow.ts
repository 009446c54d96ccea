/**
 * The catalogue shows connectors (loaded in full, filtered here) before datasets (searched and paged
 * by the server) as one paged list. For a page this says which connectors to show and which slice of
 * datasets to ask the server for.
 */
export interface PageWindow {
  connectorStart: number;
  connectorEnd: number;
  assetOffset: number;
  assetLimit: number;
}

export function pageWindow(page: number, pageSize: number, connectorCount: number): PageWindow {
  const start = Math.max(0, page) * pageSize;
  const end = start + pageSize;
  const connectorStart = Math.min(start, connectorCount);
  const connectorEnd = Math.min(end, connectorCount);
  const assetOffset = Math.max(0, start - connectorCount);
  const assetLimit = end - Math.max(start, connectorCount);
  return { connectorStart, connectorEnd, assetOffset, assetLimit: Math.max(0, assetLimit) };
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
