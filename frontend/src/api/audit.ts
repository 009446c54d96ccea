import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from './client';
import type { components } from './schema';

/**
 * The user's own activity log (audit events) on /account, and an organisation's on its page (for
 * its owners and admins), read a page at a time, newest first.
 */

export type AuditEvent = components['schemas']['AuditEventResponse'];

const PAGE_SIZE = 20;

export const auditKeys = {
  mine: ['audit', 'me'] as const,
  // Under the organisation's own key, so that each change to it (a member, an invitation) refreshes its log.
  organisation: (id: string, types: readonly string[]) => ['organisations', id, 'audit', ...types] as const,
};

/** The query string the log and its export share: the filter by type, then paging or format. */
export function auditQuery(parts: { types?: readonly string[]; [key: string]: unknown }): string {
  const params = new URLSearchParams();
  for (const type of parts.types ?? []) params.append('type', type);
  for (const [key, value] of Object.entries(parts)) {
    if (key !== 'types' && value !== undefined) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

const organisationLog = (id: string) => `organisations/${encodeURIComponent(id)}/audit`;

/** Where the browser downloads the organisation's matching events. */
export function organisationAuditExportUrl(id: string, format: 'csv' | 'jsonl', types: readonly string[]) {
  return `/api/${organisationLog(id)}/export${auditQuery({ types, format })}`;
}

export function useOrganisationAuditEvents(id: string, types: readonly string[], enabled: boolean) {
  return useInfiniteQuery({
    queryKey: auditKeys.organisation(id, types),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      api<AuditEvent[]>(
        `${organisationLog(id)}${auditQuery({ types, limit: PAGE_SIZE, before: pageParam })}`,
      ),
    getNextPageParam: (page) => (page.length === PAGE_SIZE ? page[page.length - 1].id : undefined),
    enabled,
  });
}

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
