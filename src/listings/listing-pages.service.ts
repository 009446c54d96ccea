import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ListingLinks } from './listing-links';
import { PageHead, withHead } from './page-head';
import { PublicListingsService } from './public-listings.service';
import { blogPostJsonLd, connectorJsonLd, datasetJsonLd } from './schema-org';
import { excerptOf } from '../blog/blog-search';

const LISTING_PAGE = /^\/(dataset|connector)_profile\/([^/]+)\/?$/;
const BLOG_POST_PAGE = /^\/blog\/([^/]+)\/?$/;
const IMPRINT_PAGE = /^\/imprint\/?$/;

/** The imprint names the operator: needed by law, of no use in search results. */
const IMPRINT_DESCRIPTION = 'Operator, privacy policy and legal notice of Data Marketplace.';

/**
 * The head of a public listing's page (dataset or connector detail), of a blog post and of the
 * imprint (noindex), for the server to write into index.html so that crawlers and link previews
 * see it without running the app.
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

  /** The head for an app path, or undefined when the path is no public listing, post or imprint. */
  async headFor(path: string): Promise<PageHead | undefined> {
    if (IMPRINT_PAGE.test(path)) {
      return {
        title: 'Imprint',
        description: IMPRINT_DESCRIPTION,
        canonicalUrl: this.links.page('/imprint'),
        noindex: true,
      };
    }
    const post = BLOG_POST_PAGE.exec(path);
    if (post) return this.blogPostHead(decodeURIComponent(post[1]));
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

  /** A post's title, teaser and cover as its page's head; /blog/new and unknown slugs have none. */
  private async blogPostHead(slug: string): Promise<PageHead | undefined> {
    const post = await this.listings.blogPost(slug);
    if (!post) return undefined;
    // The start of the text without its markup: tags part words, but never a word from its comma.
    const plain = post.content.replace(/<[^>]*>/g, ' ').replace(/\s+([,.;:!?])/g, '$1');
    const description = excerptOf(plain, 300);
    return {
      title: post.title,
      description,
      canonicalUrl: this.links.blogPost(post.slug),
      image: this.links.image(post.coverImage),
      type: 'article',
      jsonLd: blogPostJsonLd(post, description, this.links),
    };
  }
}
