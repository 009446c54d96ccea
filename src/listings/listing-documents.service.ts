import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '../access/access-gate.service';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { dataPackage } from './data-package';
import { dcatCatalog } from './dcat-catalog';
import { ListingLinks } from './listing-links';
import { PublicListingsService } from './public-listings.service';
import { robotsTxt, SitemapEntry, sitemapXml } from './sitemap';

/** App pages worth indexing besides the listings (no login, no noindex). */
const INDEXED_PAGES = [
  '/',
  '/datastore',
  '/blog',
  '/use-cases',
  '/about',
  '/documentation',
  '/dataapps',
  '/contact',
];

/** The machine-readable documents about the catalogue: sitemap, robots.txt, data packages, DCAT. */
@Injectable()
export class ListingDocumentsService {
  private readonly links: ListingLinks;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly listings: PublicListingsService,
  ) {
    this.links = new ListingLinks(config.appOrigin);
  }

  robots(): string {
    return robotsTxt(this.links.sitemap());
  }

  async sitemap(): Promise<string> {
    const [datasets, connectors, posts] = await Promise.all([
      this.listings.publicDatasets(),
      this.listings.publicConnectors(),
      this.listings.blogPosts(),
    ]);
    const entries: SitemapEntry[] = [
      ...INDEXED_PAGES.map((path) => ({ url: this.links.page(path) })),
      ...datasets.map((asset) => ({
        url: this.links.datasetPage(asset.id),
        lastModified: asset.dataUpdatedAt > asset.updatedAt ? asset.dataUpdatedAt : asset.updatedAt,
      })),
      ...connectors.map((connector) => ({
        url: this.links.connectorPage(connector.id),
        lastModified: connector.updatedAt,
      })),
      ...posts.map((post) => ({ url: this.links.blogPost(post.slug), lastModified: post.createdAt })),
    ];
    return sitemapXml(entries);
  }

  /** The Data Package of a dataset the caller may see (404 "Dataset not found" otherwise). */
  async dataPackage(caller: Caller, id: string): Promise<Record<string, unknown>> {
    return dataPackage(await this.listings.datasetFor(caller, id), this.links);
  }

  async dcat(): Promise<Record<string, unknown>> {
    const [datasets, connectors] = await Promise.all([
      this.listings.publicDatasets(),
      this.listings.publicConnectors(),
    ]);
    return dcatCatalog(datasets, connectors, this.links);
  }
}
