import sanitizeHtml from 'sanitize-html';

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
const TEXT = [
  'p',
  'br',
  'hr',
  'blockquote',
  'pre',
  'code',
  'em',
  'strong',
  'b',
  'i',
  'u',
  's',
  'sub',
  'sup',
  'span',
  'div',
];
const LISTS = ['ul', 'ol', 'li'];
const TABLES = ['table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'colgroup', 'col'];
const MEDIA = ['a', 'img', 'figure', 'figcaption'];

/**
 * The allow-list for blog HTML. Everything else (scripts, styles, frames, SVG, forms, event
 * handlers, style attributes) is dropped; links keep only http(s)/mailto, images only http(s)
 * or paths on this site, and every link gets rel="noopener noreferrer".
 */
const BLOG_HTML_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...HEADINGS, ...TEXT, ...LISTS, ...TABLES, ...MEDIA],
  allowedAttributes: {
    a: ['href', 'title', 'rel', { name: 'target', values: ['_blank'] }],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
    ol: ['start'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
    col: ['span'],
    colgroup: ['span'],
    code: ['class'],
  },
  allowedClasses: { code: ['language-*'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // The text of these is never content: a dropped <script> or <style> leaves nothing behind.
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'noscript',
    'title',
    'iframe',
    'object',
    'svg',
    'math',
    'template',
  ],
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: 'noopener noreferrer' } }),
    img: (tagName, attribs) => {
      if (attribs.src === undefined || isImageSource(attribs.src)) return { tagName, attribs };
      const { src: _dropped, ...rest } = attribs;
      return { tagName, attribs: rest };
    },
  },
};

/** An absolute http(s) URL or a path on this site (one leading slash); relative paths are ambiguous. */
function isImageSource(src: string): boolean {
  const value = src.trim();
  return /^https?:\/\//i.test(value) || /^\/(?![/\\])/.test(value);
}

/** Makes client-supplied blog HTML safe to render as is (stored XSS is impossible). */
export function sanitizeBlogHtml(html: string): string {
  return sanitizeHtml(html, BLOG_HTML_OPTIONS);
}
