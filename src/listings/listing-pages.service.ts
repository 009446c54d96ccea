import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ListingLinks } from './listing-links';
import { PageHead, withHead } from './page-head';
import { PublicListingsService } from './public-listings.service';
import { connectorJsonLd, datasetJsonLd } from './schema-org';

const LISTING_PAGE = /^\/(dataset|connector)_profile\/([^/]+)\/?$/;

/**
 * The head of a public listing's page (dataset or connector detail), for the server to write into
 * index.html so that crawlers and link previews see it without running the app.
 */
@Injectable()
export class ListingPagesService {
  private readonly logger = new Logger(ListingPagesService.name);
  private readonly links: ListingLinks;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly listings: PublicListingsService,
  ) {
    this.links = new ListingLinks(config.appOrigin);
  }

  /**
   * index.html with the listing's head for a public listing's path, else undefined (as built). A
   * listing that cannot be read (database down) also gets the page as built: the app then shows
   * its own message, where a failed render would leave the visitor with no page at all.
   */
  async renderPage(path: string, indexHtml: () => Promise<string>): Promise<string | undefined> {
    try {
      const head = await this.headFor(path);
      return head && withHead(await indexHtml(), head);
    } catch (error) {
      this.logger.warn(`Listing head of ${path} left out: ${(error as Error).message}`);
      return undefined;
    }
  }

  /** The head for an app path, or undefined when the path is no public listing. */
  async headFor(path: string): Promise<PageHead | undefined> {
    const match = LISTING_PAGE.exec(path);
    if (!match) return undefined;
    const [, kind, id] = match;
    if (kind === 'dataset') {
      const asset = await this.listings.publicDataset(id);
      if (!asset) return undefined;
      const jsonLd = datasetJsonLd(asset, this.links);
      return {
        title: asset.title,
        description: jsonLd.description as string,
        canonicalUrl: this.links.datasetPage(asset.id),
        image: this.links.image(asset.image),
        jsonLd,
      };
    }
    const connector = await this.listings.publicConnector(id);
    if (!connector) return undefined;
    const jsonLd = connectorJsonLd(connector, this.links);
    return {
      title: connector.title,
      description: jsonLd.description as string,
      canonicalUrl: this.links.connectorPage(connector.id),
      image: this.links.image(connector.image),
      jsonLd,
    };
  }
}
