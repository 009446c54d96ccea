import { formerEntitySetName, sourceReferenceOf, toEntitySet } from './odata-entity-set';

const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('entity sets', () => {
  it('still reads the former names (kind and id, or a title before the id) back to their table', () => {
    const dataset = formerEntitySetName({ kind: 'asset', id: ID });
    expect(dataset).toBe('Dataset_0f8fad5bd9cb469fa16570867728950e');
    expect(sourceReferenceOf(dataset)).toBe(ID);
    expect(sourceReferenceOf('_2024_Zurich_sales_0f8fad5bd9cb469fa16570867728950e')).toBe(ID);
    const instance = formerEntitySetName({ kind: 'instance', id: ID });
    expect(instance).toBe('Connector_instance_0f8fad5bd9cb469fa16570867728950e');
    expect(sourceReferenceOf(instance)).toBe(`instance-${ID}`);
    for (const name of ['x', 'a b_0f8fad5bd9cb469fa16570867728950e', '$metadata', `x_${ID}`]) {
      expect(sourceReferenceOf(name)).toBeNull();
    }
  });

  it('names the set by the readable name, makes every column a valid, unique property and keys by the row id or the row number', () => {
    const source = {
      kind: 'instance' as const,
      id: ID,
      title: 'Feed',
      readableName: 'weather_feed',
      tableName: 'ci_feed',
      hasRowId: false,
      columns: [
        { name: '_run_id', label: '_run_id', pgType: 'uuid' },
        { name: '2nd', label: '2nd', pgType: 'int4' },
        { name: '_2nd', label: '_2nd', pgType: 'numeric' },
      ],
    };
    const set = toEntitySet(source);
    expect(set.name).toBe('weather_feed');
    expect(set.key.name).toBe('_row_number');
    expect(set.properties.map(({ name, column, edmType }) => [name, column, edmType])).toEqual([
      ['_row_number', undefined, 'Edm.Int64'],
      ['_run_id', '_run_id', 'Edm.Guid'],
      ['_2nd', '2nd', 'Edm.Int32'],
      ['_2nd_2', '_2nd', 'Edm.Decimal'],
    ]);
    expect(toEntitySet({ ...source, kind: 'asset', hasRowId: true }).key).toMatchObject({
      name: '_row_id',
      column: '_row_id',
    });
  });
});
