import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { loginPath } from '../../auth/loginReturn';
import { useSession } from '../../auth/useSession';
import { useNotify } from '../../components/useNotify';
import { CardAction, CatalogItem, GET_AGAIN } from '../../features/datastore/catalogItem';
import { useAccessChange } from '../../api/access';
import { useEditableOrganisations } from '../../api/organisations';
import { checkoutUrlOf } from '../../features/datastore/checkout';
import { Confirmation, removeAccessConfirmation } from '../../features/manage/confirmTexts';

/**
 * What the card buttons do: visitors go to /login; Get (and Get again) grants, Buy asks first, Remove takes access
 * away (asking first when it was paid for); Connect opens the connect flow, Manage the connector's setup.
 */
export function useCardActions() {
  const { status } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const notify = useNotify();
  const access = useAccessChange();
  const [busyId, setBusyId] = useState<string | null>(null);
  const [buying, setBuying] = useState<CatalogItem | null>(null);
  const [connecting, setConnecting] = useState<CatalogItem | null>(null);
  const [removing, setRemoving] = useState<{ item: CatalogItem; confirmation: Confirmation } | null>(null);

  const editable = useEditableOrganisations(status === 'in');
  const [getting, setGetting] = useState<CatalogItem | null>(null);

  const changeAccess = (item: CatalogItem, grant: boolean, organisationId?: string) => {
    setBusyId(item.id);
    access.mutate(
      { assetId: item.id, grant, organisationId },
      {
        onSuccess: (answer) => {
          // A hosted checkout (Stripe): the buyer pays there and comes back to the dataset page.
          const checkoutUrl = grant ? checkoutUrlOf(answer) : null;
          if (checkoutUrl) window.location.assign(checkoutUrl);
          else if (grant && organisationId) {
            const name = editable.find((organisation) => organisation.id === organisationId)?.name;
            notify(`Access granted to ${name ?? 'the organisation'}!`, 'success');
          } else notify(grant ? 'Access granted!' : 'Access removed.', 'success');
        },
        onError: () => notify(grant ? 'Grant failed' : 'Failed to remove access.', 'error'),
        onSettled: () => setBusyId(null),
      },
    );
  };

  const run = (item: CatalogItem, action: CardAction) => {
    if (status !== 'in') {
      navigate(loginPath(location));
      return;
    }
    // Bought once: the server grants it again without charging, so there is nothing to confirm.
    // An editor (and above) of an organisation chooses whom a free dataset is for.
    if (action === 'Get' && editable.length > 0) setGetting(item);
    else if (action === 'Get' || action === GET_AGAIN) changeAccess(item, true);
    else if (action === 'Buy') setBuying(item);
    else if (action === 'Remove') {
      // A paid dataset would have to be bought again: ask first.
      const confirmation = removeAccessConfirmation(item);
      if (confirmation) setRemoving({ item, confirmation });
      else changeAccess(item, false);
    } else if (action === 'Connect' && item.needsSetup) navigate(`/connector-setup/${item.id}`);
    else if (action === 'Connect') setConnecting(item);
    else navigate(`/connector-setup/${item.id}`);
  };

  const confirmBuy = (organisationId?: string) => {
    if (buying) changeAccess(buying, true, organisationId);
    setBuying(null);
  };

  const confirmGet = (organisationId?: string) => {
    if (getting) changeAccess(getting, true, organisationId);
    setGetting(null);
  };

  const confirmRemove = () => {
    if (removing) changeAccess(removing.item, false);
    setRemoving(null);
  };

  return {
    run,
    removeConfirmation: removing?.confirmation ?? null,
    confirmRemove,
    cancelRemove: () => setRemoving(null),
    busyId,
    buying,
    confirmBuy,
    cancelBuy: () => setBuying(null),
    /** Organisations the user may get or buy for. */
    organisations: editable,
    getting,
    confirmGet,
    cancelGet: () => setGetting(null),
    connecting,
    closeConnect: () => setConnecting(null),
  };
}
