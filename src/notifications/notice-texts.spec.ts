import { archivedNotice } from './notice-texts';
import { columnsAddedNotice, productEndedNotice } from './product-notice-texts';

const ORIGIN = 'https://market.example';
const DATASET = { id: 'd1', title: 'Prices' };

describe('notice texts', () => {
  it('an archive notice says a live dataset is no longer refreshed; a file dataset’s does not', () => {
    expect(archivedNotice(ORIGIN, DATASET, true).text).toContain('It is no longer refreshed');
    expect(archivedNotice(ORIGIN, DATASET).text).not.toContain('refreshed');
  });

  it('an ended product links to its listing only while holders keep reading it', () => {
    expect(productEndedNotice(ORIGIN, DATASET, true).text).toContain(`${ORIGIN}/dataset_profile/d1`);
    const ended = productEndedNotice(ORIGIN, DATASET, false).text;
    expect(ended).not.toContain('/dataset_profile/');
    expect(ended).toContain(`${ORIGIN}/datastore`);
  });

  it('names the columns a refresh added', () => {
    expect(columnsAddedNotice(ORIGIN, DATASET, ['unit', 'note']).text).toContain(
      'added columns: unit, note.',
    );
  });
});
