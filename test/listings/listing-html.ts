import { DomUtils, parseDocument } from 'htmlparser2';

/** What a crawler reads in a page's <head>, parsed as an HTML parser does (no script is run). */
export interface ListingHead {
  title: string | undefined;
  meta: Record<string, string>;
  canonical: string | undefined;
  /** The text of each <script type="application/ld+json">, as the parser delimits it. */
  jsonLdBlocks: string[];
}

export function readHead(html: string): ListingHead {
  const document = parseDocument(html);
  const elements = (name: string) => DomUtils.getElementsByTagName(name, document);
  const meta: Record<string, string> = {};
  for (const element of elements('meta')) {
    const key = element.attribs.name ?? element.attribs.property;
    if (key && element.attribs.content !== undefined) meta[key] = element.attribs.content;
  }
  const [title] = elements('title');
  const canonical = elements('link').find((element) => element.attribs.rel === 'canonical');
  return {
    title: title && DomUtils.textContent(title),
    meta,
    canonical: canonical?.attribs.href,
    jsonLdBlocks: elements('script')
      .filter((element) => element.attribs.type === 'application/ld+json')
      .map((element) => DomUtils.textContent(element)),
  };
}

/** Every script element a browser would run (no type, or a JavaScript type). */
export function runnableScripts(html: string): string[] {
  return DomUtils.getElementsByTagName('script', parseDocument(html))
    .filter((element) => !element.attribs.type || element.attribs.type === 'module')
    .map((element) => element.attribs.src ?? DomUtils.textContent(element));
}
