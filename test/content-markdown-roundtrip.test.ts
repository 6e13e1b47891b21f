// Markdown <-> Document (server/content/markdown-document.ts): a property test over generated Markdown
// documents (headings, paragraphs with marks, inline code, links, images, lists, task lists, tables, code
// blocks with a language, quotes, GitBook hints, dividers, characters Markdown must escape, and GitBook's extended
// syntax: tabs, steppers, columns, embeds, files, content references, `<details>`, `<figure>`, `$$` math, `<kbd>`,
// `<sup>`, `<sub>`, colour marks, titled code) checks markdown -> document -> markdown is stable: the document read back from the written Markdown is the same document, and
// writing it again gives the same Markdown. Examples pin the document shapes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentToMarkdown, markdownToDocument } from '../server/content/markdown-document.js';

const word = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[A-Za-z0-9]{1,8}$/) },
  { weight: 1, arbitrary: fc.constantFrom('*', '_', '#', '[x]', '<b>', '`', '\\', '|', '~', '&amp;', '1.', '-', '+', '>', 'é', '😀') },
);
const words = fc.array(word, { minLength: 1, maxLength: 5 }).map((ws) => ws.join(' '));
const plain = fc.array(fc.stringMatching(/^[A-Za-z0-9]{1,8}$/), { minLength: 1, maxLength: 4 }).map((ws) => ws.join(' '));
const url = fc.stringMatching(/^[a-z]{1,8}$/).map((p) => `https://example.com/${p}`);

const inline = fc.oneof(
  { weight: 4, arbitrary: words },
  { weight: 1, arbitrary: plain.map((t) => `**${t}**`) },
  { weight: 1, arbitrary: plain.map((t) => `_${t}_`) },
  { weight: 1, arbitrary: plain.map((t) => `~~${t}~~`) },
  { weight: 1, arbitrary: plain.map((t) => `\`${t}\``) },
  { weight: 1, arbitrary: fc.tuple(plain, url, fc.option(plain, { nil: undefined })).map(([t, u, title]) => `[${t}](${u}${title ? ` "${title}"` : ''})`) },
  { weight: 1, arbitrary: fc.tuple(plain, url).map(([alt, u]) => `![${alt}](${u}.png)`) },
);
const line = fc.array(inline, { minLength: 1, maxLength: 5 }).map((parts) => parts.join(' '));

const paragraph = line;
const heading = fc.tuple(fc.integer({ min: 1, max: 6 }), line).map(([depth, text]) => `${'#'.repeat(depth)} ${text}`);
const bullet = fc.array(line, { minLength: 1, maxLength: 4 }).map((items) => items.map((i) => `- ${i}`).join('\n'));
const ordered = fc
  .tuple(fc.integer({ min: 1, max: 9 }), fc.array(line, { minLength: 1, maxLength: 4 }))
  .map(([start, items]) => items.map((item, n) => `${start + n}. ${item}`).join('\n'));
const tasks = fc.array(fc.tuple(fc.boolean(), line), { minLength: 1, maxLength: 4 }).map((items) => items.map(([done, i]) => `- [${done ? 'x' : ' '}] ${i}`).join('\n'));
const nested = fc.tuple(line, line, line).map(([a, b, c]) => `- ${a}\n  - ${b}\n- ${c}`);
const code = fc
  .tuple(fc.option(fc.constantFrom('ts', 'js', 'python', 'bash', 'json'), { nil: undefined }), fc.array(fc.stringMatching(/^[ -~]{0,30}$/).filter((l) => !l.includes('```')), { maxLength: 4 }))
  .map(([lang, lines]) => `\`\`\`${lang ?? ''}\n${lines.join('\n')}\n\`\`\``);
