// Keys that stay with their block (server/content/block-keys.ts): a Markdown edit never gives an existing
// key to a different block. Unchanged, moved and edited blocks keep theirs, new blocks get new ones, a split
// block's key stays with the part holding more of its text; list items keep theirs inside their list. Over HTTP, a comment on
// a block still names that block after a paragraph is inserted above it and it is edited, and
// `revert_page.block` reverts that block.
import { describe, expect, it } from 'vitest';
import { pageDocument, setPageContent } from '../server/content/page-content.js';
import type { StoredPage } from '../server/content/revision-content.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

function newPage(markdown: string): StoredPage {
  const page = { id: 'pag_1', parent: null, position: 'a0', type: 'document', title: 'T', slug: 't', hidden: false, noIndex: false, noRobotsIndex: false, createdAt: '', updatedAt: '' } as StoredPage;
  setPageContent(page, { markdown }, 'body');
  return page;
}

type Node = { type: string; key?: string; nodes?: Node[]; leaves?: { text: string }[] };
const textOf = (n: Node): string => (n.leaves ?? []).map((l) => l.text).join('') + (n.nodes ?? []).map(textOf).join('');
/** The blocks of the page as [text, key] pairs. */
const blocks = (page: StoredPage) => (pageDocument(page).nodes as Node[]).map((b) => [textOf(b), b.key!] as const);
const keyOf = (page: StoredPage, text: string) => blocks(page).find(([t]) => t === text)?.[1];

describe('block keys across Markdown edits', () => {
  it('a paragraph inserted above an edited paragraph gets a new key; the edited one keeps its own', () => {
    const page = newPage('# Guide\n\nConfigure the server before the first start.\n\nThen sign in.');
    const [heading, x, last] = blocks(page).map(([, k]) => k);
    setPageContent(page, { markdown: '# Guide\n\nA new introduction about something else.\n\nConfigure the server before the very first start.\n\nThen sign in.' }, 'body');
    expect(blocks(page)).toEqual([
      ['Guide', heading],
      ['A new introduction about something else.', expect.any(String)],
      ['Configure the server before the very first start.', x],
      ['Then sign in.', last],
    ]);
    expect([heading, x, last]).not.toContain(keyOf(page, 'A new introduction about something else.'));
  });

  it('moved blocks keep their keys, edited or not', () => {
    const page = newPage('First block of text.\n\nSecond block of text.\n\nThird block of text.\n\nFourth block of text.');
    const before = new Map(blocks(page));
    setPageContent(page, { markdown: 'Fourth block of text.\n\nSecond block of text.\n\nFirst block of text, now edited.\n\nThird block of text.' }, 'body');
    expect(keyOf(page, 'Fourth block of text.')).toBe(before.get('Fourth block of text.'));
    expect(keyOf(page, 'Second block of text.')).toBe(before.get('Second block of text.'));
    expect(keyOf(page, 'First block of text, now edited.')).toBe(before.get('First block of text.'));
    expect(keyOf(page, 'Third block of text.')).toBe(before.get('Third block of text.'));
  });

  it('a split paragraph keeps its key on the part holding more of its text; the other part is new', () => {
    const page = newPage('Intro.\n\nInstall the tool. Then configure the proxy settings.\n\nOutro.');
    const key = keyOf(page, 'Install the tool. Then configure the proxy settings.');
    setPageContent(page, { markdown: 'Intro.\n\nInstall the tool.\n\nThen configure the proxy settings.\n\nOutro.' }, 'body');
    expect(keyOf(page, 'Then configure the proxy settings.')).toBe(key);
    expect(keyOf(page, 'Install the tool.')).not.toBe(key);
    expect(new Set(blocks(page).map(([, k]) => k)).size).toBe(4);
  });

  it('list items keep their keys when an item is inserted above an edited item', () => {
    const page = newPage('- alpha item\n- beta item here\n- gamma item');
    const items = () => ((pageDocument(page).nodes[0] as Node).nodes ?? []).map((i) => [textOf(i), i.key] as const);
    const [a, b, c] = items().map(([, k]) => k);
    setPageContent(page, { markdown: '- alpha item\n- a brand new entry\n- beta item here, edited\n- gamma item' }, 'body');
    expect(items()).toEqual([
      ['alpha item', a],
      ['a brand new entry', expect.any(String)],
      ['beta item here, edited', b],
      ['gamma item', c],
    ]);
    expect([a, b, c]).not.toContain(items()[1][1]);
  });

  it('a rewritten block in place keeps its key; a deleted one takes nobody else\'s', () => {
    const page = newPage('Alpha.\n\nSomething to rewrite.\n\nOmega.');
    const [alpha, rewrite, omega] = blocks(page).map(([, k]) => k);
    setPageContent(page, { markdown: 'Alpha.\n\nCompletely different words here.\n\nOmega.' }, 'body');
    expect(blocks(page).map(([, k]) => k)).toEqual([alpha, rewrite, omega]);
    setPageContent(page, { markdown: 'Alpha.\n\nOmega.' }, 'body');
    expect(blocks(page).map(([, k]) => k)).toEqual([alpha, omega]);
  });
});

