import { XMLBuilder } from 'fast-xml-parser';

export interface SitemapEntry {
  url: string;
  lastModified?: Date;
}

/** A sitemap file lists at most 50,000 addresses (sitemaps.org). */
export const MAX_SITEMAP_URLS = 50_000;

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@', format: true });

/** The sitemaps.org XML of the entries, cut at MAX_SITEMAP_URLS; the builder escapes the text. */
export function sitemapXml(entries: SitemapEntry[]): string {
  return builder.build({
    '?xml': { '@version': '1.0', '@encoding': 'UTF-8' },
    urlset: {
      '@xmlns': 'http://www.sitemaps.org/schemas/sitemap/0.9',
      url: entries.slice(0, MAX_SITEMAP_URLS).map((entry) => ({
        loc: entry.url,
        ...(entry.lastModified ? { lastmod: entry.lastModified.toISOString() } : {}),
      })),
    },
  }) as string;
}

/** Crawlers may read the app's pages, not its API or the pages behind a login. */
export function robotsTxt(sitemapUrl: string): string {
  return [
    'User-agent: *',
    'Disallow: /api/',
    'Allow: /api/catalog/',
    'Disallow: /account',
    'Disallow: /manage',
    'Disallow: /upload',
    'Disallow: /connector-setup/',
    '',
    `Sitemap: ${sitemapUrl}`,
    '',
  ].join('\n');
}
