import type { IncomingHttpHeaders } from 'node:http';
import LinkHeader from 'http-link-header';
import type { PaginationSpec } from '../dsl/connector-spec.types';
import { ConnectorFetchError } from './connector-fetch-error';
import { valueAtResponsePath } from './response-path';

/** Where the next request's page token goes; `url` replaces the whole URL (Link header, next URL). */
export interface PageToken {
  query: Record<string, string>;
  headers: Record<string, string>;
  /** Dotted body path -> value, set into the JSON or form body. */
  body: Record<string, unknown>;
  /** The value of `{{page_token}}` in the URL template (path injection). */
  pathToken: string;
  /** A next URL given by the upstream, followed as given. */
  url?: string;
}

/** What the paginator reads from a page just fetched. */
export interface FetchedResponse {
  records: Record<string, unknown>[];
  document: unknown;
  headers: IncomingHttpHeaders;
  /** The URL that answered: relative next links resolve against it. */
  url: string;
}

/**
 * The paginator stage: where the next page's token comes from (page number, offset, a cursor
 * from a body path, a header or the last record, the `Link` header, a next URL in the body)
 * and where it goes (query, JSON body, header or path), with the spec's stop conditions.
 * `params()` gives the token of the page about to be fetched; `advance()` digests a page and
 * says whether another one follows. A page shorter than `page_size` while the upstream says
 * more exist means the upstream capped the page size: that fails, it is not a last page.
 */
export class Paginator {
  private page: number;
  private offset = 0;
  private cursor: string | undefined;
  private nextUrl: string | undefined;
  private fetched = 0;
  private pagesDone = 0;
  private readonly seen = new Set<string>();
  /**
   * Set when max_pages stopped the sequence before its end: `known` when the upstream said more
   * exist, `possible` when a next page was there to ask for but nothing said whether it held rows.
   */
  capped: 'known' | 'possible' | false = false;
  /** Rows of the short page being checked: the page after it must be empty, or the size was capped. */
  private shortPageRows: number | undefined;
  /** The short page's first record as JSON: some APIs answer a page past the end with the last one again. */
  private shortPageFirst: string | undefined;
  /** The previous page's size, first and last record (page and offset paging): the same again means no paging. */
  private previousPage: string | undefined;

  constructor(private readonly spec: PaginationSpec) {
    this.page = spec.start_page ?? 1;
  }

  params(): PageToken {
    const token: PageToken = { query: {}, headers: {}, body: {}, pathToken: '' };
    if (this.nextUrl !== undefined) return { ...token, url: this.nextUrl };
    const spec = this.spec;
    const size = spec.page_size;
    const put = (name: string, value: string | number) => {
      switch (spec.inject_into ?? 'query') {
        case 'body':
          token.body[name] = value;
          return;
        case 'header':
          token.headers[name] = String(value);
          return;
        default:
          token.query[name] = String(value);
      }
    };
    const putToken = (name: string, value: string | number) => {
      if (spec.inject_into === 'path') token.pathToken = String(value);
      else put(name, value);
    };
    const putSize = (name: string | undefined) => {
      if (!size || !name) return;
      if (spec.inject_into === 'path') token.query[name] = String(size);
      else put(name, size);
    };
    switch (spec.type) {
      case 'page':
        putToken(spec.page_param ?? 'page', this.page);
        putSize(spec.size_param);
        break;
      case 'offset':
        putToken(spec.offset_param ?? 'offset', this.offset);
        putSize(spec.limit_param ?? 'limit');
        break;
      case 'cursor':
        if (this.cursor !== undefined) putToken(spec.cursor_param ?? 'cursor', this.cursor);
        putSize(spec.size_param);
        break;
      case 'link_header':
      case 'next_url':
        putSize(spec.size_param);
        break;
    }
    return token;
  }

  advance(page: FetchedResponse): boolean {
    const spec = this.spec;
    const count = page.records.length;
    this.fetched += count;
    this.pagesDone++;
    if (spec.type === 'none' || !spec.type) return false;
    const more = this.moreSignalled(page);
    if (this.shortPageRows !== undefined && count > 0) throw this.cappedPageSize(this.shortPageRows);
    if (count === 0) return false;
    if (spec.type === 'page' || spec.type === 'offset') this.checkAdvancing(page.records);
    const short = spec.page_size !== undefined && count < spec.page_size;
    if (short && more === true && this.shortPageStops() !== false) throw this.cappedPageSize(count);
    if (short && this.shortPageStops() === true) return false;
    if (more === false) return false;
    const next = this.nextToken(page);
    if (next === undefined) {
      if (more === true) {
        throw new ConnectorFetchError(
          `The upstream says more data exists but gave no ${this.nextWhat()}; stopped rather than keep a partial pull`,
        );
      }
      return false;
    }
    // A short page of page or offset paging with nothing else said: the next page tells whether it
    // was the last one (empty) or the upstream pages by a smaller size than asked for (rows).
    if (short && more === undefined && this.shortPageStops() === undefined) {
      this.shortPageRows = count;
      this.shortPageFirst = JSON.stringify(page.records[0]);
    }
    if (spec.max_pages && this.pagesDone >= spec.max_pages) {
      this.capped = more === true ? 'known' : 'possible';
      return false;
    }
    if (spec.type === 'page') this.page++;
    if (spec.type === 'offset') this.offset += count;
    return true;
  }

