import { cardAction, priceNote, profilePath, showsPrice } from './catalogItem';

const dataset = { kind: 'dataset' as const, price: '0', hasAccess: false, hasInstance: false };
const connector = { kind: 'connector' as const, price: '0', hasAccess: false, hasInstance: false };

describe('cardAction', () => {
  it('reads Connect for a connector the user has not connected', () => {
    expect(cardAction(connector)).toBe('Connect');
  });

  it('reads Manage for a connector the user has an instance of', () => {
    expect(cardAction({ ...connector, hasInstance: true })).toBe('Manage');
  });

  it('reads Connect for a paid connector too (connectors are never bought from the card)', () => {
    expect(cardAction({ ...connector, price: '9.99' })).toBe('Connect');
  });

  it('reads Remove for a dataset the user has access to, even a paid one', () => {
    expect(cardAction({ ...dataset, hasAccess: true, price: '20' })).toBe('Remove');
  });

  it('reads Buy for a dataset priced above zero without access', () => {
    expect(cardAction({ ...dataset, price: '0.01' })).toBe('Buy');
  });

  it('reads Get for a free dataset without access', () => {
    expect(cardAction(dataset)).toBe('Get');
  });

  it('reads Get again — free, with no price, for a paid dataset the user bought once and removed', () => {
    const removed = { ...dataset, price: '9.50', bought: true };
    expect(cardAction(removed)).toBe('Get again — free');
    expect(priceNote(removed)).toBe('Bought — free for you');
    expect(priceNote({ ...removed, bought: false })).toBeNull();
    expect(cardAction({ ...removed, hasAccess: true })).toBe('Remove');
  });

  it("offers nothing on the user's own dataset, which they hold and cannot remove", () => {
    expect(cardAction({ ...dataset, hasAccess: true, owned: true })).toBeNull();
    expect(cardAction({ ...connector, owned: true })).toBe('Connect');
  });
});

describe('showsPrice', () => {
  it('shows the price on datasets the user does not own', () => {
    expect(showsPrice({ kind: 'dataset', owned: false })).toBe(true);
  });

  it('hides the price on owned datasets and on connectors', () => {
    expect(showsPrice({ kind: 'dataset', owned: true })).toBe(false);
    expect(showsPrice({ kind: 'connector', owned: false })).toBe(false);
  });
});

describe('profilePath', () => {
  it('links datasets to /dataset_profile and connectors to /connector_profile', () => {
    expect(profilePath({ kind: 'dataset', id: 'a1' })).toBe('/dataset_profile/a1');
    expect(profilePath({ kind: 'connector', id: 'c1' })).toBe('/connector_profile/c1');
  });
});
