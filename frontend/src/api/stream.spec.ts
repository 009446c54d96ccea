import { datasetStreamUrl, generalStreamUrl } from './stream';

const ORIGIN = 'https://data.example.com';

describe('stream links', () => {
  it('builds the general link with the key, JSON by default', () => {
    expect(generalStreamUrl('k1', 'json', ORIGIN)).toBe(
      'https://data.example.com/api/stream/data?api_key=k1',
    );
    expect(generalStreamUrl('k1', 'csv', ORIGIN)).toBe(
      'https://data.example.com/api/stream/data?api_key=k1&format=csv',
    );
  });

  it('builds a table’s link by its readable name', () => {
    expect(datasetStreamUrl('sales_2024', 'k1', 'csv', ORIGIN)).toBe(
      'https://data.example.com/api/stream/data/sales_2024?api_key=k1&format=csv',
    );
    expect(datasetStreamUrl('my_holidays', 'k1', 'json', ORIGIN)).toBe(
      'https://data.example.com/api/stream/data/my_holidays?api_key=k1',
    );
  });

  it('asks a table link for Parquet or Excel files', () => {
    expect(datasetStreamUrl('sales_2024', 'k1', 'parquet', ORIGIN)).toBe(
      'https://data.example.com/api/stream/data/sales_2024?api_key=k1&format=parquet',
    );
    expect(datasetStreamUrl('sales_2024', 'k1', 'xlsx', ORIGIN)).toBe(
      'https://data.example.com/api/stream/data/sales_2024?api_key=k1&format=xlsx',
    );
  });

  it('encodes keys and ids so a link cannot break', () => {
    expect(datasetStreamUrl('a/b', 'k+y&z=1', 'json', ORIGIN)).toBe(
      'https://data.example.com/api/stream/data/a%2Fb?api_key=k%2By%26z%3D1',
    );
  });

  it("uses the page's own origin when none is given", () => {
    const previous = (globalThis as { window?: unknown }).window;
    (globalThis as { window?: unknown }).window = { location: { origin: 'http://localhost:5173' } };
    try {
      expect(generalStreamUrl('k1')).toBe('http://localhost:5173/api/stream/data?api_key=k1');
    } finally {
      (globalThis as { window?: unknown }).window = previous;
    }
  });
});
