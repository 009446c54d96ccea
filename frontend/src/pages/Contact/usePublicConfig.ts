import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';

export interface PublicConfig {
  contact_form_url: string | null;
}

/** Public, non-secret settings of the deployment (GET config/public). */
export function usePublicConfig() {
  return useQuery({
    queryKey: ['config', 'public'],
    queryFn: () => api<PublicConfig>('config/public'),
    staleTime: Infinity,
  });
}
