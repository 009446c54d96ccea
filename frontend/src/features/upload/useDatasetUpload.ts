import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { uploadWithProgress } from '../../api/upload';
import { uploadPercent } from './datasetUpload';

/** POST assets/upload-csv with a progress percentage; the catalogue and access lists reload afterwards. */
export function useDatasetUpload() {
  const queryClient = useQueryClient();
  const [percent, setPercent] = useState(0);
  const mutation = useMutation({
    mutationFn: ({ fields, file }: { fields: Record<string, string>; file: File }) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      // The file goes last so the server has every text field before the bytes stream in.
      form.append('file', file);
      setPercent(0);
      return uploadWithProgress('assets/upload-csv', form, (loaded, total) =>
        setPercent(uploadPercent(loaded, total)),
      );
    },
    onSuccess: () => queryClient.invalidateQueries(),
  });
  return { ...mutation, percent };
}
