import { sanitizeBlogHtml } from './blog-html.sanitizer';

/** Payloads from the usual XSS cheat sheets; none may survive in an executable form. */
const XSS_CORPUS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://evil.test/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<img src="javascript:alert(1)">',
  '<p onclick="alert(1)" onmouseover=alert(2)>hover</p>',
  '<a href="javascript:alert(1)">click</a>',
  '<a href="JaVaScRiPt:alert(1)">click</a>',
  '<a href="jav&#x09;ascript:alert(1)">click</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">click</a>',
  '<a href=" javascript:alert(1)">click</a>',
  '<a href="vbscript:msgbox(1)">click</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">click</a>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<svg onload=alert(1)><script>alert(2)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  '<style>body{background:url("javascript:alert(1)")}</style>',
  '<p style="background-image:url(javascript:alert(1))">styled</p>',
  '<div style="width: expression(alert(1))">old IE</div>',
  '<iframe src="https://evil.test"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="https://evil.test/x.swf"></object><embed src="https://evil.test/x.swf">',
  '<form action="https://evil.test"><input name=x><button>go</button></form>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="https://evil.test/">',
  '<link rel=stylesheet href="https://evil.test/x.css">',
  '<body onload=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<video><source onerror=alert(1)></video>',
  '<a href="//evil.test/phish">protocol relative</a>',
  '<<script>script>alert(1)<</script>/script>',
  '<img """><script>alert(1)</script>">',
  '<!--<img src="--><img src=x onerror=alert(1)//">',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
];

const DANGER = [
  /<script/i,
  /<\/?(iframe|object|embed|svg|math|style|form|input|meta|base|link|body|video|source|details)\b/i,
  /\son[a-z]+\s*=/i,
  /javascript:/i,
  /vbscript:/i,
  /data:/i,
  /style\s*=/i,
  /href="\/\//i,
];

describe('sanitizeBlogHtml', () => {
  it.each(XSS_CORPUS)('leaves nothing executable of %s', (payload) => {
    const clean = sanitizeBlogHtml(payload);
    for (const pattern of DANGER) expect(clean).not.toMatch(pattern);
    // Sanitising is stable: the output is already inside the allow-list.
    expect(sanitizeBlogHtml(clean)).toBe(clean);
  });

  it('keeps the rich content a post needs', () => {
    const html = [
      '<h2>Heading</h2><p>Some <strong>bold</strong>, <em>italic</em> and <code>code</code>.</p>',
      '<ul><li>one</li></ul><ol start="3"><li>three</li></ol>',
      '<blockquote>quote</blockquote><pre><code class="language-sql">SELECT 1;</code></pre>',
      '<table><thead><tr><th scope="col">A</th></tr></thead><tbody><tr><td colspan="2">1</td></tr></tbody></table>',
      '<img src="https://cdn.example.com/a.png" alt="chart" /><img src="/images/blog/a.svg" alt="local" />',
    ].join('');
    expect(sanitizeBlogHtml(html)).toBe(html);
  });

  it('keeps http, https, mailto and site links and adds rel="noopener noreferrer"', () => {
    expect(sanitizeBlogHtml('<a href="https://example.com" rel="opener" target="_blank">x</a>')).toBe(
      '<a href="https://example.com" rel="noopener noreferrer" target="_blank">x</a>',
    );
    expect(sanitizeBlogHtml('<a href="mailto:hi@example.com">mail</a>')).toBe(
      '<a href="mailto:hi@example.com" rel="noopener noreferrer">mail</a>',
    );
    expect(sanitizeBlogHtml('<a href="/blog/other">site</a>')).toBe(
      '<a href="/blog/other" rel="noopener noreferrer">site</a>',
    );
  });

  it('keeps only http(s) and site-path image sources', () => {
    expect(sanitizeBlogHtml('<img src="mailto:x@example.com">')).toBe('<img />');
    expect(sanitizeBlogHtml('<img src="relative/a.png" alt="a">')).toBe('<img alt="a" />');
    expect(sanitizeBlogHtml('<img src="/\\evil.test/a.png">')).toBe('<img />');
    expect(sanitizeBlogHtml('<img src="http://example.com/a.png">')).toBe(
      '<img src="http://example.com/a.png" />',
    );
  });
});
