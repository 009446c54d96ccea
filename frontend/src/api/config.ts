import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import type { components } from './schema';

export type PublicConfig = components['schemas']['PublicConfigResponse'];
export type Terms = components['schemas']['TermsResponse'];

export const configKeys = {
  all: ['config'] as const,
  public: () => [...configKeys.all, 'public'] as const,
  terms: () => [...configKeys.all, 'terms'] as const,
};

/** Public, non-secret settings of the deployment (GET config/public); they never change while it runs. */
export function usePublicConfig() {
  return useQuery({
    queryKey: configKeys.public(),
    queryFn: () => api<PublicConfig>('config/public'),
    staleTime: Infinity,
  });
}

/** The terms of use of this deployment (GET config/terms), as Markdown. */
export function useTerms() {
  return useQuery({
    queryKey: configKeys.terms(),
    queryFn: () => api<Terms>('config/terms'),
    staleTime: Infinity,
  });
}
