import { Paginator } from './paginator';

const page = (count: number, document: unknown = {}, headers: Record<string, string> = {}) => ({
  records: Array.from({ length: count }, (_, index) => ({ id: index })),
  document,
  headers,
  url: 'https://api.example.com/items?page=1',
});

describe('paginator', () => {
  it('puts the page token where the spec says: query, body, header or path', () => {
    expect(new Paginator({ type: 'page', size_param: 'size', page_size: 5 }).params().query).toEqual({
      page: '1',
      size: '5',
    });
    expect(new Paginator({ type: 'offset', inject_into: 'body' }).params().body).toEqual({ offset: 0 });
    expect(
      new Paginator({ type: 'page', inject_into: 'header', page_param: 'X-Page' }).params().headers,
    ).toEqual({
      'X-Page': '1',
    });
    expect(new Paginator({ type: 'page', inject_into: 'path' }).params().pathToken).toBe('1');
  });

  it('cursor: a short page goes on while a cursor is given, and stops when the spec says so', () => {
    const going = new Paginator({ type: 'cursor', cursor_path: 'next', page_size: 10 });
    expect(going.advance(page(3, { next: 'b' }))).toBe(true);
    expect(going.params().query).toEqual({ cursor: 'b' });
    const stopping = new Paginator({
      type: 'cursor',
      cursor_path: 'next',
      page_size: 10,
      stop_on_short_page: true,
    });
    expect(stopping.advance(page(3, { next: 'b' }))).toBe(false);
  });

  it('cursor from a header, and from the last record with has_more as the stop condition', () => {
    const header = new Paginator({ type: 'cursor', cursor_header: 'X-Next-Cursor' });
    expect(header.advance(page(2, {}, { 'x-next-cursor': 'c2' }))).toBe(true);
    expect(header.params().query).toEqual({ cursor: 'c2' });
    const stripe = new Paginator({ type: 'cursor', cursor_record_field: 'id', has_more_path: 'has_more' });
    expect(stripe.advance(page(2, { has_more: true }))).toBe(true);
    expect(stripe.params().query).toEqual({ cursor: '1' });
    expect(stripe.advance(page(2, { has_more: false }))).toBe(false);
  });

  it('follows a relative Link next against the answering URL and refuses another host', () => {
    const link = new Paginator({ type: 'link_header' });
    expect(link.advance(page(1, {}, { link: '</items?page=2>; rel="next"' }))).toBe(true);
    expect(link.params().url).toBe('https://api.example.com/items?page=2');
    const away = new Paginator({ type: 'next_url', next_url_path: 'next' });
    expect(() => away.advance(page(1, { next: 'https://evil.example.net/steal' }))).toThrow(
      'The next page URL points to another host (evil.example.net); refused to send the request there',
    );
  });

  it('fails on a repeated next URL', () => {
    const paginator = new Paginator({ type: 'next_url', next_url_path: 'next' });
    expect(paginator.advance(page(1, { next: '/items?page=2' }))).toBe(true);
    expect(() => paginator.advance(page(1, { next: '/items?page=2' }))).toThrow(
      'The upstream gave the same next page URL twice; stopped instead of fetching the same page again',
    );
  });
});
