import {
  deleteConnectorMessage,
  NEW_KEY_CONFIRMATION,
  removeAccessConfirmation,
  removeConnectorConfirmation,
} from './confirmTexts';

describe('confirmations before actions that cannot be undone', () => {
  it('asks before removing a paid dataset, saying that getting it back costs nothing', () => {
    const paid = removeAccessConfirmation({ title: 'Stocks', price: '19.99' });
    expect(paid?.message).toContain('“Stocks”');
    expect(paid?.message).toContain('getting it back from its page costs nothing');
    expect(paid?.message).not.toContain('buy it again');
    expect(removeAccessConfirmation({ title: 'Free data', price: 0 })).toBeNull();
  });

  it('says that removing a connector deletes its table and stops its refreshes', () => {
    const removal = removeConnectorConfirmation('Rates');
    expect(removal.message).toContain('“Rates”');
    expect(removal.message).toContain('deletes its table');
    expect(removal.message).toContain('scheduled refreshes');
  });

  it("says how many of other users' connections deleting an uploaded connector stops", () => {
    expect(deleteConnectorMessage(0)).toBe(
      'Nobody else has connected it. Every connection goes with its table and its stream links. This cannot be undone.',
    );
    expect(deleteConnectorMessage(1)).toMatch(/^1 connection of another user stops\. /);
    expect(deleteConnectorMessage(3)).toMatch(/^3 connections of other users stop\. /);
  });

  it('says that a new API key breaks the links using the old one', () => {
    expect(NEW_KEY_CONFIRMATION.message).toContain('stops working at once');
  });
});
