import Button from '@mui/material/Button';
import { useState } from 'react';
import { refusalOr } from '../../api/client';
import { useResetIncrementalState } from '../../api/connectors';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useNotify } from '../../components/useNotify';

export const STATE_RESET = 'Incremental state reset: the next run reads from the start value.';

/** Reset state: the next run of an incremental instance reads from its start value again. */
export function IncrementalReset({ instanceId }: { instanceId: string }) {
  const notify = useNotify();
  const reset = useResetIncrementalState();
  const [asking, setAsking] = useState(false);
  const confirm = () =>
    reset.mutate(instanceId, {
      onSuccess: () => notify(STATE_RESET, 'success'),
      onError: (error) => notify(refusalOr(error, 'Failed to reset the incremental state'), 'error'),
      onSettled: () => setAsking(false),
    });
  return (
    <>
      <Button variant="text" size="large" onClick={() => setAsking(true)} disabled={reset.isPending}>
        Reset State
      </Button>
      <ConfirmDialog
        open={asking}
        title="Reset the incremental state?"
        message="The next run reads everything again from the start value instead of only what changed since the last run. The rows already stored stay."
        confirmLabel="Reset State"
        busy={reset.isPending}
        onConfirm={confirm}
        onCancel={() => setAsking(false)}
      />
    </>
  );
}
