import type { Asset } from '../assets/entities/asset.entity';
import { findLicence } from '../common/licences';
import { PRODUCT_NAME } from '../common/product';
import type { Connector } from '../connectors/entities/connector.entity';
import { DATA_PACKAGE_PROFILE } from './data-package';
import type { ListingLinks } from './listing-links';

const IANA = 'http://www.iana.org/assignments/media-types/';

const CONTEXT = {
  dcat: 'http://www.w3.org/ns/dcat#',
  dct: 'http://purl.org/dc/terms/',
  foaf: 'http://xmlns.com/foaf/0.1/',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
};

const dateTime = (date: Date) => ({ '@value': date.toISOString(), '@type': 'xsd:dateTime' });
const link = (url: string) => ({ '@id': url });

function distribution(title: string, accessUrl: string, mediaType: string, extra: object = {}) {
  return {
    '@type': 'dcat:Distribution',
    'dct:title': title,
    'dcat:accessURL': link(accessUrl),
    'dcat:mediaType': link(`${IANA}${mediaType}`),
    ...extra,
  };
}

/**
 * dct:license is a dct:LicenseDocument, so a resource: a listed licence by its address (titled),
 * an owner's address as is; other words of the owner become a document with only a label.
 */
function licence(text: string): Record<string, unknown> {
  const known = findLicence(text);
  if (known)
    return { 'dct:license': { '@id': known.url, '@type': 'dct:LicenseDocument', 'dct:title': known.title } };
  const trimmed = text.trim();
  if (!trimmed) return {};
  if (/^https?:\/\//i.test(trimmed))
    return { 'dct:license': { '@id': trimmed, '@type': 'dct:LicenseDocument' } };
  return { 'dct:license': { '@type': 'dct:LicenseDocument', 'rdfs:label': trimmed } };
}

function dcatDataset(asset: Asset, links: ListingLinks): Record<string, unknown> {
  const modified = asset.dataUpdatedAt > asset.updatedAt ? asset.dataUpdatedAt : asset.updatedAt;
  return {
    '@id': links.datasetPage(asset.id),
    '@type': 'dcat:Dataset',
    'dct:identifier': asset.readableName,
    'dct:title': asset.title,
    'dct:description': asset.description,
    'dcat:keyword': asset.keywords,
    'dct:issued': dateTime(asset.createdAt),
    'dct:modified': dateTime(modified),
    ...licence(asset.licence),
    ...(asset.author.trim() ? { 'dct:creator': { '@type': 'foaf:Agent', 'foaf:name': asset.author } } : {}),
    'dcat:landingPage': link(links.datasetPage(asset.id)),
    'dcat:distribution': [
      distribution('OData feed (API key needed)', links.odataFeed(asset.readableName), 'application/json'),
      distribution('CSV download (API key needed)', links.csvDownload(asset.readableName), 'text/csv'),
      distribution('Frictionless Data Package', links.dataPackage(asset.id), 'application/json', {
        'dcat:downloadURL': link(links.dataPackage(asset.id)),
        'dct:conformsTo': link(DATA_PACKAGE_PROFILE),
      }),
    ],
  };
}

/** A connector is no dataset of its own: it is an API service that fills a table of the user's. */
function dcatService(connector: Connector, links: ListingLinks): Record<string, unknown> {
  return {
    '@id': links.connectorPage(connector.id),
    '@type': 'dcat:DataService',
    'dct:title': connector.title,
    'dct:description': connector.description,
    'dct:modified': dateTime(connector.updatedAt),
    'dcat:landingPage': link(links.connectorPage(connector.id)),
  };
}

/** The public catalogue as a DCAT 3 dcat:Catalog in JSON-LD, for open-data portals to harvest. */
export function dcatCatalog(
  datasets: Asset[],
  connectors: Connector[],
  links: ListingLinks,
): Record<string, unknown> {
  return {
    '@context': CONTEXT,
    '@id': links.dcatCatalog(),
    '@type': 'dcat:Catalog',
    'dct:title': PRODUCT_NAME,
    'dct:description': 'Datasets and API connectors listed publicly on this marketplace.',
    'foaf:homepage': link(links.home()),
    'dcat:dataset': datasets.map((asset) => dcatDataset(asset, links)),
    'dcat:service': connectors.map((connector) => dcatService(connector, links)),
  };
}
