import { connectNeedsSetup } from '../detail/detailRules';
import type { CatalogItem } from './catalogItem';
import type { AssetSummary, ConnectorSummary } from './catalogTypes';

export function assetToItem(asset: AssetSummary): CatalogItem {
  return {
    kind: 'dataset',
    id: asset.id,
    title: asset.title,
    description: asset.description ?? '',
    category: asset.category ?? '',
    price: asset.price,
    image: asset.image,
    isPrivate: asset.visibility ? asset.visibility === 'private' : !asset.is_public,
    owned: !!asset.owned,
    hasAccess: !!asset.has_access || !!asset.owned,
    hasInstance: false,
  };
}

export function connectorToItem(connector: ConnectorSummary): CatalogItem {
  return {
    kind: 'connector',
    id: connector.id,
    title: connector.title,
    description: connector.description ?? '',
    category: connector.category || 'API',
    price: connector.price,
    image: connector.image,
    isPrivate: connector.visibility ? connector.visibility === 'private' : !connector.is_public,
    owned: !!connector.owned,
    hasAccess: false,
    hasInstance: !!connector.has_instance,
    authFields: connector.auth_fields,
    needsSetup: connectNeedsSetup(connector.schema?.fields),
  };
}
