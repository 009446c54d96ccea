import type { PaginationSpec } from '../dsl/connector-spec.types';
import { valueAtResponsePath } from './response-path';

/**
 * Walks one request sequence page by page. `params()` gives the query parameters of the page
 * about to be fetched; `advance()` digests the page and says whether another one follows, on
 * the spec's stop conditions: empty page, fewer rows than the page size, total reached, or no
 * next cursor.
 */
export class Paginator {
  private page: number;
  private offset = 0;
  private cursor: string | undefined;
  private fetched = 0;
  private pagesDone = 0;

  constructor(private readonly spec: PaginationSpec) {
    this.page = spec.start_page ?? 1;
  }

  params(): Record<string, string> {
    const spec = this.spec;
    const size = spec.page_size;
    switch (spec.type) {
      case 'page':
        return {
          [spec.page_param ?? 'page']: String(this.page),
          ...(size && spec.size_param ? { [spec.size_param]: String(size) } : {}),
        };
      case 'offset':
        return {
          [spec.offset_param ?? 'offset']: String(this.offset),
          ...(size ? { [spec.limit_param ?? 'limit']: String(size) } : {}),
        };
      case 'cursor':
        return {
          ...(this.cursor !== undefined ? { [spec.cursor_param ?? 'cursor']: this.cursor } : {}),
          ...(size && spec.size_param ? { [spec.size_param]: String(size) } : {}),
        };
      default:
        return {};
    }
  }

  advance(recordCount: number, document: unknown): boolean {
    const spec = this.spec;
    this.fetched += recordCount;
    this.pagesDone++;
    if (spec.type === 'none' || !spec.type) return false;
    if (spec.max_pages && this.pagesDone >= spec.max_pages) return false;
    if (recordCount === 0) return false;
    if (spec.page_size && recordCount < spec.page_size) return false;
    if (spec.total_path) {
      const total = Number(valueAtResponsePath(document, spec.total_path));
      if (Number.isFinite(total) && this.fetched >= total) return false;
    }
    if (spec.type === 'page') this.page++;
    if (spec.type === 'offset') this.offset += recordCount;
    if (spec.type === 'cursor') {
      const next = valueAtResponsePath(document, spec.cursor_path ?? 'next_cursor');
      if (next === undefined || next === null || next === '' || next === false) return false;
      this.cursor = String(next);
    }
    return true;
  }
}
