import { orderTitle } from './orderTitle';

describe('orderTitle', () => {
  it('names the dataset, and says so once its owner has deleted it', () => {
    expect(orderTitle({ asset_id: 'a1', title: 'Harbour levels' })).toBe('Harbour levels');
    expect(orderTitle({ asset_id: null, title: 'Harbour levels' })).toBe(
      'Harbour levels (deleted by its owner)',
    );
  });
});
