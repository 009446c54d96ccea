import type { NoticeText } from './notice-texts';

/** A live product as its notices name it. */
export interface ProductFacts {
  id: string;
  title: string;
}

const listing = (appOrigin: string, product: ProductFacts) => `${appOrigin}/dataset_profile/${product.id}`;
const moment = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * The stale notice. Subscribers read only that the data is late; the owner (`error` given) also
 * reads why the last refresh failed, which may name the upstream's URLs and is theirs alone.
 */
export function staleNotice(
  appOrigin: string,
  product: ProductFacts,
  since: Date,
  owner?: { error: string | null },
): NoticeText {
  const cause = owner
    ? [owner.error ? `The last refresh failed: ${owner.error}` : 'No refresh ran in time.']
    : [];
  return {
    subject: `${product.title} is stale`,
    text: [
      `"${product.title}" has not been refreshed on schedule: it is stale since ${moment(since)}.`,
      'The last good data stays readable. You will be told once it is fresh again.',
      ...cause,
      listing(appOrigin, product),
    ].join('\n'),
  };
}

export function recoveredNotice(appOrigin: string, product: ProductFacts): NoticeText {
  return {
    subject: `${product.title} is up to date again`,
    text: [`"${product.title}" was refreshed: its data is current again.`, listing(appOrigin, product)].join(
      '\n',
    ),
  };
}

/** The owner's notice of a held run. */
export function schemaHeldNotice(appOrigin: string, product: ProductFacts, change: string): NoticeText {
  return {
    subject: `${product.title}: a refresh is held for a schema change`,
    text: [
      `A refresh of "${product.title}" would change its published columns (${change}).`,
      'The published data stays as it was until you accept the change or fix the connection.',
      listing(appOrigin, product),
    ].join('\n'),
  };
}

/** Subscribers' notice of an accepted schema change, written before the new data goes in. */
export function schemaAcceptedNotice(appOrigin: string, product: ProductFacts, change: string): NoticeText {
  return {
    subject: `${product.title}: its columns change`,
    text: [
      `The owner of "${product.title}" accepted a change of its columns (${change}).`,
      'The data you read now has the new columns.',
      listing(appOrigin, product),
    ].join('\n'),
  };
}

/** Subscribers' notice that a live product was unpublished or deleted. */
export function productEndedNotice(
  appOrigin: string,
  product: ProductFacts,
  buyersKeep: boolean,
): NoticeText {
  return {
    subject: `${product.title} is no longer published`,
    text: [
      `The owner of "${product.title}" has stopped publishing it: it will not be refreshed any more.`,
      // Its listing is gone when access ended: the catalogue is where a subscriber finds what else there is.
      ...(buyersKeep
        ? ['If you paid for it, you keep reading the last published data.', listing(appOrigin, product)]
        : ['Your access to it has ended. Other datasets are in the catalogue:', `${appOrigin}/datastore`]),
    ].join('\n'),
  };
}

/** Subscribers' notice that a refresh added columns upstream: existing columns and rows stay as they were. */
export function columnsAddedNotice(appOrigin: string, product: ProductFacts, added: string[]): NoticeText {
  return {
    subject: `${product.title}: new columns`,
    text: [
      `The latest refresh of "${product.title}" added ${added.length === 1 ? 'a column' : 'columns'}: ${added.join(', ')}.`,
      'The columns you already read are unchanged; earlier rows have no value in the new ones.',
      listing(appOrigin, product),
    ].join('\n'),
  };
}
