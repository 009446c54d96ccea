import { useState } from 'react';
import { refusalOr } from '../../api/client';
import { UploadPreview, useUploadPreview } from '../../api/assets';
import { ColumnType, CsvDialect, dialectFields } from '../../features/upload/csvDialect';
import { isCsvFileName } from '../../features/upload/datasetUpload';

/**
 * The preview step's state: what the server read from the start of the chosen file, the column
 * types the user settled on, and the form fields the upload then carries.
 */
export function useCsvPreview() {
  const request = useUploadPreview();
  const [preview, setPreview] = useState<UploadPreview | null>(null);
  const [types, setTypes] = useState<ColumnType[]>([]);
  const [failure, setFailure] = useState<string | null>(null);

  const read = (file: File | null, fields: Record<string, string> = {}) => {
    setFailure(null);
    // Other files are refused by the form's own check when uploaded.
    if (!file || !isCsvFileName(file.name)) {
      setPreview(null);
      return;
    }
    request.mutate(
      { file, fields },
      {
        onSuccess: (answer) => {
          setPreview(answer);
          setTypes(answer.columns.map((column) => column.type));
        },
        onError: (error) => {
          setPreview(null);
          setFailure(refusalOr(error, 'The file could not be previewed.'));
        },
      },
    );
  };

  /** Reads the file again with one setting changed; the column types follow the new reading. */
  const changeDialect = (file: File, change: Partial<CsvDialect>) => {
    if (!preview) return;
    const { column_types: _kept, ...fields } = dialectFields({ ...preview.dialect, ...change }, [], []);
    read(file, fields);
  };

  const changeType = (index: number, type: ColumnType) =>
    setTypes(types.map((current, position) => (position === index ? type : current)));

  const uploadFields = (): Record<string, string> =>
    preview
      ? dialectFields(
          preview.dialect,
          types,
          preview.columns.map((column) => column.type),
        )
      : {};

  return {
    preview,
    types,
    failure,
    pending: request.isPending,
    read,
    changeDialect,
    changeType,
    uploadFields,
  };
}
