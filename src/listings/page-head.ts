import { PRODUCT_NAME } from '../common/product';

/** What the server writes into a listing page's <head> before the app starts. */
export interface PageHead {
  title: string;
  description: string;
  canonicalUrl: string;
  image?: string;
  /** Open Graph's kind of page: a listing is a website, a blog post an article. */
  type?: 'website' | 'article';
  /** schema.org JSON-LD describing the listing. */
  jsonLd?: Record<string, unknown>;
  /** Kept out of search results (`<meta name="robots" content="noindex">`), e.g. the imprint. */
  noindex?: boolean;
}

/** Link previews cut descriptions short anyway; search engines show about 160 characters. */
const MAX_DESCRIPTION = 300;

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for HTML text and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]);
}

/**
 * JSON for inside a <script> element: `<`, `>` and `&` as \u escapes (still the same JSON), so a
 * title holding `</script>` or `<!--` cannot end the element; U+2028/2029 likewise, for old parsers.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** One line of at most MAX_DESCRIPTION characters, cut at a word. */
export function summary(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= MAX_DESCRIPTION) return line;
  const cut = line.slice(0, MAX_DESCRIPTION - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${lastSpace > MAX_DESCRIPTION / 2 ? cut.slice(0, lastSpace) : cut}…`;
}

/**
 * The head elements of a page: title, description, canonical link, Open Graph and Twitter card
 * tags, JSON-LD, and robots noindex where asked.
 */
export function renderHead(head: PageHead): string {
  const title = `${head.title} · ${PRODUCT_NAME}`;
  const description = summary(head.description);
  const meta = (attribute: 'name' | 'property', key: string, content: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(content)}" />`;
  return [
    `<title>${escapeHtml(title)}</title>`,
    meta('name', 'description', description),
    ...(head.noindex ? [meta('name', 'robots', 'noindex')] : []),
    `<link rel="canonical" href="${escapeHtml(head.canonicalUrl)}" />`,
    meta('property', 'og:type', head.type ?? 'website'),
    meta('property', 'og:site_name', PRODUCT_NAME),
    meta('property', 'og:title', head.title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', head.canonicalUrl),
    ...(head.image ? [meta('property', 'og:image', head.image)] : []),
    meta('name', 'twitter:card', head.image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', head.title),
    meta('name', 'twitter:description', description),
    ...(head.image ? [meta('name', 'twitter:image', head.image)] : []),
    ...(head.jsonLd ? [`<script type="application/ld+json">${scriptSafeJson(head.jsonLd)}</script>`] : []),
  ].join('\n    ');
}

/**
 * index.html with the page's head: the build's own title, description and robots line give way to
 * the page's, everything else (scripts, styles, icons) stays as built.
 */
export function withHead(indexHtml: string, head: PageHead): string {
  const withoutDefaults = indexHtml
    .replace(/<title>[\s\S]*?<\/title>\s*/i, '')
    .replace(/<meta\s+name="description"[^>]*>\s*/i, '')
    .replace(/<meta\s+name="robots"[^>]*>\s*/i, '');
  const closing = withoutDefaults.search(/<\/head>/i);
  if (closing < 0) {
    // A page without a head of its own gets one right after its doctype.
    const doctype = withoutDefaults.match(/^\s*<!doctype[^>]*>/i)?.[0] ?? '';
    return `${doctype}<head>${renderHead(head)}</head>${withoutDefaults.slice(doctype.length)}`;
  }
  return `${withoutDefaults.slice(0, closing)}  ${renderHead(head)}\n  ${withoutDefaults.slice(closing)}`;
}
