/**
 * The public addresses of a listing, all absolute on APP_ORIGIN: search engines, link previews and
 * harvesters read them outside the app, so a relative path would mean nothing to them.
 */
export class ListingLinks {
  constructor(private readonly origin: string) {}

  home(): string {
    return `${this.origin}/`;
  }

  page(path: string): string {
    return `${this.origin}${path}`;
  }

  datasetPage(id: string): string {
    return this.page(`/dataset_profile/${id}`);
  }

  connectorPage(id: string): string {
    return this.page(`/connector_profile/${id}`);
  }

  blogPost(slug: string): string {
    return this.page(`/blog/${encodeURIComponent(slug)}`);
  }

  /** The OData entity set of a dataset: BI tools read it with the holder's API key. */
  odataFeed(readableName: string): string {
    return this.page(`/api/odata/${readableName}`);
  }

  /** Every row as CSV: needs the holder's API key (`api_key=` or `X-API-Key`). */
  csvDownload(readableName: string): string {
    return this.page(`/api/stream/data/${readableName}?format=csv`);
  }

  dataPackage(id: string): string {
    return this.page(`/api/assets/${id}/datapackage.json`);
  }

  dcatCatalog(): string {
    return this.page('/api/catalog/dcat.jsonld');
  }

  sitemap(): string {
    return this.page('/sitemap.xml');
  }

  /** An image as an absolute http(s) address, or undefined for anything else (data:, javascript:). */
  image(image: string | null): string | undefined {
    if (!image) return undefined;
    try {
      const url = new URL(image, this.origin);
      return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
    } catch {
      return undefined;
    }
  }
}
