import type { Asset, AssetColumn } from '../assets/entities/asset.entity';
import { findLicence } from '../common/licences';
import type { ListingLinks } from './listing-links';

export const DATA_PACKAGE_PROFILE = 'https://datapackage.org/profiles/2.0/datapackage.json';
const TABLE_SCHEMA_PROFILE = 'https://datapackage.org/profiles/2.0/tableschema.json';

/** Table Schema field types of our column types. */
const FIELD_TYPES: Record<AssetColumn['type'], string> = {
  integer: 'integer',
  numeric: 'number',
  boolean: 'boolean',
  date: 'date',
  timestamp: 'datetime',
  timestamptz: 'datetime',
  text: 'string',
  jsonb: 'object',
};

/**
 * A licence as Data Package v2 wants it: a listed one by SPDX id and address; the owner's own words
 * only when they are an address (a `name` must be an identifier, so other text is left out).
 */
function licenses(licence: string): Array<Record<string, string>> | undefined {
  const text = licence.trim();
  const known = findLicence(text);
  if (known) return [{ name: known.id, path: known.url, title: known.title }];
  return /^https?:\/\//i.test(text) ? [{ path: text, title: text }] : undefined;
}

/**
 * A dataset as a Frictionless Data Package v2: one tabular resource, the CSV download, with a
 * Table Schema of its columns. The CSV needs the holder's API key, which the description says.
 */
export function dataPackage(asset: Asset, links: ListingLinks): Record<string, unknown> {
  const fields = asset.columns.map((column) => {
    const description = asset.dictionary[column.name]?.trim();
    return {
      name: column.name,
      type: FIELD_TYPES[column.type] ?? 'any',
      ...(column.label !== column.name ? { title: column.label } : {}),
      ...(description ? { description } : {}),
    };
  });
  const pkg: Record<string, unknown> = {
    $schema: DATA_PACKAGE_PROFILE,
    name: asset.readableName,
    id: links.datasetPage(asset.id),
    title: asset.title,
    description: asset.description,
    homepage: links.datasetPage(asset.id),
    version: asset.dataUpdatedAt.toISOString(),
    created: asset.createdAt.toISOString(),
    keywords: asset.keywords,
    licenses: licenses(asset.licence),
    contributors: asset.author.trim() ? [{ title: asset.author.trim(), roles: ['creator'] }] : undefined,
    resources: [
      {
        name: asset.readableName,
        type: 'table',
        path: links.csvDownload(asset.readableName),
        description:
          'Every row as CSV; add api_key=<your key> (or an X-API-Key header) once you hold the dataset.',
        format: 'csv',
        mediatype: 'text/csv',
        encoding: 'utf-8',
        schema: { $schema: TABLE_SCHEMA_PROFILE, fields },
      },
    ],
  };
  return Object.fromEntries(Object.entries(pkg).filter(([, value]) => value !== undefined));
}
