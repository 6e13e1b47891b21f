// The HTML GitBook's own Git Sync writes (its Markdown documentation: blocks/columns, table, cards, insert
// images, buttons, headings), read into real Document blocks and written back in GitBook's form
// (server/content/markdown-html-*.ts). Each fixture below is written after that documentation, one per
// construct: its Document validates against GitBook's JSONDocument, no text leaf holds tag or HTML syntax,
// the Markdown written back is the fixture, and reading it again gives the same Document.
import { describe, expect, it } from 'vitest';
import { documentToMarkdown, markdownToDocument, type Block, type Document } from '../server/content/markdown-document.js';
import { fileName } from '../server/content/markdown-html-mdast.js';
import { gitbookDocumentErrors } from './support/gitbook-document.js';
import { leavesOf, rawSyntax, readChecked } from './support/gitbook-markdown-check.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const read = readChecked;

const types = (nodes: Json[] = []) => nodes.filter((n) => n.object === 'block').map((n) => n.type);
const text = (nodes: Json[] = []) => leavesOf(nodes).join('');

describe('GitBook HTML in Markdown: tags close their container whatever HTML precedes them', () => {
  it('columns: a figure on the line before {% endcolumn %}', () => {
    const document = read(
      [
        '{% columns %}',
        '{% column width="50%" %}',
        '**Create a seamless experience**',
        '',
        '<a href="https://example.com/waitlist" class="button primary">Learn more</a>',
        '{% endcolumn %}',
        '',
        '{% column %}',
        '<figure><img src="https://example.com/columns.png" alt="Columns side by side"><figcaption></figcaption></figure>',
        '{% endcolumn %}',
        '{% endcolumns %}',
      ].join('\n'),
    );
    expect(types(document.nodes)).toEqual(['columns']);
    const [first, second] = document.nodes[0].nodes as Json[];
    expect(first).toMatchObject({ type: 'column', data: { width: 50 } });
    expect(types(second.nodes)).toEqual(['images']);
    expect(second.nodes[0].nodes[0]).toMatchObject({ type: 'image', data: { ref: { kind: 'url', url: 'https://example.com/columns.png' }, alt: 'Columns side by side' } });
  });

  it('stepper, tabs and hint: a figure, an expandable or a table on the line before the closing tag', () => {
    const figure = '<figure><img src="https://example.com/step.png" alt="A step"><figcaption><p>The step</p></figcaption></figure>';
    const table = '<table><thead><tr><th width="200">Rule</th><th>Description</th></tr></thead><tbody><tr><td><strong>Review</strong></td><td>One review at least.</td></tr></tbody></table>';
    const document = read(
      [
        '{% stepper %}',
        '{% step %}',
        '### Plan',
        '',
        figure,
        '{% endstep %}',
        '',
        '{% step %}',
        '<details>',
        '<summary>More</summary>',
        '',
        'Details.',
        '',
        '</details>',
        '{% endstep %}',
        '{% endstepper %}',
        '',
        '{% tabs %}',
        '{% tab title="Screenshot" %}',
        figure,
        '{% endtab %}',
        '{% endtabs %}',
        '',
        '{% hint style="info" %}',
        table,
        '{% endhint %}',
      ].join('\n'),
    );
    expect(types(document.nodes)).toEqual(['stepper', 'tabs', 'hint']);
    const steps = document.nodes[0].nodes as Json[];
    expect(types(steps)).toEqual(['stepper-step', 'stepper-step']);
    expect(types(steps[0].nodes)).toEqual(['heading-3', 'images']);
    expect(types(steps[1].nodes)).toEqual(['expandable']);
    expect(types((document.nodes[1].nodes as Json[])[0].nodes)).toEqual(['images']);
    expect(types(document.nodes[2].nodes as Json[])).toEqual(['table']);
  });
});

