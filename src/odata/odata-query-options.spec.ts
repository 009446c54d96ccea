import { queryParameters, readQueryOptions } from './odata-query-options';

describe('queryParameters', () => {
  it('decodes a raw plus as a space and %2B as a plus, as form-encoding clients mean them', () => {
    expect(
      queryParameters("/api/odata/x?$orderby=day+desc,id&$filter=region+eq+'a%2Bb'&$format=json"),
    ).toEqual({ $orderby: 'day desc,id', $filter: "region eq 'a+b'", $format: 'json' });
    expect(queryParameters('/api/odata/x?$filter=at+ge+2024-01-01T00%3A00%3A00%2B02%3A00')).toEqual({
      $filter: 'at ge 2024-01-01T00:00:00+02:00',
    });
  });

  it('keeps the raw plus of a time zone offset, and a stray percent, as they are', () => {
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
      ieee754Compatible: false,
    });
    expect(readQueryOptions({ $select: '*' }).select).toBeUndefined();
  });

  it('takes IEEE754Compatible from $format when given, else from the Accept header', () => {
    const accept = 'application/json;odata.metadata=minimal;IEEE754Compatible=true';
    expect(readQueryOptions({}, accept).ieee754Compatible).toBe(true);
    expect(
      readQueryOptions({}, 'application/json; IEEE754Compatible=true, text/plain').ieee754Compatible,
    ).toBe(true);
    expect(readQueryOptions({}, 'application/json;IEEE754Compatible=false').ieee754Compatible).toBe(false);
    expect(readQueryOptions({}, 'application/json').ieee754Compatible).toBe(false);
    expect(readQueryOptions({ $format: 'application/json;IEEE754Compatible=true' }).ieee754Compatible).toBe(
      true,
    );
    expect(readQueryOptions({ $format: 'json' }, accept).ieee754Compatible).toBe(false);
  });

  it('refuses paths, unsupported and unknown options, and repeated ones', () => {
    expect(() => readQueryOptions({ $select: 'a/b' })).toThrow('$select supports property names only');
    expect(() => readQueryOptions({ $orderby: 'a/b' })).toThrow('$orderby supports property names only');
    expect(() => readQueryOptions({ $expand: 'a' })).toThrow('The query option $expand is not supported');
    expect(() => readQueryOptions({ $whatever: 'a' })).toThrow('Unknown query option $whatever');
    expect(() => readQueryOptions({ $top: ['1', '2'] })).toThrow('$top must be given once');
  });
});
