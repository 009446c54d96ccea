import { XMLBuilder } from 'fast-xml-parser';
import { EntitySet, ODATA_NAMESPACE } from './odata-entity-set';

const CONTAINER = 'Container';

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  format: true,
  suppressEmptyNode: true,
});

/** `$metadata`: the CSDL (XML) of the entity sets, one entity type each, with its key and EDM types. */
export function metadataDocument(sets: EntitySet[]): string {
  const entityTypes = sets.map((set) => ({
    '@Name': set.name,
    Key: { PropertyRef: { '@Name': set.key.name } },
    Property: set.properties.map((property) => ({
      '@Name': property.name,
      '@Type': property.edmType,
      ...(property === set.key ? { '@Nullable': 'false' } : {}),
      // Without a Scale facet CSDL 4.0 means scale 0, i.e. whole numbers; numeric columns have any.
      ...(property.edmType === 'Edm.Decimal' ? { '@Scale': 'variable' } : {}),
    })),
  }));
  const document = {
    '?xml': { '@version': '1.0', '@encoding': 'utf-8' },
    'edmx:Edmx': {
      '@xmlns:edmx': 'http://docs.oasis-open.org/odata/ns/edmx',
      '@Version': '4.0',
      'edmx:DataServices': {
        Schema: {
          '@xmlns': 'http://docs.oasis-open.org/odata/ns/edm',
          '@Namespace': ODATA_NAMESPACE,
          EntityType: entityTypes,
          EntityContainer: {
            '@Name': CONTAINER,
            EntitySet: sets.map((set) => ({
              '@Name': set.name,
              '@EntityType': `${ODATA_NAMESPACE}.${set.name}`,
            })),
          },
        },
      },
    },
  };
  return builder.build(document) as string;
}

/** The service document: one entry per entity set, titled as the dataset or connector is. */
export function serviceDocument(serviceRoot: string, sets: EntitySet[]): object {
  return {
    '@odata.context': `${serviceRoot}/$metadata`,
    value: sets.map((set) => ({ name: set.name, kind: 'EntitySet', url: set.name, title: set.source.title })),
  };
}
