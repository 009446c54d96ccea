import {
  connectorTableName,
  dataTable,
  datasetTableName,
  isDataTableName,
  quoteIdentifier,
  stagingTableName,
} from './data-table-names';

describe('data table names', () => {
  it('derives a dataset table from its id', () => {
    expect(datasetTableName('0F8FAD5B-D9CB-469F-A165-70867728950E')).toBe(
      'ds_0f8fad5bd9cb469fa16570867728950e',
    );
  });

  it('names a connector table after a readable slug of its title, with a random suffix', () => {
    const name = connectorTableName('Météo — Stations (Zürich)!');
    expect(name).toMatch(/^ci_meteo_stations_zurich_[0-9a-f]{10}$/);
    expect(connectorTableName('Météo — Stations (Zürich)!')).not.toBe(name);
    expect(connectorTableName('***')).toMatch(/^ci_connector_[0-9a-f]{10}$/);
    expect(isDataTableName(connectorTableName('x'.repeat(300)))).toBe(true);
  });

  it('keeps a staging name within the identifier limit', () => {
    const staging = stagingTableName(
      connectorTableName('y'.repeat(300)),
      '0f8fad5b-d9cb-469f-a165-70867728950e',
    );
    expect(staging).toMatch(/__s0f8fad5bd9$/);
    expect(isDataTableName(staging)).toBe(true);
  });

  it('accepts only names we could have generated', () => {
    for (const name of ['ds_abc', 'ci_x_0123456789']) expect(isDataTableName(name)).toBe(true);
    for (const name of ['', '_x', 'Ds_x', 'a"b', 'a; drop', 'x'.repeat(64), 42, undefined]) {
      expect(isDataTableName(name)).toBe(false);
    }
  });

  it('quotes the schema and table, and refuses an unsafe name outright', () => {
    expect(dataTable('ds_abc')).toBe('"data"."ds_abc"');
    expect(() => dataTable('ds"; DROP TABLE users; --')).toThrow('Unsafe data table name');
    expect(quoteIdentifier('say "hi"')).toBe('"say ""hi"""');
  });
});