describe('comments and reverts follow their block', () => {
  it('post /spaces/{spaceId}/comments on a block still names that block after an insert above and an edit of it, and revert_page.block reverts it', async () => {
    const admin = await h.current.newAdmin();
    const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' });
    expect(space.status).toBe(201);
    const spaceId = space.body.id as string;
    const cr = await admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'First' });
    expect(cr.status).toBe(201);
    const inserted = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/content?compat=false`, {
      changes: [{ operation: 'insert_page', title: 'Guide', document: { markdown: 'Configure the server before the first start.\n\nThen sign in.' } }],
    });
    expect(inserted.status).toBe(200);
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
    const pageId = inserted.body.changes[0].page.id as string;
    const doc = await admin.api.get(`/spaces/${spaceId}/content/page/${pageId}`, { format: 'document' });
    expect(doc.status).toBe(200);
    const x = doc.body.document.nodes[0].key as string;
    const spaceRead = await admin.api.get(`/spaces/${spaceId}`);
    expect(spaceRead.status).toBe(200);
    const before = spaceRead.body.revision as string;

    const comment = await admin.api.post(`/spaces/${spaceId}/comments`, { page: pageId, node: x, body: { markdown: 'Which server?' } });
    expect(comment.status).toBe(200);
    expect(comment.body.target.node).toEqual({ id: x });

    const edit = await admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'Edit' });
    expect(edit.status).toBe(201);
    const written = await admin.api.post(`/spaces/${spaceId}/change-requests/${edit.body.id}/content?compat=false`, {
      changes: [{ operation: 'update_page', page: pageId, document: { markdown: 'Read this first, it is new.\n\nConfigure the API server before the first start.\n\nThen sign in.' } }],
    });
    expect(written.status).toBe(200);
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${edit.body.id}/merge`)).status).toBe(200);
    const after = await admin.api.get(`/spaces/${spaceId}/content/page/${pageId}`, { format: 'document' });
    expect(after.status).toBe(200);
    const named = (after.body.document.nodes as Node[]).find((b) => b.key === x);
    expect(named && textOf(named)).toBe('Configure the API server before the first start.');
    const stillThere = await admin.api.get(`/spaces/${spaceId}/comments/${comment.body.id}`);
    expect(stillThere.status).toBe(200);
    expect(stillThere.body.target.node).toEqual({ id: x });

    // Reverting the block by its key brings back its old text, and leaves the new paragraph alone.
    const revert = await admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'Revert' });
    expect(revert.status).toBe(201);
    const reverted = await admin.api.post(`/spaces/${spaceId}/change-requests/${revert.body.id}/content?compat=false`, {
      changes: [{ operation: 'revert_page', page: pageId, revision: before, block: [x] }],
    });
    expect(reverted.status).toBe(200);
    const md = await admin.api.get(`/spaces/${spaceId}/change-requests/${revert.body.id}/content/page/${pageId}`, { format: 'markdown' });
    expect(md.status).toBe(200);
    expect(md.body.markdown).toBe('Read this first, it is new.\n\nConfigure the server before the first start.\n\nThen sign in.');
  });
});
