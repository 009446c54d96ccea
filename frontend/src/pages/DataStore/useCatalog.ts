import { useMemo } from 'react';
import { CatalogFilters, categoryOptions, matchesFilters } from '../../features/datastore/catalogFilters';
import { CatalogItem } from '../../features/datastore/catalogItem';
import { useAssetCategories, useAssetPage } from '../../api/assets';
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
  const assets = useAssetPage({
    search: filters.search,
    categories: filters.categories,
    limit: window.assetLimit,
    offset: window.assetOffset,
  });

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

  return {
    items,
    categories,
    total: matchingConnectors.length + assetTotal,
    pages: pageCount(matchingConnectors.length + assetTotal, PAGE_SIZE),
    loading: connectors.isPending || (datasetsShown && assets.isPending),
    fetching: assets.isFetching || connectors.isFetching,
    // Either half missing would make a partial list look complete.
    failed: connectors.isError || (datasetsShown && assets.isError),
  };
}
