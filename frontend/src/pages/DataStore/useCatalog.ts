import { useMemo } from 'react';
import { CatalogFilters, categoryOptions, matchesFilters } from '../../features/datastore/catalogFilters';
import { CatalogItem } from '../../features/datastore/catalogItem';
import { useAssetCategories, useAssetPage, useCategoryFacets } from '../../api/assets';
import { useConnectors } from '../../api/connectors';
import { pageCount, pageWindow } from '../../features/datastore/pageWindow';
import { assetToItem, connectorToItem } from '../../features/datastore/toCatalogItems';

export const PAGE_SIZE = 24;

/**
 * One page of the catalogue: connectors (few, loaded in full and filtered here) first, then datasets
 * searched and paged by the server, so thousands of datasets never reach the browser at once.
 */
export function useCatalog(filters: CatalogFilters, page: number) {
  const connectors = useConnectors();
  const assetCategories = useAssetCategories();

  const matchingConnectors = useMemo(
    () => (connectors.data ?? []).map(connectorToItem).filter((item) => matchesFilters(item, filters)),
    [connectors.data, filters],
  );

  const window = pageWindow(page - 1, PAGE_SIZE, matchingConnectors.length);
  // Always a full page, so the first page's request is the same before and after the connectors
  // arrive and goes out once, beside theirs; a later page's offset depends on how many connectors
  // match, so it waits for them rather than asking twice.
  const assets = useAssetPage(
    {
      search: filters.search,
      categories: filters.categories,
      sort: filters.sort,
      live: filters.liveOnly,
      limit: PAGE_SIZE,
      offset: window.assetOffset,
    },
    page === 1 || connectors.isSuccess,
  );

  const datasetsShown = filters.kinds.dataset;
  const assetTotal = datasetsShown ? (assets.data?.total ?? 0) : 0;
  const assetItems: CatalogItem[] =
    datasetsShown && window.assetLimit > 0
      ? (assets.data?.items ?? []).slice(0, window.assetLimit).map(assetToItem)
      : [];
  const items = [...matchingConnectors.slice(window.connectorStart, window.connectorEnd), ...assetItems];

  // From every connector and every visible dataset, not the current page: a chosen category must
  // not hide the others from the menu.
  const categories = categoryOptions(
    [
      ...(connectors.data ?? []).map((connector) => connector.category || 'API'),
      ...(assetCategories.data ?? []),
    ],
    filters.categories,
  );

  // How many items of each category match the search and Live only: datasets counted by the
  // server, connectors here.
  const facets = useCategoryFacets(filters.search, !!filters.liveOnly);
  const counts = new Map<string, number>();
  for (const facet of facets.data ?? []) counts.set(facet.category, facet.count);
  for (const connector of connectors.data ?? []) {
    const item = connectorToItem(connector);
    if (!matchesFilters(item, { ...filters, categories: [] })) continue;
    counts.set(item.category, (counts.get(item.category) ?? 0) + 1);
  }

  return {
    items,
    categories,
    counts,
    total: matchingConnectors.length + assetTotal,
    pages: pageCount(matchingConnectors.length + assetTotal, PAGE_SIZE),
    loading: connectors.isPending || (datasetsShown && assets.isPending),
    fetching: assets.isFetching || connectors.isFetching,
    // Either half missing would make a partial list look complete.
    failed: connectors.isError || (datasetsShown && assets.isError),
  };
}
