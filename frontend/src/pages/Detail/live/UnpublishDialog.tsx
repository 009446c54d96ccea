import { useDeleteAsset } from '../../../api/assets';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useNotify } from '../../../components/useNotify';
import { ownerErrorText } from '../owner/ownerErrors';

interface Props {
  /** The listing to unpublish, or null while nothing is asked. */
  dataset: { id: string; title: string; subscriber_count: number } | null;
  onClose: () => void;
  onDone: () => void;
}

/** Asks before ending a live dataset, saying who is told; the connection itself stays. */
export function UnpublishDialog({ dataset, onClose, onDone }: Props) {
  const unpublish = useDeleteAsset();
  const notify = useNotify();
  const subscribers = dataset?.subscriber_count ?? 0;
  return (
    <ConfirmDialog
      open={dataset !== null}
      title={`Unpublish “${dataset?.title ?? ''}”?`}
      message={
        <>
          {subscribers === 0
            ? 'Nobody subscribes to it yet.'
            : `${subscribers} ${subscribers === 1 ? 'subscriber is' : 'subscribers are'} told that it ends.`}{' '}
          The listing leaves the catalogue and stops refreshing; if someone paid for it, its buyers keep the
          last published rows. Your connection and its table stay.
        </>
      }
      confirmLabel="Unpublish"
      destructive
      busy={unpublish.isPending}
      onCancel={onClose}
      onConfirm={() => {
        if (!dataset) return;
        // Awaited rather than told through mutate's callbacks: those are dropped once this dialog
        // unmounts, which the refetch after unpublishing may do before they would run.
        unpublish.mutateAsync(dataset.id).then(
          (answer) => {
            notify('archived' in answer ? answer.message : 'Unpublished.', 'success');
            onClose();
            onDone();
          },
          (error: unknown) => notify(ownerErrorText(error), 'error'),
        );
      }}
    />
  );
}