const quote = fc.array(line, { minLength: 1, maxLength: 2 }).map((ls) => ls.map((l) => `> ${l}`).join('\n>\n'));
const cell = fc.array(fc.oneof(plain, plain.map((t) => `**${t}**`), plain.map((t) => `\`${t}\``)), { minLength: 1, maxLength: 2 }).map((p) => p.join(' '));
// A header cell is a column's title in GitBook's table, plain text.
const headerCell = fc.array(plain, { minLength: 1, maxLength: 2 }).map((p) => p.join(' '));
const table = fc
  .integer({ min: 1, max: 4 })
  .chain((columns) =>
    fc.tuple(
      fc.array(headerCell, { minLength: columns, maxLength: columns }),
      fc.array(fc.constantFrom('---', ':--', '--:', ':-:'), { minLength: columns, maxLength: columns }),
      fc.array(fc.array(cell, { minLength: columns, maxLength: columns }), { maxLength: 3 }),
    ),
  )
  .map(([header, align, rows]) => [header, align, ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n'));
const divider = fc.constant('---');

const hintStyle = fc.constantFrom('info', 'warning', 'danger', 'success');
const hintInner = fc.array(fc.oneof(paragraph, heading, bullet, ordered, code, quote, table), { maxLength: 3 });
// With and without blank lines around the markers: a marker interrupts a paragraph.
const hint = fc
  .tuple(hintStyle, hintInner, fc.boolean())
  .map(([style, inner, airy]) => [`{% hint style="${style}" %}`, ...inner, '{% endhint %}'].join(airy ? '\n\n' : '\n'));
// Marker-like text that is not a hint (unknown style, a lone marker, a marker inside a line) stays text.
const notHint = fc.constantFrom('{% hint style="bogus" %}', '{% endhint %}', 'a {% endhint %} b', '{% hint style="info" %}');

// GitBook's extended syntax, as its Git Sync writes it.
const attr = fc.stringMatching(/^[A-Za-z0-9 ]{1,12}$/).map((t) => t.trim() || 'x');
const simple = fc.oneof(paragraph, heading, bullet, code, quote);
const inner = fc.array(simple, { maxLength: 2 });
const container = (open: string, close: string, body: string[]) => [open, ...body, close].join('\n\n');
const tabs = fc
  .array(fc.tuple(attr, inner), { minLength: 1, maxLength: 3 })
  .map((items) => ['{% tabs %}', ...items.map(([title, body]) => container(`{% tab title="${title}" %}`, '{% endtab %}', body)), '{% endtabs %}'].join('\n'));
const stepper = fc.array(inner, { minLength: 1, maxLength: 3 }).map((steps) => ['{% stepper %}', ...steps.map((body) => container('{% step %}', '{% endstep %}', body)), '{% endstepper %}'].join('\n'));
const columns = fc.array(inner, { minLength: 1, maxLength: 2 }).map((cols) => ['{% columns %}', ...cols.map((body) => container('{% column %}', '{% endcolumn %}', body)), '{% endcolumns %}'].join('\n'));
const embed = fc.tuple(url, fc.option(plain, { nil: undefined })).map(([u, caption]) => (caption ? `{% embed url="${u}" %}\n${caption}\n{% endembed %}` : `{% embed url="${u}" %}`));
const file = fc.tuple(fc.constantFrom('fil_01ABCDEFGHJK', 'https://example.com/a.pdf'), fc.option(plain, { nil: undefined })).map(([src, caption]) => (caption ? `{% file src="${src}" %}\n${caption}\n{% endfile %}` : `{% file src="${src}" %}`));
const contentRef = fc.constantFrom('pag_01ABCDEFGHJK', 'https://example.com/x').map((u) => `{% content-ref url="${u}" %}\n[${u}](${u})\n{% endcontent-ref %}`);
const details = fc.tuple(fc.constantFrom('Details', 'More & <less>', 'Q?'), inner).map(([title, body]) => container(`<details>\n<summary>${title.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</summary>`, '</details>', body));
const figure = fc
  .array(fc.tuple(url, plain, fc.option(plain, { nil: undefined })), { minLength: 1, maxLength: 2 })
  .map((images) => {
    const figures = images.map(([u, alt, caption]) => `<figure><img src="${u}.png" alt="${alt}"><figcaption>${caption ? `<p>${caption}</p>` : ''}</figcaption></figure>`);
    return figures.length === 1 ? figures[0] : `<div>${figures.join('')}</div>`;
  });
const mathBlock = fc.constantFrom('E = mc^2', 'a^2 + b^2 = c^2', '\\frac{1}{2}').map((f) => `$$\n${f}\n$$`);
const gitbookInline = fc
  .tuple(plain, fc.constantFrom('<kbd>Ctrl</kbd>', '<sup>2</sup>', '<sub>i</sub>', '$$x^2$$', '<mark style="color:red;">hot</mark>'))
  .map(([t, i]) => `${t} ${i}`);
const titledCode = fc.tuple(attr, fc.boolean()).map(([title, numbers]) => `{% code title="${title}"${numbers ? ' lineNumbers="true"' : ''} %}\n\`\`\`js\nconst a = 1;\n\`\`\`\n{% endcode %}`);
const extended = fc.oneof(tabs, stepper, columns, embed, file, contentRef, details, figure, mathBlock, gitbookInline, titledCode);

const block = fc.oneof(paragraph, heading, bullet, ordered, tasks, nested, code, quote, table, divider, hint, notHint, extended, extended);
const markdownDocument = fc.array(block, { minLength: 1, maxLength: 8 }).map((blocks) => blocks.join('\n\n'));

describe('Markdown <-> Document', () => {
  it('reads and writes GitBook hints as hint blocks with their style', () => {
    const document = markdownToDocument('Before\n{% hint style="warning" %}\nMind the **gap**.\n\n- one\n{% endhint %}\n\n{% hint style="success" %}\n{% endhint %}');
    expect(document.nodes.map((b) => b.type)).toEqual(['paragraph', 'hint', 'hint']);
    expect(document.nodes[1]).toMatchObject({ type: 'hint', data: { style: 'warning' } });
    expect(document.nodes[1].nodes?.map((b) => (b as { type: string }).type)).toEqual(['paragraph', 'list-unordered']);
    expect(document.nodes[2]).toEqual({ object: 'block', type: 'hint', data: { style: 'success' }, nodes: [] });
    expect(documentToMarkdown(document)).toBe(
      'Before\n\n{% hint style="warning" %}\nMind the **gap**.\n\n- one\n{% endhint %}\n\n{% hint style="success" %}\n\n{% endhint %}',
    );
    // A hint given as a document, inside a list item (written as GitBook's Git Sync writes one there, its
    // custom-block HTML: markdown-html-hint.ts); a style outside the enum is written as info.
    const given = {
      nodes: [
        { object: 'block' as const, type: 'list-unordered' as const, nodes: [{ object: 'block' as const, type: 'list-item' as const, nodes: [
          { object: 'block' as const, type: 'hint' as const, data: { style: 'danger' }, nodes: [{ object: 'block' as const, type: 'paragraph' as const, nodes: [{ object: 'text' as const, leaves: [{ object: 'leaf' as const, text: 'Careful', marks: [] }] }] }] },
        ] }] },
        { object: 'block' as const, type: 'hint' as const, data: { style: 'purple' }, nodes: [] },
      ],
    };
    const written = documentToMarkdown(given);
    expect(written).toBe('- <div data-gb-custom-block data-tag="hint" data-style="danger" class="hint hint-danger"><p>Careful</p></div>\n\n{% hint style="info" %}\n\n{% endhint %}');
    const back = markdownToDocument(written);
    expect(back.nodes[0].nodes?.[0]).toMatchObject({ type: 'list-item', nodes: [{ type: 'hint', data: { style: 'danger' } }] });
    // Text that looks like a marker is escaped, so it reads back as text.
    const text = documentToMarkdown({ nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: '{% endhint %}', marks: [] }] }] }] });
    expect(text).toBe('\\{% endhint %}');
    expect(markdownToDocument(text).nodes[0]).toMatchObject({ type: 'paragraph', nodes: [{ leaves: [{ text: '{% endhint %}' }] }] });
  });

  it('an HTML block first or last in a container does not swallow the closing tag, with or without blank lines around it', () => {
    // The property below found this one (fast-check seed 767409976): the figure ran to the next blank line
    // and took `{% endhint %}` with it. GitBook's Git Sync writes the tags on the lines next to the HTML, and
    // so does this server; blank lines around it read the same.
    // (A step, not the hint of that seed: GitBook's hint holds no images, server/content/gitbook-nesting.ts.)
    const markdown = '{% stepper %}\n{% step %}\n<figure><img src="https://example.com/a.png" alt="a"><figcaption></figcaption></figure>\n{% endstep %}\n{% endstepper %}';
    const document = markdownToDocument(markdown);
    expect(document.nodes).toMatchObject([{ type: 'stepper', nodes: [{ type: 'stepper-step', nodes: [{ type: 'images' }] }] }]);
    const written = documentToMarkdown(document);
    expect(written).toBe(markdown);
    expect(markdownToDocument(written)).toEqual(document);
    const spaced = '{% stepper %}\n{% step %}\n\n<figure><img src="https://example.com/a.png" alt="a"><figcaption></figcaption></figure>\n\n{% endstep %}\n{% endstepper %}';
    expect(markdownToDocument(spaced)).toEqual(document);
    // Other blocks keep the compact form.
    expect(documentToMarkdown(markdownToDocument('{% hint style="info" %}\nText\n{% endhint %}'))).toBe('{% hint style="info" %}\nText\n{% endhint %}');
  });

  it('a table row shorter than the header has empty cells, as the Markdown written back shows them', () => {
    // The property below found this one (fast-check seed 1176540194): the short row had no cell for the second
    // column, the Markdown written back had an empty one, and reading it gave a Document with one cell more.
    const markdown = '{% hint style="info" %}\n| 0 |\n| --- |\n| `A` |\n| A | A |\n| --- | --- |\n{% endhint %}';
    const document = markdownToDocument(markdown);
    const table = (document.nodes[0] as unknown as { nodes: { data: { records: Record<string, { values: Record<string, string> }> } }[] }).nodes[0];
    expect(Object.values(table.data.records).map((r) => Object.keys(r.values).length)).toEqual([2, 2, 2]);
    const written = documentToMarkdown(document);
    expect(markdownToDocument(written)).toEqual(document);
    expect(documentToMarkdown(markdownToDocument(written))).toBe(written);
  });

  it('markdown -> document -> markdown is stable for generated documents', () => {
    fc.assert(
      fc.property(markdownDocument, (markdown) => {
        const document = markdownToDocument(markdown);
        const written = documentToMarkdown(document);
        expect(markdownToDocument(written)).toEqual(document);
        expect(documentToMarkdown(markdownToDocument(written))).toBe(written);
      }),
      { numRuns: 150 },
    );
    // Each run parses three times and writes twice; on a loaded machine that takes a while.
  }, 120_000);

  it('reads GitBook blocks as their Document blocks, and writes them back as Git Sync does', () => {
    const markdown = [
      '{% tabs %}\n{% tab title="npm" %}\nRun it.\n{% endtab %}\n\n{% tab title="Yarn" %}\nPress <kbd>Ctrl</kbd> and $$x^2$$\n{% endtab %}\n{% endtabs %}',
      '{% embed url="https://youtu.be/x" %}',
      '{% file src="fil_01ABCDEFGHJK" %}\nThe guide\n{% endfile %}',
      '<details>\n<summary>More &amp; less</summary>\n\nBody [page](pag_01ABCDEFGHJK) [anchor](#setup)\n\n</details>',
      '<figure><img src="fil_01ABCDEFGHJK" alt="Logo"><figcaption><p>Our logo</p></figcaption></figure>',
      '$$\nE = mc^2\n$$',
      '{% content-ref url="pag_01ABCDEFGHJK" %}\n[pag_01ABCDEFGHJK](pag_01ABCDEFGHJK)\n{% endcontent-ref %}',
      '{% stepper %}\n{% step %}\n### One\n{% endstep %}\n{% endstepper %}',
      '{% columns %}\n{% column width="50%" %}\nLeft\n{% endcolumn %}\n\n{% column width="50%" %}\nRight\n{% endcolumn %}\n{% endcolumns %}',
      '{% code title="app.js" lineNumbers="true" %}\n```js\nrun();\n```\n{% endcode %}',
    ].join('\n\n');
    const document = markdownToDocument(markdown);
    expect(document.nodes.map((b) => b.type)).toEqual(['tabs', 'embed', 'file', 'expandable', 'images', 'math', 'content-ref', 'stepper', 'columns', 'code']);
    expect(document.nodes[0].nodes?.map((n) => [(n as { type: string }).type, (n as { data?: unknown }).data])).toEqual([['tabs-item', { title: 'npm' }], ['tabs-item', { title: 'Yarn' }]]);
    const yarn = (document.nodes[0].nodes?.[1] as { nodes: { nodes: unknown[] }[] }).nodes[0].nodes;
    expect(yarn).toContainEqual({ object: 'text', leaves: [{ object: 'leaf', text: 'Press ', marks: [] }, { object: 'leaf', text: 'Ctrl', marks: [{ object: 'mark', type: 'keyboard' }] }, { object: 'leaf', text: ' and ', marks: [] }] });
    expect(yarn).toContainEqual({ object: 'inline', type: 'inline-math', isVoid: true, data: { formula: 'x^2' } });
    expect(document.nodes[1]).toEqual({ object: 'block', type: 'embed', isVoid: true, data: { url: 'https://youtu.be/x' } });
    expect(document.nodes[2]).toMatchObject({ type: 'file', data: { ref: { kind: 'file', file: 'fil_01ABCDEFGHJK' } }, nodes: [{ type: 'paragraph' }] });
    // GitBook's expandable: void, its title and body in fragments.
    expect(document.nodes[3]).toMatchObject({ type: 'expandable', isVoid: true, data: {}, fragments: [
      { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [{ type: 'paragraph', nodes: [{ leaves: [{ text: 'More & less', marks: [] }] }] }] },
      { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: [{ type: 'paragraph' }] },
    ] });
    expect(document.nodes[3].nodes).toBeUndefined();
    const links = (document.nodes[3].fragments?.[1].nodes[0] as { nodes: { type?: string; data?: unknown }[] }).nodes.filter((n) => n.type === 'link').map((n) => n.data);
    expect(links).toEqual([{ ref: { kind: 'page', page: 'pag_01ABCDEFGHJK' } }, { ref: { kind: 'anchor', anchor: 'setup' } }]);
    expect(document.nodes[4]).toEqual({ object: 'block', type: 'images', isVoid: false, data: {}, nodes: [{ object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'file', file: 'fil_01ABCDEFGHJK' }, alt: 'Logo' }, fragments: [
      { object: 'fragment', fragment: 'caption', nodes: [{ object: 'block', type: 'paragraph', isVoid: false, data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Our logo', marks: [] }] }] }] },
    ] }] });
    // A column's width is a number (GitBook's Length), written back as the percentage Markdown said.
    expect(document.nodes[8].nodes?.map((c) => (c as { data: unknown }).data)).toEqual([{ width: 50 }, { width: 50 }]);
    expect(document.nodes[5]).toEqual({ object: 'block', type: 'math', isVoid: true, data: { formula: 'E = mc^2' } });
    expect(document.nodes[6]).toEqual({ object: 'block', type: 'content-ref', isVoid: true, data: { ref: { kind: 'page', page: 'pag_01ABCDEFGHJK' } } });
    expect(document.nodes[9]).toMatchObject({ type: 'code', data: { syntax: 'js', title: 'app.js', lineNumbers: true } });
    expect(documentToMarkdown(document)).toBe(markdown);
  });

  it('keeps marks, links, images, lists, tables and code languages in the document', () => {
    const document = markdownToDocument(
      '#### Deep\n\nA **bold** and [link](https://x.test "Title") ![alt](https://x.test/i.png)\n\n3. three\n4. four\n\n- [x] done\n\n| a | b |\n|:-|-:|\n| `1` | 2 |\n\n```ts\nconst a = 1;\n```',
    );
    expect(document.nodes.map((b) => b.type)).toEqual(['heading-3', 'paragraph', 'list-ordered', 'list-tasks', 'table', 'code']);
    expect(document.nodes[0].data).toEqual({ level: 4 });
    expect(document.nodes[1].nodes).toEqual([
      { object: 'text', leaves: [{ object: 'leaf', text: 'A ', marks: [] }, { object: 'leaf', text: 'bold', marks: [{ object: 'mark', type: 'bold' }] }, { object: 'leaf', text: ' and ', marks: [] }] },
      { object: 'inline', type: 'link', isVoid: false, data: { ref: { kind: 'url', url: 'https://x.test' }, title: 'Title' }, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'link', marks: [] }] }] },
      { object: 'text', leaves: [{ object: 'leaf', text: ' ', marks: [] }] },
      { object: 'inline', type: 'inline-image', isVoid: true, data: { ref: { kind: 'url', url: 'https://x.test/i.png' }, alt: 'alt' } },
    ]);
    expect(document.nodes[2].data).toEqual({ start: 3 });
    expect(document.nodes[3].nodes?.[0]).toMatchObject({ type: 'list-item', data: { checked: true } });
    // GitBook's table: the header row is the columns' titles, alignments kept, each cell a fragment.
    expect(document.nodes[4]).toMatchObject({
      type: 'table',
      isVoid: true,
      data: {
        view: { type: 'grid', columns: ['col0', 'col1'], hideHeader: false },
        definition: { col0: { id: 'col0', title: 'a', type: 'text', textAlignment: 'left' }, col1: { id: 'col1', title: 'b', type: 'text', textAlignment: 'right' } },
        records: { row0: { values: { col0: 'row0-col0', col1: 'row0-col1' } } },
      },
      fragments: [
        { object: 'fragment', fragment: 'row0-col0', nodes: [{ type: 'paragraph', nodes: [{ leaves: [{ text: '1', marks: [{ object: 'mark', type: 'code' }] }] }] }] },
        { object: 'fragment', fragment: 'row0-col1', nodes: [{ type: 'paragraph', nodes: [{ leaves: [{ text: '2', marks: [] }] }] }] },
      ],
    });
    expect(document.nodes[4].nodes).toBeUndefined();
    expect(document.nodes[5]).toMatchObject({ type: 'code', data: { syntax: 'ts' } });
    expect(documentToMarkdown(document)).toBe(
      // An explicit left alignment is GitBook's default one, written without a colon.
      '#### Deep\n\nA **bold** and [link](https://x.test "Title") ![alt](https://x.test/i.png)\n\n3. three\n4. four\n\n- [x] done\n\n| a   |  b |\n| --- | -: |\n| `1` |  2 |\n\n```ts\nconst a = 1;\n```',
    );
  });
});
