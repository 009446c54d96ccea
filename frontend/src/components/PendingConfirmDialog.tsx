import type { Confirmation } from '../features/manage/confirmTexts';
import { ConfirmDialog } from './ConfirmDialog';

/** The shared ConfirmDialog for a destructive action waiting on the user's yes (open while one is pending). */
export function PendingConfirmDialog({
  confirmation,
  onConfirm,
  onCancel,
  busy,
}: {
  confirmation: Confirmation | null;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
}) {
  return (
    <ConfirmDialog
      open={!!confirmation}
      title={confirmation?.title ?? ''}
      message={confirmation?.message ?? ''}
      confirmLabel={confirmation?.confirmLabel ?? ''}
      destructive
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}
