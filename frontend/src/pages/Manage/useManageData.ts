import { useSession } from '../../auth/useSession';
import { needsSignIn, ownConnectors } from '../../features/manage/manageRules';
import { useMyAssets } from '../../api/assets';
import { useConnectors, useMyInstances } from '../../api/connectors';

/** Everything the three Manage tabs show, loaded once for all of them. */
export function useManageData(signedIn: boolean) {
  const { user } = useSession();
  const instances = useMyInstances(signedIn);
  const accessible = useMyAssets('accessible', signedIn);
  const owned = useMyAssets('owned', signedIn);
  const connectors = useConnectors(signedIn);
  const failed = instances.error ?? accessible.error;
  return {
    instances: instances.data ?? [],
    instancesPending: instances.isPending && signedIn,
    datasets: accessible.data ?? [],
    datasetsPending: accessible.isPending && signedIn,
    ownDatasets: owned.data ?? [],
    ownConnectors: ownConnectors(connectors.data ?? [], user?.id),
    uploadsPending: (owned.isPending || connectors.isPending) && signedIn,
    failed: !!failed,
    needsSignIn: needsSignIn(failed),
  };
}

export type ManageData = ReturnType<typeof useManageData>;
