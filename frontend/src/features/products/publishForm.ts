import type { PublishInput } from '../../api/liveProducts';

/** The Publish dialog's fields as typed, and what they become in POST connectors/instance/{id}/publish. */

export interface PublishForm {
  title: string;
  description: string;
  category: string;
  keywords: string;
  price: string;
  licence: string;
  image: string;
  isPublic: boolean;
  /** A description per column name. */
  dictionary: Record<string, string>;
}

export type PublishField = 'title' | 'price' | 'image';

export const TITLE_REQUIRED = 'Give the listing a title.';
export const TITLE_TOO_LONG = 'The title may have at most 200 characters.';
export const PRICE_INVALID = 'Price must be a non-negative amount with at most two decimals.';
export const IMAGE_INVALID = 'The image must be an http(s) address or a path on this site.';

// Bookkeeping of the connector's runs: the published dataset leaves them out.
const INTERNAL_COLUMNS = new Set(['_run_id', '_fetched_at']);

/** The columns a published table keeps, in the table's order. */
export function publishedColumns<Column extends { name: string }>(columns: Column[]): Column[] {
  return columns.filter((column) => !INTERNAL_COLUMNS.has(column.name));
}

/** A fresh form for a table: titled after the connection (and its stream when it fills several). */
export function emptyPublishForm(title: string): PublishForm {
  return {
    title,
    description: '',
    category: '',
    keywords: '',
    price: '0',
    licence: '',
    image: '',
    isPublic: true,
    dictionary: {},
  };
}

export type PublishCheck =
  | { input: PublishInput; errors?: undefined }
  | { input?: undefined; errors: Partial<Record<PublishField, string>> };

/** The request body, or a message per field that must change first; the server checks the rest. */
export function checkPublishForm(form: PublishForm, table: string): PublishCheck {
  const errors: Partial<Record<PublishField, string>> = {};
  const title = form.title.trim();
  if (!title) errors.title = TITLE_REQUIRED;
  else if (title.length > 200) errors.title = TITLE_TOO_LONG;
  const price = form.price.trim() || '0';
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(price)) errors.price = PRICE_INVALID;
  const image = form.image.trim();
  if (image && !/^(https?:\/\/\S+|\/\S*)$/i.test(image)) errors.image = IMAGE_INVALID;
  if (Object.keys(errors).length) return { errors };

  const dictionary = Object.fromEntries(
    Object.entries(form.dictionary)
      .map(([column, text]) => [column, text.trim()] as const)
      .filter(([, text]) => text !== ''),
  );
  return {
    input: {
      table,
      title,
      description: form.description.trim(),
      ...(form.category.trim() ? { category: form.category.trim() } : {}),
      keywords: form.keywords
        .split(',')
        .map((word) => word.trim())
        .filter(Boolean),
      price,
      licence: form.licence.trim(),
      ...(image ? { image } : {}),
      is_public: form.isPublic,
      dictionary,
    },
  };
}
