import { priceAmount } from '../datastore/price';

/** What the confirmation before an action that cannot be undone says: what will happen, in plain words. */
export interface Confirmation {
  title: string;
  message: string;
  confirmLabel: string;
}

/**
 * Removing a dataset's access asks first only when it was paid for: a free one can be got again
 * with one click, a paid one would have to be bought again.
 */
export function removeAccessConfirmation(item: {
  title: string;
  price: number | string;
}): Confirmation | null {
  if (priceAmount(item.price) <= 0) return null;
  return {
    title: 'Remove this dataset?',
    message: `You paid for “${item.title}”. Removing it ends your access to its rows and its stream links; you bought it once, so getting it back from its page costs nothing.`,
    confirmLabel: 'Remove access',
  };
}

export function removeConnectorConfirmation(title: string): Confirmation {
  return {
    title: 'Remove this connector?',
    message: `Removing “${title}” deletes its table with every row fetched so far, its settings and stored credentials, and stops its scheduled refreshes. Links that stream it stop working.`,
    confirmLabel: 'Remove connector',
  };
}

/**
 * What deleting an uploaded connector does, led by how many connections of other users stop
 * (worded like the count of holders a dataset's deletion takes access from).
 */
export function deleteConnectorMessage(otherConnections: number): string {
  const stopped =
    otherConnections === 0
      ? 'Nobody else has connected it.'
      : `${otherConnections} ${otherConnections === 1 ? 'connection of another user stops' : 'connections of other users stop'}.`;
  return `${stopped} Every connection goes with its table and its stream links. This cannot be undone.`;
}

export const NEW_KEY_CONFIRMATION: Confirmation = {
  title: 'Generate a new API key?',
  message:
    'Your current key stops working at once: every stream link and BI report that uses it fails until you paste the new links into it.',
  confirmLabel: 'Generate New Key',
};
