import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { MAX_SITEMAP_URLS, robotsTxt, sitemapXml } from './sitemap';

describe('sitemap', () => {
  it('escapes addresses so the XML stays valid and reads back the same', () => {
    const url = 'https://example.org/blog/a?x=1&y=<2>';
    const xml = sitemapXml([{ url, lastModified: new Date('2026-01-02T03:04:05Z') }]);
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ isArray: (name) => name === 'url' }).parse(xml);
    expect(parsed.urlset.url).toEqual([{ loc: url, lastmod: '2026-01-02T03:04:05.000Z' }]);
  });

  it('lists at most 50,000 addresses, as sitemaps.org allows', () => {
    const entries = Array.from({ length: MAX_SITEMAP_URLS + 2 }, (_, index) => ({
      url: `https://e.org/${index}`,
    }));
    const parsed = new XMLParser({ isArray: (name) => name === 'url' }).parse(sitemapXml(entries));
    expect(parsed.urlset.url).toHaveLength(MAX_SITEMAP_URLS);
  });

  it('points robots.txt to the sitemap', () => {
    expect(robotsTxt('https://example.org/sitemap.xml')).toContain(
      '\nSitemap: https://example.org/sitemap.xml\n',
    );
  });
});