describe('GitBook HTML in Markdown: tables', () => {
  it('a table with column widths, an alignment and cells holding blocks is a grid table', () => {
    const document = read(
      '<table><thead><tr><th width="198.8">Plan</th><th align="center">Features</th></tr></thead><tbody><tr><td><strong>Free</strong> – <mark style="color:red;">basic</mark><br>for one user</td><td align="center"><p>Everything to start:</p><ul><li>Unlimited traffic</li><li>Site insights</li></ul></td></tr><tr><td><code>pro</code></td><td align="center"></td></tr></tbody></table>',
    );
    const [table] = document.nodes as Json[];
    expect(table).toMatchObject({
      type: 'table',
      isVoid: true,
      data: {
        view: { type: 'grid', columns: ['col0', 'col1'], columnWidths: { col0: 198.8 }, hideHeader: false },
        definition: { col0: { id: 'col0', title: 'Plan', type: 'text', textAlignment: 'left' }, col1: { id: 'col1', title: 'Features', type: 'text', textAlignment: 'center' } },
      },
    });
    const records = Object.values(table.data.records as Record<string, Json>).sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : 1));
    const cell = (r: number, column: string) => table.fragments.find((f: Json) => f.fragment === records[r].values[column]).nodes as Json[];
    expect(types(cell(0, 'col0'))).toEqual(['paragraph']);
    expect(cell(0, 'col0')[0].nodes[0].leaves).toEqual([
      { object: 'leaf', text: 'Free', marks: [{ object: 'mark', type: 'bold' }] },
      { object: 'leaf', text: ' – ', marks: [] },
      { object: 'leaf', text: 'basic', marks: [{ object: 'mark', type: 'color', data: { text: 'red', background: 'default' } }] },
      { object: 'leaf', text: '\nfor one user', marks: [] },
    ]);
    expect(types(cell(0, 'col1'))).toEqual(['paragraph', 'list-unordered']);
    expect(text(cell(0, 'col1'))).toBe('Everything to start:Unlimited trafficSite insights');
    expect(cell(1, 'col0')[0].nodes[0].leaves[0]).toMatchObject({ text: 'pro', marks: [{ type: 'code' }] });
    expect(text(cell(1, 'col1'))).toBe('');
  });

  it('a cards table: target and cover columns hidden, their values references', () => {
    const document = read(
      '<table data-card-size="large" data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="image">Cover image</th></tr></thead><tbody><tr><td><strong>GitBook homepage</strong></td><td>Find out more.</td><td><a href="https://www.gitbook.com/">https://www.gitbook.com/</a></td><td><a href="https://example.com/cover.png">https://example.com/cover.png</a></td></tr><tr><td><strong>Developer docs</strong></td><td>Build an integration.</td><td><a href="https://developer.gitbook.com/">https://developer.gitbook.com/</a></td><td></td></tr></tbody></table>',
    );
    const [table] = document.nodes as Json[];
    expect(table.data.view).toEqual({ type: 'cards', columns: ['col0', 'col1'], targetDefinition: 'col2', coverDefinition: 'col3', cardSize: 'large' });
    expect(table.data.definition.col2).toEqual({ id: 'col2', title: '', type: 'content-ref' });
    expect(table.data.definition.col3).toEqual({ id: 'col3', title: 'Cover image', type: 'image' });
    const records = Object.values(table.data.records as Record<string, Json>).sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : 1));
    expect(records[0].values.col2).toEqual({ kind: 'url', url: 'https://www.gitbook.com/' });
    expect(records[0].values.col3).toEqual({ kind: 'url', url: 'https://example.com/cover.png' });
    expect(records[1].values.col3).toBeUndefined();
    expect(text(table.fragments.find((f: Json) => f.fragment === records[1].values.col0).nodes)).toBe('Developer docs');
  });

  it('a select column, its options in a <select> and its cells <span data-option>, is a select definition with option values', () => {
    const document = read(
      '<table data-card-size="large" data-view="cards"><thead><tr><th></th><th>Plan<select multiple><option value="Dv0PG4STqnyC" label="$0 per site/month" color="blue"></option><option value="1IOj5OsCI80x" label="One user" color="blue"></option></select></th></tr></thead><tbody><tr><td><strong>Free</strong></td><td><span data-option="Dv0PG4STqnyC">$0 per site/month, </span><span data-option="1IOj5OsCI80x">One user</span></td></tr><tr><td>Pro</td><td></td></tr></tbody></table>',
    );
    const [table] = document.nodes as Json[];
    expect(table.data.definition.col1).toEqual({
      id: 'col1',
      title: 'Plan',
      type: 'select',
      multiple: true,
      options: [
        { value: 'Dv0PG4STqnyC', label: '$0 per site/month', color: 'blue' },
        { value: '1IOj5OsCI80x', label: 'One user', color: 'blue' },
      ],
    });
    const records = Object.values(table.data.records as Record<string, Json>).sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : 1));
    expect(records.map((r) => r.values.col1)).toEqual([['Dv0PG4STqnyC', '1IOj5OsCI80x'], undefined]);
  });

  it('a mention in a cell, <a data-mention href>, is a mention inline', () => {
    const document = read('<table data-view="cards"><thead><tr><th></th><th></th></tr></thead><tbody><tr><td><h4>In the editor</h4></td><td><a data-mention href="pag_01ABCDEFGHJK">pag_01ABCDEFGHJK</a></td></tr></tbody></table>');
    const [table] = document.nodes as Json[];
    const [record] = Object.values(table.data.records as Record<string, Json>);
    expect(types(table.fragments.find((f: Json) => f.fragment === record.values.col0).nodes)).toEqual(['heading-3']);
    expect(table.fragments.find((f: Json) => f.fragment === record.values.col1).nodes[0].nodes).toContainEqual({ object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'page', page: 'pag_01ABCDEFGHJK' } } });
  });

  it('a column aligned to the top says so on its header and on each of its cells', () => {
    const document = read('<table><thead><tr><th width="156.5" valign="top">Skill</th><th valign="top">Description</th></tr></thead><tbody><tr><td valign="top"><code>configure-site</code></td><td valign="top">Create sites.</td></tr></tbody></table>');
    expect(document.nodes[0].data).toMatchObject({ definition: { col0: { verticalAlignment: 'top', textAlignment: 'left' }, col1: { verticalAlignment: 'top' } } });
  });

  it('a reference cell to a page is labelled with its file, or its folder for a folder README, as GitBook writes it', () => {
    expect(['setting-up-auth0.md', 'guides/page/README.md', 'page/', '../README.md', '../../a%20b.md#x', 'https://example.com/a'].map(fileName)).toEqual([
      'setting-up-auth0.md',
      'page',
      'page',
      'README.md',
      'a b.md',
      'a',
    ]);
  });

  it('a plain table stays a GFM table', () => {
    const document = read('| A | B |\n| - | - |\n| 1 | 2 |');
    expect(types(document.nodes)).toEqual(['table']);
  });
});