  /**
   * Whether the page fetched after a short one is that short page again (an upstream that answers
   * any page past the end with its last one): the sequence ended, and these records are not new.
   */
  repeatsShortPage(records: Record<string, unknown>[]): boolean {
    return (
      this.shortPageFirst !== undefined &&
      records.length > 0 &&
      JSON.stringify(records[0]) === this.shortPageFirst
    );
  }

  /** Whether the page says more exist (true), none (false) or nothing about it (undefined). */
  private moreSignalled(page: FetchedResponse): boolean | undefined {
    const spec = this.spec;
    if (spec.has_more_path) {
      const flag = valueAtResponsePath(page.document, spec.has_more_path);
      if (flag !== undefined && flag !== null) return flag === true || flag === 'true';
    }
    if (spec.total_path) {
      const total = Number(valueAtResponsePath(page.document, spec.total_path));
      if (Number.isFinite(total)) return this.fetched < total;
    }
    if (linkNext(page)) return true;
    return undefined;
  }

  /**
   * Whether a short page ends the sequence: as the spec says; unsaid, page and offset paging check
   * the next page (undefined), the others go on while a next token exists (false).
   */
  private shortPageStops(): boolean | undefined {
    const spec = this.spec;
    if (spec.stop_on_short_page !== undefined) return spec.stop_on_short_page;
    return spec.type === 'page' || spec.type === 'offset' ? undefined : false;
  }

  /**
   * A page that starts and ends with the records the previous page did is the same page again:
   * the upstream ignores the page parameter (a misnamed page_param, say), and the run would fetch
   * it up to the page limit. Fail instead.
   */
  private checkAdvancing(records: Record<string, unknown>[]): void {
    // First and last record with the count: pages of look-alike rows rarely match all three.
    const signature = `${records.length}\n${JSON.stringify(records[0])}\n${JSON.stringify(records.at(-1))}`;
    if (signature === this.previousPage) {
      const parameter =
        this.spec.type === 'page' ? (this.spec.page_param ?? 'page') : (this.spec.offset_param ?? 'offset');
      throw new ConnectorFetchError(
        `The upstream answered the same page twice: it does not seem to read the ${parameter} parameter; stopped instead of fetching it again`,
      );
    }
    this.previousPage = signature;
  }

  private cappedPageSize(rows: number): ConnectorFetchError {
    return new ConnectorFetchError(
      `The upstream answered ${rows} rows for a page size of ${this.spec.page_size} while more exist: it does not accept that page size; set page_size to at most ${rows}`,
    );
  }

  /** What names the next page in this kind of paging, for a message. */
  private nextWhat(): string {
    const spec = this.spec;
    if (spec.type === 'link_header') return 'Link header with rel="next"';
    if (spec.type === 'next_url') return `next page URL at ${spec.next_url_path ?? 'next'}`;
    if (spec.cursor_header) return `cursor in the ${spec.cursor_header} header`;
    if (spec.cursor_record_field) return `cursor in the last record's ${spec.cursor_record_field}`;
    return `cursor at ${spec.cursor_path ?? 'next_cursor'}`;
  }

  /** Records the next token; undefined when there is none (the sequence ends). */
  private nextToken(page: FetchedResponse): string | undefined {
    const spec = this.spec;
    switch (spec.type) {
      case 'page':
        return String(this.page + 1);
      case 'offset':
        return String(this.offset + page.records.length);
      case 'cursor': {
        const cursor = this.cursorOf(page);
        if (cursor === undefined) return undefined;
        this.remember(cursor, 'cursor');
        this.cursor = cursor;
        return cursor;
      }
      case 'link_header':
      case 'next_url': {
        const raw =
          spec.type === 'link_header'
            ? linkNext(page)
            : textOf(valueAtResponsePath(page.document, spec.next_url_path ?? 'next'));
        if (raw === undefined) return undefined;
        const url = this.sameOrigin(new URL(raw, page.url), page.url);
        this.remember(url, 'next page URL');
        this.nextUrl = url;
        return url;
      }
      default:
        return undefined;
    }
  }

  private cursorOf(page: FetchedResponse): string | undefined {
    const spec = this.spec;
    if (spec.cursor_header) {
      const header = page.headers[spec.cursor_header.toLowerCase()];
      return textOf(Array.isArray(header) ? header[0] : header);
    }
    if (spec.cursor_record_field) {
      const last = page.records[page.records.length - 1];
      return last ? textOf(valueAtResponsePath(last, spec.cursor_record_field)) : undefined;
    }
    return textOf(valueAtResponsePath(page.document, spec.cursor_path ?? 'next_cursor'));
  }

  /** A token seen before would fetch the same page again, forever: fail instead. */
  private remember(token: string, what: string): void {
    if (this.seen.has(token)) {
      throw new ConnectorFetchError(
        `The upstream gave the same ${what} twice; stopped instead of fetching the same page again`,
      );
    }
    this.seen.add(token);
  }

  /** Credentials go only where the spec pointed: a next URL on another origin is refused. */
  private sameOrigin(next: URL, current: string): string {
    if (next.origin !== new URL(current).origin) {
      throw new ConnectorFetchError(
        `The next page URL points to another host (${next.host}); refused to send the request there`,
      );
    }
    return next.toString();
  }
}

function linkNext(page: FetchedResponse): string | undefined {
  const header = page.headers.link;
  const value = Array.isArray(header) ? header.join(', ') : header;
  if (!value) return undefined;
  try {
    return LinkHeader.parse(value).rel('next')[0]?.uri;
  } catch {
    return undefined;
  }
}

function textOf(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '' || value === false) return undefined;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
