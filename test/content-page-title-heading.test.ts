// A leading `# Heading` that is the page's title is the title, not a block (docs/content.md, "The title and
// a leading H1"): Markdown written to a page through the API drops it (GitBook's renderer would show the
// title twice), a page written without a title takes it as its title, a different heading stays, and the
// page's Markdown as published (`<page URL>.md`) writes the title back as `# Title` once, so writing that
// Markdown again gives the same Document.
import { describe, expect, it } from 'vitest';
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

const blocks = (document: Json) => (document.nodes as Json[]).map((b) => [b.type, textOf(b)]);
const textOf = (node: Json): string => (node.object === 'text' ? node.leaves.map((l: Json) => l.text).join('') : (node.nodes ?? []).map(textOf).join(''));

describe('a leading H1 equal to the page title', () => {
  it('is the title, not a block: dropped on insert and update, taken as the title when there is none, kept when it differs', async () => {
    const admin = await h.current.newAdmin();
    const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' });
    expect(space.status).toBe(201);
    const spaceId = space.body.id as string;
    const [started, untitled, faq, sub] = await write(admin, spaceId, [
      { operation: 'insert_page', title: 'Getting started', document: { markdown: '# Getting started\n\nWelcome.' } },
      { operation: 'insert_page', document: { markdown: '# Quick *start*\n\nRun it.\n\n# Next\n\nThen.' } },
      { operation: 'insert_page', title: 'FAQ', document: { markdown: '# Questions\n\nAsk.' } },
      { operation: 'insert_page', document: { markdown: 'Intro.\n\n## Details\n\nMore.' } },
    ]);

    const first = await page(admin, spaceId, started);
    expect(first.title).toBe('Getting started');
    expect(blocks(first.document)).toEqual([['paragraph', 'Welcome.']]);
    expect((await page(admin, spaceId, started, 'markdown')).markdown.trim()).toBe('Welcome.');

    // No title given: the leading H1 is the title (its text, marks aside) and the slug is made from it; a
    // later H1 is content.
    const second = await page(admin, spaceId, untitled);
    expect(second).toMatchObject({ title: 'Quick start', slug: 'quick-start' });
    expect(blocks(second.document)).toEqual([
      ['paragraph', 'Run it.'],
      ['heading-1', 'Next'],
      ['paragraph', 'Then.'],
    ]);

    // A first heading that is not the title is content.
    expect(blocks((await page(admin, spaceId, faq)).document)).toEqual([
      ['heading-1', 'Questions'],
      ['paragraph', 'Ask.'],
    ]);
    // No title and no leading H1: the first heading names the page, as before, and stays in it.
    const fourth = await page(admin, spaceId, sub);
    expect(fourth.title).toBe('Details');
    expect(blocks(fourth.document).map(([type]) => type)).toEqual(['paragraph', 'heading-2', 'paragraph']);

    // An update compares with the title the change gives, or the page's own.
    await write(admin, spaceId, [
      { operation: 'update_page', page: started, document: { markdown: '# Getting started\n\nWelcome again.' } },
      { operation: 'update_page', page: faq, title: 'Questions', document: { markdown: '# Questions\n\nAsk us.' } },
    ]);
    expect(blocks((await page(admin, spaceId, started)).document)).toEqual([['paragraph', 'Welcome again.']]);
    const renamed = await page(admin, spaceId, faq);
    expect(renamed.title).toBe('Questions');
    expect(blocks(renamed.document)).toEqual([['paragraph', 'Ask us.']]);
  });

  it('is written back as `# Title` once in the published Markdown, and writing that Markdown again changes nothing', async () => {
    const admin = await h.current.newAdmin();
    const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Guides' });
    expect(space.status).toBe(201);
    const spaceId = space.body.id as string;
    const [install] = await write(admin, spaceId, [{ operation: 'insert_page', title: 'Install', document: { markdown: '# Install\n\nRun `acme install`.' } }]);
    const before = await page(admin, spaceId, install);
    const site = await newSite(admin, { title: 'Acme', spaces: [spaceId] });
    const url: string = (await publish(admin, site.id)).urls.published;
    const md = await open(h.current, `${url}/install.md`);
    expect(md.status).toBe(200);
    expect(md.text).toBe('# Install\n\nRun `acme install`.\n');

    await write(admin, spaceId, [{ operation: 'update_page', page: install, document: { markdown: md.text } }]);
    const after = await page(admin, spaceId, install);
    expect(after.title).toBe('Install');
    expect(after.document).toEqual(before.document);
  });
});