describe('GitBook HTML in Markdown: images', () => {
  it('a figure with a formatted caption is an image block with a caption fragment', () => {
    const document = read('<figure><img src="https://example.com/cards.png" alt="Cards on desktop"><figcaption><p>On desktop, cards are <strong>16:9</strong>.</p></figcaption></figure>');
    const image = (document.nodes[0].nodes as Json[])[0];
    expect(image).toMatchObject({ type: 'image', data: { ref: { kind: 'url', url: 'https://example.com/cards.png' }, alt: 'Cards on desktop' } });
    expect(image.fragments[0].fragment).toBe('caption');
    expect(image.fragments[0].nodes[0].nodes[0].leaves[1]).toMatchObject({ text: '16:9', marks: [{ type: 'bold' }] });
  });

  it('a figure of a <picture> has a dark variant; a framed or aligned figure says so', () => {
    const document = read(
      [
        '<figure><picture><source srcset="https://example.com/editor_dark.png" media="(prefers-color-scheme: dark)"><img src="https://example.com/editor_light.png" alt="The editor"></picture><figcaption></figcaption></figure>',
        '',
        '<div data-with-frame="true"><figure><img src="https://example.com/screen.png" alt=""><figcaption><p>Change requests</p></figcaption></figure></div>',
        '',
        '<div align="left"><figure><img src="https://example.com/widget.png" alt="" width="188"><figcaption></figcaption></figure></div>',
      ].join('\n'),
    );
    const [dark, framed, aligned] = document.nodes as Json[];
    expect(dark.nodes[0].data).toEqual({ ref: { kind: 'url', url: 'https://example.com/editor_light.png' }, refDark: { kind: 'url', url: 'https://example.com/editor_dark.png' }, alt: 'The editor' });
    expect(framed.data).toEqual({ withFrame: true });
    expect(aligned.data).toEqual({ align: 'left' });
    expect(aligned.nodes[0].data.width).toBe(188);
  });

  it('a <picture> in a paragraph is an inline image with its dark variant', () => {
    const document = read(
      'Open the **Options menu** <picture><source srcset="https://example.com/options_dark.svg" media="(prefers-color-scheme: dark)"><img src="https://example.com/options_light.svg" alt="The Options menu icon"></picture> of the block.',
    );
    const inline = (document.nodes[0].nodes as Json[]).find((n) => n.object === 'inline');
    expect(inline).toEqual({
      object: 'inline',
      type: 'inline-image',
      isVoid: true,
      data: { ref: { kind: 'url', url: 'https://example.com/options_light.svg' }, refDark: { kind: 'url', url: 'https://example.com/options_dark.svg' }, alt: 'The Options menu icon' },
    });
  });

  it('an <img data-size="line"> in a paragraph is an inline image the size of the text', () => {
    const document = read('This is an inline <img src="https://example.com/command.svg" alt="The command icon" data-size="line"> image.');
    expect((document.nodes[0].nodes as Json[])[1]).toEqual({
      object: 'inline',
      type: 'inline-image',
      isVoid: true,
      data: { ref: { kind: 'url', url: 'https://example.com/command.svg' }, alt: 'The command icon', size: 'line' },
    });
  });
});

