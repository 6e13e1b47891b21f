// Heading anchors (docs/content.md, "Heading anchors"): a heading read from Markdown gets GitBook's
// `meta.id`, the slug of its text unique within the page (the rule of server/content/heading-ids.ts, the
// same the published site uses for its heading ids), a custom anchor as GitBook writes it
// (`## Title <a href="#custom" id="custom"></a>`) keeps its id and is written back so; a Document written as
// JSON keeps what the writer said (an id is neither added nor changed); the published page's heading ids
// are the Document's.
import { describe, expect, it } from 'vitest';
import { documentToMarkdown, markdownToDocument } from '../server/content/markdown-document.js';
import { gitbookDocumentErrors } from './support/gitbook-document.js';
import { mergeChanges, readCheckedPage } from './support/content-writes.js';
import { useHarness, type Account } from './support/harness.js';
import { open, publish } from './published-support.js';
import { newSite } from './sites-support.js';

const h = useHarness();

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Applies `changes` through a merged change request; the ids of the pages they wrote. */
async function write(admin: Account, spaceId: string, changes: unknown[]): Promise<string[]> {
  return (await mergeChanges(admin, spaceId, changes)).changes.map((c: Json) => c.page?.id as string);
}

const page = readCheckedPage;

const headings = (document: Json) => (document.nodes as Json[]).filter((b) => String(b.type).startsWith('heading-'));
/** The ids of the published page's content headings (not the page template's, such as "on this page"). */
const siteHeadingIds = (html: string) => [...html.matchAll(/<h[2-6][^>]*\bid="([^"]+)"/g)].map((m) => m[1]).filter((id) => id !== 'outline-title');

const markdown = [
  '## Install',
  'With npm.',
  '## Install',
  'With Yarn.',
  '### Proxy settings <a href="#proxy" id="proxy"></a>',
  'Behind a proxy.',
  '## Install',
  'From source.',
].join('\n\n');

describe('heading anchors', () => {
  it('Markdown headings get distinct meta.id, custom anchors kept, and the published page uses them', async () => {
    const admin = await h.current.newAdmin();
    const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' });
    expect(space.status).toBe(201);
    const spaceId = space.body.id as string;
    const [setup] = await write(admin, spaceId, [{ operation: 'insert_page', title: 'Setup', document: { markdown } }]);

    const read = await page(admin, spaceId, setup);
    expect(headings(read.document).map((b) => b.meta)).toEqual([{ id: 'install' }, { id: 'install-1' }, { id: 'proxy' }, { id: 'install-2' }]);
    // The custom anchor is not part of the heading's text.
    expect(headings(read.document)[2].nodes).toEqual([{ object: 'text', leaves: [{ object: 'leaf', text: 'Proxy settings', marks: [] }] }]);

    // Markdown writes the custom anchor back as GitBook does, nothing for ids the rule gives.
    const md = (await page(admin, spaceId, setup, 'markdown')).markdown as string;
    expect(md.trim()).toBe(markdown);

    const site = await newSite(admin, { title: 'Acme', spaces: [spaceId] });
    const url: string = (await publish(admin, site.id)).urls.published;
    const html = await open(h.current, `${url}/setup`);
    expect(html.status).toBe(200);
    expect(siteHeadingIds(html.text)).toEqual(['install', 'install-1', 'proxy', 'install-2']);
    expect(html.text).toContain('href="#proxy"');

    // The published Markdown written again gives the same Document.
    const published = await open(h.current, `${url}/setup.md`);
    expect(published.status).toBe(200);
    await write(admin, spaceId, [{ operation: 'update_page', page: setup, document: { markdown: published.text } }]);
    expect((await page(admin, spaceId, setup)).document).toEqual(read.document);
  });

  it('a Document written as JSON keeps what the writer said, and the site anchors its own ids', async () => {
    const admin = await h.current.newAdmin();
    const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' });
    expect(space.status).toBe(201);
    const spaceId = space.body.id as string;
    const text = (t: string) => [{ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] }];
    const heading = (t: string, meta?: Json) => ({ object: 'block', type: 'heading-2', isVoid: false, data: {}, nodes: text(t), ...(meta && { meta }) });
    const document = { object: 'document', data: { schemaVersion: 1 }, nodes: [heading('Install', { id: 'getting-it' }), heading('Install'), heading('Usage', { id: 'usage' })] };
    const [pageId] = await write(admin, spaceId, [{ operation: 'insert_page', title: 'Guide', document: { document } }]);

    const read = await page(admin, spaceId, pageId);
    // Reads add no id either: GitBook's renderer makes its own anchor for a heading without one.
    expect(headings(read.document).map((b) => b.meta)).toEqual([{ id: 'getting-it' }, undefined, { id: 'usage' }]);

    // The custom id is written as GitBook writes it; the one the rule gives and the missing one write nothing.
    const md = (await page(admin, spaceId, pageId, 'markdown')).markdown as string;
    expect(md.trim()).toBe('## Install <a href="#getting-it" id="getting-it"></a>\n\n## Install\n\n## Usage');

    const site = await newSite(admin, { title: 'Acme', spaces: [spaceId] });
    const url: string = (await publish(admin, site.id)).urls.published;
    const html = await open(h.current, `${url}/guide`);
    expect(html.status).toBe(200);
    expect(siteHeadingIds(html.text)).toEqual(['getting-it', 'install', 'usage']);
  });

  it('Markdown -> Document -> Markdown keeps custom anchors and drops none the rule would not give back', () => {
    const cases = [
      '## A\n\n## A <a href="#a" id="a"></a>',
      '# Intro <a href="#start" id="start"></a>\n\n## Intro\n\n## Intro',
      '## Über *uns*\n\n## Über uns\n\n#### Deep <a href="#x.y" id="x.y"></a>',
      '## ???\n\n## ???',
    ];
    for (const md of cases) {
      const document = markdownToDocument(md);
      expect(gitbookDocumentErrors(document), md).toBeUndefined();
      const ids = headings(document as Json).map((b) => b.meta.id);
      expect(new Set(ids).size, md).toBe(ids.length);
      const once = documentToMarkdown(document);
      expect(markdownToDocument(once), md).toEqual(document);
      expect(documentToMarkdown(markdownToDocument(once)), md).toBe(once);
    }
    // An explicit id equal to what the rule gives is not written again; one it would not give is.
    expect(documentToMarkdown(markdownToDocument('## A <a href="#a" id="a"></a>'))).toBe('## A');
    expect(documentToMarkdown(markdownToDocument(cases[0]))).toBe('## A <a href="#a-1" id="a-1"></a>\n\n## A <a href="#a" id="a"></a>');
    expect(headings(markdownToDocument('## ???') as Json)[0].meta).toEqual({ id: 'section' });
  });
});
