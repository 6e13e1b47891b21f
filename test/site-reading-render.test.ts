// The published site's renderer (server/published/render-markdown.ts) on GitBook-flavoured Markdown, without
// a server: each block as its HTML, and the content held to the sanitizer's rules whatever it holds.
import { describe, expect, it } from 'vitest';
import { documentToMarkdown, markdownToDocument } from '../server/content/markdown-document.js';
import type { MarkdownRefs } from '../server/content/markdown-refs.js';
import { renderMarkdownPage } from '../server/published/render-markdown.js';
import { highlightedExcerpt } from '../server/published/site-search.js';
import { scriptGzipBytes } from '../server/published/site-assets.js';

const render = async (markdown: string, embed?: Parameters<typeof renderMarkdownPage>[1]) => (await renderMarkdownPage(markdown, embed)).html;

describe('published page renderer', () => {
  it('keeps no script, handler, style, frame or javascript: URL of the content, and KaTeX trusts no TeX', async () => {
    const html = await render(
      [
        'Text <script>alert(1)</script><img src=x onerror="alert(2)"> <a href="javascript:alert(3)">x</a> [y](javascript:alert(4))',
        '',
        '<iframe src="https://www.youtube.com/embed/abc"></iframe><style>body{display:none}</style><div onclick="alert(5)" class="gb-tabs evil">z</div>',
        '',
        '<a href="https://x.example" class="button primary evil" style="color:red">Go</a> <i class="fa-github onclick">i</i>',
        '',
        '$$\\href{javascript:alert(6)}{click}$$',
      ].join('\n'),
    );
    expect(html).not.toMatch(/<script|onerror|onclick|(href|src)="javascript:|<iframe|<style|display:none|style="color:red"|evil|role="tablist"/i);
    expect(html).toContain('<a href="https://x.example" class="button button-primary">Go</a>');
    expect(html).toContain('class="katex"');
    expect(html).not.toMatch(/<a [^>]*href="javascript/);
  });

  it('typesets math on the server as HTML and MathML, inline and as a block', async () => {
    const html = await render('Energy $$E = mc^2$$ here.\n\n$$\n\\int_0^1 x\\,dx\n$$');
    expect(html.match(/<span class="katex">/g)).toHaveLength(2);
    expect(html.match(/<math xmlns="http:\/\/www.w3.org\/1998\/Math\/MathML"/g)).toHaveLength(2);
    expect(html).toContain('<annotation encoding="application/x-tex">E = mc^2</annotation>');
    expect(html).toMatch(/<div class="math-block"><span class="katex-display">/);
  });

  it('highlights code with Shiki, its title, line numbers, wrapping and copy button, right from the first block', async () => {
    const html = await render('{% code title="robot.ts" lineNumbers="true" overflow="wrap" %}\n```ts\nimport { Robot } from "acme";\nconst a = 1;\n```\n{% endcode %}\n\n```unknown-lang\nplain <b>text</b>\n```');
    expect(html).toContain('<div class="code-block line-numbers wrap"><div class="code-header"><span class="code-title">robot.ts</span><button type="button" class="copy">Copy</button></div>');
    expect(html).toContain('<span style="color:#CF222E;--shiki-dark:#FF7B72">import</span><span style="color:#1F2328;--shiki-dark:#E6EDF3"> { Robot } </span>');
    expect(html.match(/<span class="line">/g)).toHaveLength(3);
    // A language without a grammar: its lines as they are, escaped once.
    expect(html).toContain('<pre class="plain" tabindex="0" data-language="unknown-lang"><code><span class="line">plain &#x3C;b>text&#x3C;/b></span></code></pre>');
  });

  it('writes tabs as the ARIA tabs pattern with every panel under its title', async () => {
    const html = await render('{% tabs %}\n{% tab title="npm" %}\nOne.\n{% endtab %}\n\n{% tab title="Yarn" %}\nTwo.\n{% endtab %}\n{% endtabs %}');
    expect(html).toContain(
      '<div class="tabs"><div class="tablist" role="tablist" aria-label="npm, Yarn"><button type="button" role="tab" id="tab-1-1" aria-controls="panel-1-1" aria-selected="true" tabindex="0">npm</button><button type="button" role="tab" id="tab-1-2" aria-controls="panel-1-2" aria-selected="false" tabindex="-1">Yarn</button></div>',
    );
    expect(html).toContain('<section class="tab-panel" role="tabpanel" id="panel-1-2" aria-labelledby="tab-1-2" tabindex="0"><p class="tab-title">Yarn</p>');
    expect(html).toContain('<p>Two.</p>');
  });

  it('builds steppers, columns, updates, expandables, figures, cards, link cards, files, embeds, icons and custom hints', async () => {
    const embed = (url: string) => (url === 'https://www.youtube.com/watch?v=abc' ? { title: 'A talk', site: 'YouTube', frame: { src: 'https://www.youtube.com/embed/abc', title: 'A talk' } } : undefined);
    const html = await render(
      [
        '{% stepper %}\n{% step %}\nFirst.\n{% endstep %}\n\n{% step %}\nSecond.\n{% endstep %}\n{% endstepper %}',
        '{% columns %}\n{% column width="30" %}\nLeft.\n{% endcolumn %}\n\n{% column %}\nRight.\n{% endcolumn %}\n{% endcolumns %}',
        '{% updates %}\n{% update date="2026-11-01" %}\nShipped.\n{% endupdate %}\n{% endupdates %}',
        '<details>\n<summary>More</summary>\n\nHidden.\n\n</details>',
        '<figure><img src="https://img.example/a.png" alt="A robot"><figcaption><p>Caption</p></figcaption></figure>',
        '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead><tbody><tr><td>Card <a href="https://in.example">inner</a></td><td><a href="https://a.example/">a</a></td></tr></tbody></table>',
        '{% content-ref url="https://docs.example/ref" %}\n[Reference](https://docs.example/ref)\n{% endcontent-ref %}',
        '{% file src="https://files.example/~files/f1/report%20final.pdf" %}\nThe report.\n{% endfile %}',
        '{% embed url="https://www.youtube.com/watch?v=abc" %}',
        '<p><i class="fa-rocket">:rocket:</i></p>',
        '- item\n\n  <div data-gb-custom-block data-tag="hint" data-style="warning"><p>Careful.</p></div>',
        '- [x] Done task',
      ].join('\n\n'),
      embed,
    );
    expect(html).toContain('<ol class="stepper"><li class="step">\n<p>First.</p>\n</li><li class="step">\n<p>Second.</p>\n</li></ol>');
    expect(html).toContain('<div class="columns"><div class="column" style="flex:30 1 0">\n<p>Left.</p>\n</div><div class="column">\n<p>Right.</p>\n</div></div>');
    expect(html).toContain('<section class="update"><p class="update-date"><time datetime="2026-11-01">2026-11-01</time></p>');
    expect(html).toContain('<details class="expandable">\n<summary>More</summary>\n<p>Hidden.</p>\n</details>');
    expect(html).toContain('<figure class="image"><a class="zoom" href="https://img.example/a.png" aria-label="Enlarge image: A robot"><img src="https://img.example/a.png" alt="A robot"></a><figcaption>Caption</figcaption></figure>');
    // A card is one link: the links inside it are text.
    expect(html).toContain('<div class="cards"><a class="card" href="https://a.example/"><div class="card-body"><div>Card <span>inner</span></div></div></a></div>');
    expect(html).toContain('<a class="link-card" href="https://docs.example/ref"><span aria-hidden="true">📄</span><strong>Reference</strong><span class="card-kind">Page</span></a>');
    expect(html).toContain('<a class="link-card" href="https://files.example/~files/f1/report%20final.pdf" download><span aria-hidden="true">📎</span><strong>report final.pdf</strong><span class="card-kind">Download</span></a>');
    expect(html).toContain(
      '<div class="embed"><iframe src="https://www.youtube.com/embed/abc" title="A talk" loading="lazy" allowfullscreen sandbox="allow-scripts allow-same-origin allow-popups allow-presentation" referrerpolicy="strict-origin-when-cross-origin"></iframe><a class="link-card" href="https://www.youtube.com/watch?v=abc">',
    );
    expect(html).toContain('<span class="icon" role="img" aria-label="rocket">🚀</span>');
    expect(html).toContain('<aside class="hint hint-warning" role="note"><p>Careful.</p></aside>');
    expect(html).toContain('<input type="checkbox" checked disabled aria-label="Done">');
  });

  it('links footnotes (annotations) both ways under one prefix, and outlines the headings', async () => {
    const page = await renderMarkdownPage('## Start\n\nA claim[^1].\n\n### Detail\n\nMore.\n\n[^1]: The source.');
    expect(page.html).toContain('<a href="#user-content-fn-1" id="user-content-fnref-1" data-footnote-ref');
    expect(page.html).toContain('<li id="user-content-fn-1">');
    expect(page.html).toContain('<h2 class="sr-only" id="user-content-footnote-label">Footnotes</h2>');
    expect(page.outline).toEqual([
      { id: 'start', title: 'Start', depth: 2 },
      { id: 'detail', title: 'Detail', depth: 3 },
    ]);
  });

  it('renders inline buttons, icons, mention chips and annotations inside a paragraph, from the Document', async () => {
    // The site's references (ref-resolver.ts siteRefs): a page is a URL here, a user has none (their name).
    const refs: MarkdownRefs = {
      write: (ref) => (ref?.kind === 'page' ? `/docs/${ref.page}` : ref?.kind === 'url' ? ref.url : ''),
      read: (url) => (url.startsWith('usr_') ? { kind: 'user', user: url } : url.startsWith('pag_') ? { kind: 'page', page: url } : { kind: 'url', url }),
      label: (ref) => (ref?.kind === 'user' ? 'Ada <Admin>' : 'Setup'),
      text: (ref) => (ref?.kind === 'user' ? 'Ada <Admin>' : undefined),
    };
    const document = markdownToDocument(
      'See [x](pag_01ABCDEFGHJK "mention") by [y](usr_01ABCDEFGHJK "mention") <i class="fa-bolt">:bolt:</i>, <a href="https://example.com/go" class="button secondary" data-icon="rocket">Go</a> <a class="button primary" data-action="ask" data-query="why?">Ask</a> a claim[^1].\n\n[^1]: The **source**.',
      refs,
    );
    const html = (await renderMarkdownPage(documentToMarkdown(document, refs, { site: true }))).html;
    expect(html).toContain('<a href="/docs/pag_01ABCDEFGHJK" class="mention mention-page"><span aria-hidden="true" class="mention-kind">📄</span><span>Setup</span></a>');
    expect(html).toContain('<span class="mention mention-user"><span aria-hidden="true" class="mention-kind">@</span><span>Ada &#x3C;Admin></span></span>');
    expect(html).toContain('<span class="icon" role="img" aria-label="bolt">⚡</span>');
    expect(html).toContain('<a href="https://example.com/go" class="button button-secondary"><span class="icon" aria-hidden="true">🚀</span>Go</a>');
    expect(html).toContain('<button type="button" class="button button-primary" data-action="search" data-query="why?">Ask</button>');
    expect(html).toContain('a claim<sup class="footnote-ref"><a href="#user-content-fn-1" id="user-content-fnref-1" data-footnote-ref="" aria-describedby="user-content-footnote-label" aria-label="Note 1">1</a></sup>');
    expect(html).toMatch(/<li id="user-content-fn-1">\s*<p>The <strong>source<\/strong>\. <a href="#user-content-fnref-1"/);
  });

  it('holds the inline chips and buttons to the sanitizer: no other class, kind, icon or action', async () => {
    const html = await render(
      '<a href="https://x.example" class="mention evil" data-mention="evil" onclick="alert(1)">M</a> <span class="mention other" data-mention="user" style="color:red">U</span> <a href="javascript:alert(2)" class="button primary" data-icon="a b" data-action="run">B</a> <a class="button primary" data-action="eval" data-query="q">C</a>',
    );
    expect(html).not.toMatch(/evil|other|onclick|style=|javascript:|data-icon="a b"|eval|run/);
    expect(html).toContain('<a href="https://x.example" class="mention mention-page">');
    expect(html).toContain('<span class="mention mention-user">');
    // An action the site has no control for, and a button without a target: the label.
    expect(html).toContain(' C</p>');
  });

  it('marks the matches of a search excerpt and escapes its text once', () => {
    expect(highlightedExcerpt('Hello <b>readers</b> of <b>bold</b> & <script>x</script> <b>two words</b>')).toBe(
      'Hello <mark>readers</mark> of <mark>bold</mark> &amp; &lt;script&gt;x&lt;/script&gt; &lt;b&gt;two words&lt;/b&gt;',
    );
  });

  it('keeps the client script under 20 kB compressed', () => {
    expect(scriptGzipBytes()).toBeLessThan(20_000);
  });
});