describe('GitBook HTML in Markdown: anchors, buttons, colours and breaks', () => {
  it('a heading anchor is the heading id, no text', () => {
    const document = read('### Version history <a href="#history" id="history"></a>');
    expect(document.nodes[0]).toMatchObject({ type: 'heading-3', meta: { id: 'history' } });
    expect(text(document.nodes[0].nodes as Json[])).toBe('Version history');
  });

  it('a button, a colour mark and a hard break', () => {
    const document = read('<a href="https://example.com/start" class="button primary">Get started</a> or read <mark style="color:orange;">this</mark>\\\nnext line.');
    const nodes = document.nodes[0].nodes as Json[];
    expect(nodes[0]).toEqual({ object: 'inline', type: 'button', isVoid: true, data: { label: 'Get started', kind: 'primary', ref: { kind: 'url', url: 'https://example.com/start' } } });
    expect(nodes[1].leaves).toEqual([
      { object: 'leaf', text: ' or read ', marks: [] },
      { object: 'leaf', text: 'this', marks: [{ object: 'mark', type: 'color', data: { text: 'orange', background: 'default' } }] },
      { object: 'leaf', text: '\nnext line.', marks: [] },
    ]);
  });

  it('an action button written as GitBook writes it, <button type="button" data-action>, is the same button', () => {
    const document = markdownToDocument('<button type="button" class="button secondary" data-action="ask" data-query="How do I start?" data-icon="gitbook-assistant">Ask</button>');
    expect(gitbookDocumentErrors(document)).toBeUndefined();
    expect(document.nodes[0].nodes).toEqual([
      { object: 'inline', type: 'button', isVoid: true, data: { label: 'Ask', kind: 'secondary', icon: 'gitbook-assistant', action: { action: 'ask', query: 'How do I start?' } } },
    ]);
    expect(markdownToDocument(documentToMarkdown(document))).toEqual(document);
  });

  it('a centred heading and paragraph (GitBook writes them as HTML) are the blocks with their alignment', () => {
    const document = read('<h3 align="center">How do you want to <strong>work</strong>?</h3>\n\n<p align="center"><button type="button" class="button primary" data-action="ask">Ask a question</button></p>');
    expect(document.nodes[0]).toMatchObject({ type: 'heading-3', data: { align: 'center' }, meta: { id: 'how-do-you-want-to-work' } });
    expect(text(document.nodes[0].nodes as Json[])).toBe('How do you want to work?');
    expect(document.nodes[1]).toMatchObject({ type: 'paragraph', data: { align: 'center' }, nodes: [{ object: 'inline', type: 'button', data: { label: 'Ask a question', action: { action: 'ask' } } }] });
  });

  it('a plain <p> of buttons and icons is a paragraph of those inlines, not raw HTML (GitBook renderer shows that as text)', () => {
    const document = markdownToDocument('<p><a href="https://example.com/signup" class="button primary">Sign up</a> <i class="fa-rocket">:rocket:</i></p>');
    expect(gitbookDocumentErrors(document)).toBeUndefined();
    expect(document.nodes).toHaveLength(1);
    expect(document.nodes[0]).toMatchObject({ type: 'paragraph' });
    expect((document.nodes[0] as Json).meta).toBeUndefined();
    expect((document.nodes[0] as Json).data).toBeUndefined();
    expect(document.nodes[0].nodes).toEqual([
      { object: 'inline', type: 'button', isVoid: true, data: { label: 'Sign up', kind: 'primary', ref: { kind: 'url', url: 'https://example.com/signup' } } },
      { object: 'text', leaves: [{ object: 'leaf', text: ' ', marks: [] }] },
      { object: 'inline', type: 'icon', isVoid: true, data: { icon: 'rocket' } },
    ]);
    expect(leavesOf(document.nodes as Block[]).filter((t) => rawSyntax.test(t))).toEqual([]);
    // Written back as a Markdown paragraph, which reads as the same Document.
    expect(markdownToDocument(documentToMarkdown(document))).toEqual(document);
    // A <p> holding blocks, or HTML beside it, stays raw HTML.
    expect(markdownToDocument('<p>One</p>\n<div>Two</div>').nodes[0]).toMatchObject({ meta: { html: true } });
  });

  it('<br> in a paragraph reads as the same hard break', () => {
    const withBr = markdownToDocument('One<br>two');
    expect(withBr.nodes[0].nodes).toEqual([{ object: 'text', leaves: [{ object: 'leaf', text: 'One\ntwo', marks: [] }] }]);
    expect(documentToMarkdown(withBr)).toBe('One\\\ntwo');
    expect(markdownToDocument('One\\\ntwo')).toEqual(withBr);
  });

  it('nothing here is left as text: a mixed page has no raw syntax in any leaf', () => {
    const document = markdownToDocument('{% hint style="warning" %}\n<table><thead><tr><th width="100">A</th></tr></thead><tbody><tr><td>x<br>y</td></tr></tbody></table>\n{% endhint %}');
    expect(types(document.nodes)).toEqual(['hint']);
    expect(leavesOf(document.nodes as Block[]).filter((t) => rawSyntax.test(t))).toEqual([]);
  });
});
