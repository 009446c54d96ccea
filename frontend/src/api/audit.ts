import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from './client';
import type { components } from './schema';

/** The user's own activity log (audit events) on /account, read a page at a time, newest first. */

export type AuditEvent = components['schemas']['AuditEventResponse'];

const PAGE_SIZE = 20;

export const auditKeys = {
  mine: ['audit', 'me'] as const,
};

/** Where the browser downloads the whole log (the API streams it as a file). */
export function auditExportUrl(format: 'csv' | 'jsonl'): string {
  return `/api/audit/me/export?format=${format}`;
}

export function useMyAuditEvents() {
  return useInfiniteQuery({
    queryKey: auditKeys.mine,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      api<AuditEvent[]>(`audit/me?limit=${PAGE_SIZE}${pageParam ? `&before=${pageParam}` : ''}`),
    getNextPageParam: (page) => (page.length === PAGE_SIZE ? page[page.length - 1].id : undefined),
  });
}
