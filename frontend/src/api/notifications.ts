import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import type { components } from './schema';

/** The user's notices: receipts, refunds, datasets archived by their owners. */

export type Notice = components['schemas']['NoticeView'];

export const noticeKeys = {
  all: ['notifications'] as const,
};

/** GET notifications: the caller's notices, newest first. */
export function useNotices(enabled: boolean) {
  return useQuery({
    queryKey: noticeKeys.all,
    queryFn: () => api<Notice[]>('notifications'),
    enabled,
  });
}
