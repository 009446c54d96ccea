import { odataFeedUrl } from './odataFeedUrl';

describe('odataFeedUrl', () => {
  it('is the service root on the API host, without the key', () => {
    expect(odataFeedUrl('https://data.example.com')).toBe('https://data.example.com/api/odata');
    expect(odataFeedUrl('http://localhost:5173/')).toBe('http://localhost:5173/api/odata');
  });
});
