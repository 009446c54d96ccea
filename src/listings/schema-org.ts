import type { Asset, AssetColumn } from '../assets/entities/asset.entity';
import type { BlogPost } from '../blog/entities/blog-post.entity';
import type { Connector } from '../connectors/entities/connector.entity';
import { findLicence } from '../common/licences';
import { PRODUCT_NAME } from '../common/product';
import type { ListingLinks } from './listing-links';

type JsonLd = Record<string, unknown>;

/** Whoever the listing names as its author, else the marketplace itself. */
function creator(author: string): JsonLd {
  return author.trim()
    ? { '@type': 'Person', name: author.trim() }
    : { '@type': 'Organization', name: PRODUCT_NAME };
}

/** A price above 0 as a schema.org Offer; free listings have none. */
function offer(price: number, currency: string, url: string): JsonLd | undefined {
  return price > 0 ? { '@type': 'Offer', price: price.toFixed(2), priceCurrency: currency, url } : undefined;
}

/** Drops the keys whose value is undefined or an empty list, so the answer names only what is known. */
function compact(value: JsonLd): JsonLd {
  return Object.fromEntries(
    Object.entries(value).filter(
      ([, entry]) => entry !== undefined && !(Array.isArray(entry) && entry.length === 0),
    ),
  );
}

const DATED: ReadonlySet<AssetColumn['type']> = new Set(['date', 'timestamp', 'timestamptz']);

/**
 * The days the rows cover, as an ISO 8601 interval (schema.org temporalCoverage): from the earliest
 * to the latest value of the date and time columns, as their profiles hold them; none before the
 * profile is computed or when no column is dated.
 */
function temporalCoverage(asset: Asset): string | undefined {
  const dated = new Set(
    asset.columns.filter((column) => DATED.has(column.type)).map((column) => column.name),
  );
  const days = asset.profile
    .filter((profile) => dated.has(profile.name))
    .flatMap((profile) => [profile.min, profile.max])
    .filter((value): value is string => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value))
    .map((value) => value.slice(0, 10))
    .sort();
  return days.length ? `${days[0]}/${days[days.length - 1]}` : undefined;
}

/**
 * A public dataset as a schema.org Dataset (what dataset search engines read). Its rows are never
 * free to fetch without a key: the distributions name the OData feed and the CSV download, both
 * read with the holder's API key once the dataset is got or bought.
 */
export function datasetJsonLd(asset: Asset, links: ListingLinks): JsonLd {
  const url = links.datasetPage(asset.id);
  const price = Number(asset.price);
  const modified = asset.dataUpdatedAt > asset.updatedAt ? asset.dataUpdatedAt : asset.updatedAt;
  return compact({
    '@context': 'https://schema.org',
    '@type': 'Dataset',
    '@id': url,
    url,
    identifier: asset.readableName,
    name: asset.title,
    description: asset.description.trim() || `${asset.title}, a dataset on ${PRODUCT_NAME}.`,
    keywords: asset.keywords,
    license: findLicence(asset.licence)?.url ?? (asset.licence.trim() || undefined),
    temporalCoverage: temporalCoverage(asset),
    creator: creator(asset.author),
    dateCreated: asset.createdAt.toISOString(),
    dateModified: modified.toISOString(),
    image: links.image(asset.image),
    isAccessibleForFree: price === 0,
    offers: offer(price, asset.currency, url),
    distribution: [
      {
        '@type': 'DataDownload',
        name: 'OData feed (API key needed)',
        contentUrl: links.odataFeed(asset.readableName),
        encodingFormat: 'application/json',
      },
      {
        '@type': 'DataDownload',
        name: 'CSV download (API key needed)',
        contentUrl: links.csvDownload(asset.readableName),
        encodingFormat: 'text/csv',
      },
      {
        '@type': 'DataDownload',
        name: 'Frictionless Data Package',
        contentUrl: links.dataPackage(asset.id),
        encodingFormat: 'application/json',
      },
    ],
    variableMeasured: asset.columns.map((column) =>
      compact({
        '@type': 'PropertyValue',
        name: column.name,
        alternateName: column.label !== column.name ? column.label : undefined,
        description: asset.dictionary[column.name]?.trim() || undefined,
      }),
    ),
    includedInDataCatalog: { '@type': 'DataCatalog', name: PRODUCT_NAME, url: links.home() },
  });
}

/** A public connector as a schema.org WebAPI: an API that fills a table of the user's own. */
export function connectorJsonLd(connector: Connector, links: ListingLinks): JsonLd {
  const url = links.connectorPage(connector.id);
  return compact({
    '@context': 'https://schema.org',
    '@type': 'WebAPI',
    '@id': url,
    url,
    name: connector.title,
    description: connector.description.trim() || `${connector.title}, an API connector on ${PRODUCT_NAME}.`,
    category: connector.category || undefined,
    provider: creator(connector.author),
    dateModified: connector.updatedAt.toISOString(),
    image: links.image(connector.image),
    documentation: links.page('/documentation'),
    isAccessibleForFree: Number(connector.price) === 0,
    offers: offer(Number(connector.price), 'USD', url),
  });
}

/** A blog post as a schema.org BlogPosting: its headline, teaser, dates and cover image. */
export function blogPostJsonLd(
  post: Pick<BlogPost, 'slug' | 'title' | 'coverImage' | 'createdAt' | 'updatedAt'>,
  description: string,
  links: ListingLinks,
): JsonLd {
  const url = links.blogPost(post.slug);
  return compact({
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    '@id': url,
    url,
    headline: post.title,
    description: description || undefined,
    datePublished: post.createdAt.toISOString(),
    dateModified: post.updatedAt.toISOString(),
    image: links.image(post.coverImage),
    publisher: { '@type': 'Organization', name: PRODUCT_NAME },
  });
}
