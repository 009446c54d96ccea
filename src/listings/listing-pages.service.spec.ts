import { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { ListingPagesService } from './listing-pages.service';
import type { PublicListingsService } from './public-listings.service';

const ID = '0b6e2f6c-1111-4222-8333-444455556666';
const config = { appOrigin: 'https://market.example' } as AppConfig;

/** Listings that cannot be read, as when the database is down. */
const unreadable = {
  publicDataset: () => Promise.reject(new Error('connection refused')),
  publicConnector: () => Promise.reject(new Error('connection refused')),
} as unknown as PublicListingsService;

describe('ListingPagesService', () => {
  it('serves the page as built when a listing cannot be read, and says why in the log', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const pages = new ListingPagesService(config, unreadable);
    await expect(
      pages.renderPage(`/dataset_profile/${ID}`, async () => '<html></html>'),
    ).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('connection refused'));
    warn.mockRestore();
  });

  it('leaves paths that are no listing alone without reading anything', async () => {
    const publicDataset = jest.fn();
    const pages = new ListingPagesService(config, { publicDataset } as unknown as PublicListingsService);
    const indexHtml = jest.fn(async () => '<html></html>');
    await expect(pages.renderPage('/datastore', indexHtml)).resolves.toBeUndefined();
    await expect(pages.renderPage(`/dataset_profile/${ID}/extra`, indexHtml)).resolves.toBeUndefined();
    expect(publicDataset).not.toHaveBeenCalled();
    expect(indexHtml).not.toHaveBeenCalled();
  });
});
