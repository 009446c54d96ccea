import { GET_AGAIN } from '../datastore/catalogItem';
import { priceAmount } from '../datastore/price';

export type DetailKind = 'dataset' | 'connector';
export type DetailAction = 'Remove' | 'Connect' | 'Buy' | 'Get' | typeof GET_AGAIN;

/**
 * Hero button of the Detail screen: Remove with access, Connect for a connector, Buy above 0,
 * otherwise Get; none on the user's own dataset (managed from Manage → Uploaded Data). A paid
 * dataset the user bought once and removed is theirs again for nothing: Get again — free.
 */
export function detailAction(item: {
  kind: DetailKind;
  hasAccess: boolean;
  price: number | string;
  owned?: boolean;
  bought?: boolean;
}): DetailAction | null {
  if (item.kind === 'dataset' && item.owned) return null;
  if (item.hasAccess) return 'Remove';
  if (item.kind === 'connector') return 'Connect';
  if (priceAmount(item.price) <= 0) return 'Get';
  return item.bought ? GET_AGAIN : 'Buy';
}

/** Connectors without a category read API. */
export function detailCategory(kind: DetailKind, category: string | null | undefined): string {
  const trimmed = category?.trim();
  if (trimmed) return trimmed;
  return kind === 'connector' ? 'API' : '';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs; anything else in a connector route is 'Invalid connector ID.' rather than a server call. */
export function isValidId(id: string | undefined): id is string {
  return !!id && UUID.test(id);
}

export const ITEM_NOT_FOUND = 'Item not found';
export const FAILED_TO_LOAD = 'Failed to load data.';
export const INVALID_CONNECTOR_ID = 'Invalid connector ID.';

/** Screen message for a failed load: a missing (or forbidden, which looks missing) item, or anything else. */
export function loadErrorMessage(error: unknown): string {
  const status = (error as { status?: unknown } | null)?.status;
  return status === 404 || status === 400 ? ITEM_NOT_FOUND : FAILED_TO_LOAD;
}

export interface FieldLike {
  required?: boolean;
  include?: boolean;
  default?: unknown;
  fields?: FieldLike[];
}

/**
 * Connecting needs the setup form when the connector has required settings without a default:
 * activation without them would be refused (defaults are filled in by the server). Otherwise it
 * connects straight away (credentials asked in a dialog).
 */
export function connectNeedsSetup(fields: FieldLike[] | undefined): boolean {
  return (fields ?? []).some(
    (field) =>
      field.include !== false &&
      ((field.required && field.default === undefined) || connectNeedsSetup(field.fields)),
  );
}

/** A profile share as a whole percent; a share that is there never reads 0%. */
export function sharePercent(share: number): string {
  const percent = Math.round(share * 100);
  return percent === 0 && share > 0 ? '<1%' : `${percent}%`;
}
