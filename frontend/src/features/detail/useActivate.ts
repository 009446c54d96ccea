import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

export interface ActivatePayload {
  connector_id: string;
  auth_data?: Record<string, string>;
  refresh_interval?: number;
  settings?: Record<string, unknown>;
}

/** POST connectors/activate -> {id}: creates the user's instance of a connector. */
export function useActivate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (payload: ActivatePayload) =>
      api<{ id: string }>('connectors/activate', { method: 'POST', body: payload }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
