import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { ConnectorUploadPayload } from './connectorUpload';

/** POST connectors/upload -> {id, redirectUrl}; a 400 carries `errors` with the spec's problems. */
export function useConnectorUpload() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (payload: ConnectorUploadPayload) =>
      api<{ id: string; redirectUrl?: string }>('connectors/upload', { method: 'POST', body: payload }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['connectors'] }),
  });
}
