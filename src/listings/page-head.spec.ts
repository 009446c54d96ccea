import { escapeHtml, scriptSafeJson, summary, withHead } from './page-head';

const head = {
  title: 'Tides & <waves>',
  description: 'Levels',
  canonicalUrl: 'https://example.org/dataset_profile/1',
  jsonLd: { name: '</script><script>alert(1)</script>' },
};

describe('page head', () => {
  it('escapes every character that could end an attribute or open a tag', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('writes JSON that no </script> or <!-- can end early and that parses back to the same value', () => {
    const value = { name: '</script><!-- & \u2028' };
    const json = scriptSafeJson(value);
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual(value);
  });

  it('cuts a long description at a word, on one line', () => {
    const text = `${'word '.repeat(100)}\nend`;
    const cut = summary(text);
    expect(cut.length).toBeLessThanOrEqual(300);
    expect(cut).toMatch(/word…$/);
    expect(summary('one\n two')).toBe('one two');
  });

  it("replaces the build's title and description and keeps the rest of the page", () => {
    const built =
      '<html><head><meta name="description" content="default" /><title>App</title>' +
      '<script type="module" src="/assets/a.js"></script></head><body></body></html>';
    const page = withHead(built, head);
    expect(page).not.toContain('<title>App</title>');
    expect(page).not.toContain('content="default"');
    expect(page).toContain('<title>Tides &amp; &lt;waves&gt; · Data Marketplace</title>');
    expect(page).toContain('<script type="module" src="/assets/a.js"></script>');
    expect(page).toContain('\\u003c/script\\u003e');
    expect(page.indexOf('application/ld+json')).toBeLessThan(page.indexOf('</head>'));
  });

  it('gives a page without a head one after its doctype', () => {
    const page = withHead('<!doctype html><div id="root"></div>', head);
    expect(page).toMatch(/^<!doctype html><head><title>/);
    expect(page).toContain('<div id="root"></div>');
  });
});
