import { assetToItem, connectorToItem } from './toCatalogItems';

const asset = {
  id: 'a1',
  title: 'Prices',
  description: 'd',
  category: 'Finance',
  price: 0,
  is_public: true,
  subscriber_count: 0,
};

describe('catalogue items', () => {
  it('mark a private dataset Private, by visibility or by is_public', () => {
    expect(assetToItem({ ...asset, visibility: 'private' }).isPrivate).toBe(true);
    expect(assetToItem({ ...asset, is_public: false }).isPrivate).toBe(true);
    expect(assetToItem(asset).isPrivate).toBe(false);
  });

  it('carry a recurring price with its trial, so Buy is confirmed as a subscription', () => {
    const monthly = assetToItem({ ...asset, price: 9.99, billing_interval: 'month', trial_days: 14 });
    expect(monthly).toMatchObject({ billingInterval: 'month', trialDays: 14 });
    expect(assetToItem({ ...asset, billing_interval: null }).billingInterval).toBeUndefined();
  });

  it("carry a live dataset's last change and stale time for its card; an uploaded one has none", () => {
    const live = { ...asset, live: true, data_updated_at: '2026-03-10T11:48:00Z', stale_since: null };
    expect(assetToItem(live).live).toEqual({ updatedAt: '2026-03-10T11:48:00Z', staleSince: null });
    expect(assetToItem({ ...live, live: false }).live).toBeUndefined();
    expect(assetToItem(asset).live).toBeUndefined();
  });

  it('count the owner of a dataset as having access', () => {
    expect(assetToItem({ ...asset, owned: true }).hasAccess).toBe(true);
  });

  it('mark a connector the user has an instance of as connected, and default its category to API', () => {
    const connector = {
      id: 'c1',
      title: 'Weather',
      description: '',
      price: 0,
      is_public: true,
      subscriber_count: 1,
    };
    const item = connectorToItem({ ...connector, has_instance: true });
    expect(item).toMatchObject({ kind: 'connector', hasInstance: true, category: 'API', needsSetup: false });
  });
});

describe('connector needing setup', () => {
  it('is flagged when a schema field is required', () => {
    const connector = {
      id: 'c1',
      title: 'W',
      description: '',
      price: 0,
      is_public: true,
      subscriber_count: 0,
    };
    expect(connectorToItem({ ...connector, schema: { fields: [{ required: true }] } }).needsSetup).toBe(true);
  });
});
