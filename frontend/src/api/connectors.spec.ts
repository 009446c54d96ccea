import { QueryClient } from '@tanstack/react-query';
import { connectorKeys, selectOptionsPath, selectOptionsQuery } from './connectors';

describe('select options look-up', () => {
  const realFetch = global.fetch;
  const urls: string[] = [];

  beforeEach(() => {
    urls.splice(0);
    global.fetch = (async (url: string) => {
      urls.push(url);
      return new Response(JSON.stringify({ options: [{ label: 'Germany', value: 'de' }] }), { status: 200 });
    }) as typeof fetch;
  });
  afterAll(() => {
    global.fetch = realFetch;
  });

  it('sends depends_on values of an options look-up as JSON', () => {
    const url = new URL(
      `/api/${selectOptionsPath('c1', 'country', { region: 'eu' }, 'i1')}`,
      'http://localhost',
    );
    expect(url.pathname).toBe('/api/connectors/options');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      connector_id: 'c1',
      field: 'country',
      values: '{"region":"eu"}',
      instance_id: 'i1',
    });
  });

  it('leaves the instance out when there is none', () => {
    const url = new URL(`/api/${selectOptionsPath('c1', 'country', {})}`, 'http://localhost');
    expect(url.searchParams.has('instance_id')).toBe(false);
    expect(url.searchParams.get('values')).toBe('{}');
  });

  it('answers the choices of GET connectors/options', async () => {
    const options = await new QueryClient().fetchQuery(selectOptionsQuery('c1', 'country', { region: 'eu' }));
    expect(options).toEqual([{ label: 'Germany', value: 'de' }]);
    expect(urls).toHaveLength(1);
    expect(new URL(urls[0], 'http://localhost').pathname).toBe('/api/connectors/options');
  });

  it('asks again when a value it depends on or the instance changes', () => {
    const key = selectOptionsQuery('c1', 'country', { region: 'eu' }).queryKey;
    expect(selectOptionsQuery('c1', 'country', { region: 'us' }).queryKey).not.toEqual(key);
    expect(selectOptionsQuery('c1', 'country', { region: 'eu' }, 'i1').queryKey).not.toEqual(key);
  });
});

describe('connectorKeys', () => {
  it('keys every connector query under one root so removing an instance can refresh them all', () => {
    for (const key of [
      connectorKeys.lists(),
      connectorKeys.detail('c1'),
      connectorKeys.mine(),
      connectorKeys.runs('i1'),
      connectorKeys.table('connector_t1'),
    ])
      expect(key.slice(0, 1)).toEqual(connectorKeys.all);
    expect(connectorKeys.detail('c1')).toEqual(['connectors', 'detail', 'c1']);
  });

  it('keys every instance table under one prefix, so a finished refresh reloads the one shown', () => {
    expect(connectorKeys.table('connector_t1').slice(0, 2)).toEqual(connectorKeys.tables());
  });
});
