import { ApiError } from '../../api/client';
import {
  connectNeedsSetup,
  detailAction,
  detailCategory,
  sharePercent,
  FAILED_TO_LOAD,
  isValidId,
  ITEM_NOT_FOUND,
  loadErrorMessage,
} from './detailRules';

describe('detailAction', () => {
  it('reads Remove whenever the user has access, for datasets and connectors', () => {
    expect(detailAction({ kind: 'dataset', hasAccess: true, price: '5' })).toBe('Remove');
    expect(detailAction({ kind: 'connector', hasAccess: true, price: '0' })).toBe('Remove');
  });

  it("offers nothing on the user's own dataset, but keeps Remove on their own connector's instance", () => {
    expect(detailAction({ kind: 'dataset', hasAccess: true, price: '5', owned: true })).toBeNull();
    expect(detailAction({ kind: 'connector', hasAccess: true, price: '0', owned: true })).toBe('Remove');
  });

  it('reads Connect for a connector without access, whatever its price', () => {
    expect(detailAction({ kind: 'connector', hasAccess: false, price: '5' })).toBe('Connect');
  });

  it('reads Buy for a dataset above 0 and Get for a free one', () => {
    expect(detailAction({ kind: 'dataset', hasAccess: false, price: '0.5' })).toBe('Buy');
    expect(detailAction({ kind: 'dataset', hasAccess: false, price: '0.00' })).toBe('Get');
  });

  it('reads Get again — free for a paid dataset bought once and removed, never Buy', () => {
    expect(detailAction({ kind: 'dataset', hasAccess: false, price: '9.50', bought: true })).toBe(
      'Get again — free',
    );
  });
});

describe('detailCategory', () => {
  it('defaults to API for connectors without a category', () => {
    expect(detailCategory('connector', '')).toBe('API');
    expect(detailCategory('connector', null)).toBe('API');
  });

  it('keeps the given category', () => {
    expect(detailCategory('connector', 'Weather')).toBe('Weather');
    expect(detailCategory('dataset', 'Finance')).toBe('Finance');
  });
});

describe('isValidId', () => {
  it('accepts UUIDs and refuses anything else', () => {
    expect(isValidId('6f1c2a9e-3b1d-4c55-9a7e-0f1e2d3c4b5a')).toBe(true);
    expect(isValidId('42')).toBe(false);
    expect(isValidId(undefined)).toBe(false);
  });
});

describe('loadErrorMessage', () => {
  it("says 'Item not found' for a missing item", () => {
    expect(loadErrorMessage(new ApiError(404, 'Not found', {}))).toBe(ITEM_NOT_FOUND);
  });

  it("says 'Failed to load data.' for server and network failures", () => {
    expect(loadErrorMessage(new ApiError(500, 'Internal server error', {}))).toBe(FAILED_TO_LOAD);
    expect(loadErrorMessage(new TypeError('Failed to fetch'))).toBe(FAILED_TO_LOAD);
  });
});

describe('connectNeedsSetup', () => {
  it('sends connectors with required settings, nested ones too, to the setup form', () => {
    expect(connectNeedsSetup([{ required: true }])).toBe(true);
    expect(connectNeedsSetup([{ fields: [{ required: true }] }])).toBe(true);
  });

  it('connects directly when nothing is required', () => {
    expect(connectNeedsSetup([{ required: false }, { include: false, required: true }])).toBe(false);
    expect(connectNeedsSetup(undefined)).toBe(false);
  });

  it('connects directly when every required setting has a default', () => {
    expect(connectNeedsSetup([{ required: true, default: 'latest' }, { required: false }])).toBe(false);
    expect(connectNeedsSetup([{ fields: [{ required: true, default: 52.5 }] }])).toBe(false);
  });
});

describe('sharePercent', () => {
  it('rounds to whole percent but never shows a present share as 0%', () => {
    expect(sharePercent(1 / 3)).toBe('33%');
    expect(sharePercent(0.001)).toBe('<1%');
    expect(sharePercent(0)).toBe('0%');
  });
});
