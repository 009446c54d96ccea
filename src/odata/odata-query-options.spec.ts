import { queryParameters, readQueryOptions } from './odata-query-options';

describe('queryParameters', () => {
  it('decodes the way OData URLs are: a plus stays a plus, a stray percent stays', () => {
    expect(
      queryParameters(
        "/api/odata/x?$filter=at%20ge%202024-01-01T00:00:00+02:00&$top=5&a=1&a=2&$filter2=contains(n,'50%')",
      ),
    ).toEqual({
      $filter: 'at ge 2024-01-01T00:00:00+02:00',
      $top: '5',
      a: ['1', '2'],
      $filter2: "contains(n,'50%')",
    });
    expect(queryParameters('/api/odata')).toEqual({});
  });
});

describe('readQueryOptions', () => {
  it('reads $select, $orderby, $top, $skip, $count and $skiptoken, leaving custom options alone', () => {
    expect(
      readQueryOptions({
        $select: 'a,b',
        $orderby: 'a desc,b',
        $top: '10',
        $skip: '5',
        $count: 'true',
        $skiptoken: 'k1.1',
        $format: 'json',
        api_key: 'secret',
      }),
    ).toEqual({
      select: ['a', 'b'],
      orderBy: [
        { property: 'a', descending: true },
        { property: 'b', descending: false },
      ],
      top: 10,
      skip: 5,
      count: true,
      skipToken: 'k1.1',
    });
    expect(readQueryOptions({ $select: '*' }).select).toBeUndefined();
  });

  it('refuses paths, unsupported and unknown options, and repeated ones', () => {
    expect(() => readQueryOptions({ $select: 'a/b' })).toThrow('$select supports property names only');
    expect(() => readQueryOptions({ $orderby: 'a/b' })).toThrow('$orderby supports property names only');
    expect(() => readQueryOptions({ $expand: 'a' })).toThrow('The query option $expand is not supported');
    expect(() => readQueryOptions({ $whatever: 'a' })).toThrow('Unknown query option $whatever');
    expect(() => readQueryOptions({ $top: ['1', '2'] })).toThrow('$top must be given once');
  });
});
