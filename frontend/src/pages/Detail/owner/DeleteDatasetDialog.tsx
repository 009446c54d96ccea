import { DatasetArchived, DatasetRemoved, useDeleteAsset } from '../../../api/assets';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useNotify } from '../../../components/useNotify';
import { ownerErrorText } from './ownerErrors';

interface Props {
  /** The dataset to delete, or null while nothing is asked; its subscribers are the holders who lose access. */
  dataset: { id: string; title: string; subscriber_count: number } | null;
  onClose: () => void;
  onDeleted?: () => void;
}

/** Asks before deleting a dataset, saying how many holders lose access; then deletes it. */
export function DeleteDatasetDialog({ dataset, onClose, onDeleted }: Props) {
  const remove = useDeleteAsset();
  const notify = useNotify();
  const holders = dataset?.subscriber_count ?? 0;
  return (
    <ConfirmDialog
      open={dataset !== null}
      title={`Delete “${dataset?.title ?? ''}”?`}
      message={
        <>
          {holders === 0
            ? 'Nobody else holds this dataset.'
            : `${holders} ${holders === 1 ? 'holder loses' : 'holders lose'} access.`}{' '}
          Its rows, its table and every stream link go for good; purchases stay in the records. If someone
          paid for it, it is archived instead: gone from the catalogue, still readable by its holders.
        </>
      }
      confirmLabel="Delete dataset"
      destructive
      busy={remove.isPending}
      onCancel={onClose}
      onConfirm={() => {
        if (!dataset) return;
        // Awaited rather than told through mutate's callbacks: those are dropped once this dialog
        // unmounts, which the page of a dataset just removed may do before they would run.
        remove.mutateAsync(dataset.id).then(
          (answer) => {
            notify(deletedText(answer), 'success');
            onClose();
            onDeleted?.();
          },
          (error: unknown) => notify(ownerErrorText(error), 'error'),
        );
      }}
    />
  );
}

/** The server's answer in words: a dataset others paid for was archived, not deleted. */
function deletedText(answer: DatasetRemoved | DatasetArchived): string {
  if ('archived' in answer) return answer.message;
  const lost = answer.holders_lost_access;
  return lost === 0
    ? 'Dataset deleted.'
    : `Dataset deleted. ${lost} ${lost === 1 ? 'holder' : 'holders'} lost access.`;
}
