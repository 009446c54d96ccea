import type { AssetSummary } from '../../api/assets';
import type { Connector } from '../../api/connectors';
import { connectNeedsSetup, FieldLike } from '../detail/detailRules';
import type { CatalogItem } from './catalogItem';

/** The fields of a dataset a card reads. */
type CardDataset = Pick<AssetSummary, 'id' | 'title' | 'description' | 'category' | 'price' | 'is_public'> &
  Partial<
    Pick<
      AssetSummary,
      'visibility' | 'image' | 'owned' | 'has_access' | 'bought' | 'billing_interval' | 'trial_days'
    >
  > & {
    /** A flag in the catalogue, the live block on the detail page. */
    live?: unknown;
    data_updated_at?: string | null;
    stale_since?: string | null;
  };

/** The fields of a connector a card reads. */
type CardConnector = Pick<Connector, 'id' | 'title' | 'description' | 'price' | 'is_public'> &
  Partial<Pick<Connector, 'category' | 'image' | 'owned' | 'has_instance' | 'auth_fields'>> & {
    schema?: { fields?: FieldLike[] };
  };

export function assetToItem(asset: CardDataset): CatalogItem {
  return {
    kind: 'dataset',
    id: asset.id,
    title: asset.title,
    description: asset.description ?? '',
    category: asset.category ?? '',
    price: asset.price,
    ...(asset.billing_interval
      ? { billingInterval: asset.billing_interval, trialDays: asset.trial_days ?? 0 }
      : {}),
    image: asset.image,
    isPrivate: asset.visibility ? asset.visibility === 'private' : !asset.is_public,
    owned: !!asset.owned,
    hasAccess: !!asset.has_access || !!asset.owned,
    bought: !!asset.bought,
    hasInstance: false,
    ...(asset.live
      ? { live: { updatedAt: asset.data_updated_at ?? null, staleSince: asset.stale_since ?? null } }
      : {}),
  };
}

export function connectorToItem(connector: CardConnector): CatalogItem {
  return {
    kind: 'connector',
    id: connector.id,
    title: connector.title,
    description: connector.description ?? '',
    category: connector.category || 'API',
    price: connector.price,
    image: connector.image,
    isPrivate: !connector.is_public,
    owned: !!connector.owned,
    hasAccess: false,
    hasInstance: !!connector.has_instance,
    authFields: connector.auth_fields,
    needsSetup: connectNeedsSetup(connector.schema?.fields),
  };
}
