// Block keys and the block-level three-way merge of pages (server/content/block-keys.ts, merge.ts):
// edits to different blocks of one page merge; edits to the same block, or a block deleted on one side and
// edited on the other, are a 409 naming the page and the block, for a merge and for an update alike.
import { describe, expect, it } from 'vitest';
import type { Account } from './support/harness.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

type Block = { object: string; type: string; key?: string; nodes?: Block[]; leaves?: { text: string }[] };

// Its heading is not the page's title ("Guide"), so it is a block of the page (docs/content.md, "The title and a leading H1").
const original = '# Overview\n\nFirst paragraph.\n\nSecond paragraph.\n\nThird paragraph.';

async function openChangeRequest(admin: Account, spaceId: string) {
  const res = await admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'Edit' });
  expect(res.status).toBe(201);
  return res.body as { id: string; number: number };
}

async function write(admin: Account, spaceId: string, crId: string, changes: unknown[]) {
  const res = await admin.api.post(`/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, { changes });
  expect(res.status).toBe(200);
  return res.body as { changes: { object: string; page: { id: string } }[] };
}

/** A space whose current content has one page holding `original`. */
async function spaceWithPage(admin: Account) {
  const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' })).body;
  const cr = await openChangeRequest(admin, space.id);
  const done = await write(admin, space.id, cr.id, [{ operation: 'insert_page', title: 'Guide', document: { markdown: original } }]);
  expect((await admin.api.post(`/spaces/${space.id}/change-requests/${cr.id}/merge`)).status).toBe(200);
  return { spaceId: space.id as string, pageId: done.changes[0].page.id };
}

async function spaceDocument(admin: Account, spaceId: string, pageId: string): Promise<Block[]> {
  const res = await admin.api.get(`/spaces/${spaceId}/content/page/${pageId}`, { format: 'document' });
  expect(res.status).toBe(200);
  return res.body.document.nodes;
}

async function spaceMarkdown(admin: Account, spaceId: string, pageId: string): Promise<string> {
  const res = await admin.api.get(`/spaces/${spaceId}/content/page/${pageId}`, { format: 'markdown' });
  expect(res.status).toBe(200);
  return res.body.markdown;
}

const edit = (page: string, markdown: string) => ({ operation: 'update_page', page, document: { markdown } });

describe('block keys and the block-level merge', () => {
  it('get /spaces/{spaceId}/content/page/{pageId} gives every block a key that survives edits of other blocks and of itself', async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, pageId } = await spaceWithPage(admin);
    const before = await spaceDocument(admin, spaceId, pageId);
    expect(before.map((b) => b.type)).toEqual(['heading-1', 'paragraph', 'paragraph', 'paragraph']);
    const keys = before.map((b) => b.key);
    expect(new Set(keys).size).toBe(4);
    expect(keys.every((k) => typeof k === 'string' && k.length > 0)).toBe(true);
    // The same read gives the same keys.
    expect((await spaceDocument(admin, spaceId, pageId)).map((b) => b.key)).toEqual(keys);

    const cr = await openChangeRequest(admin, spaceId);
    await write(admin, spaceId, cr.id, [edit(pageId, '# Overview\n\nNew opening.\n\nFirst paragraph.\n\nSecond paragraph, edited.\n\nThird paragraph.')]);
    const res = await admin.api.get(`/spaces/${spaceId}/change-requests/${cr.id}/content/page/${pageId}`, { format: 'document' });
    expect(res.status).toBe(200);
    const after: Block[] = res.body.document.nodes;
    expect(after.map((b) => b.key)).toEqual([keys[0], expect.any(String), keys[1], keys[2], keys[3]]);
    expect(keys).not.toContain(after[1].key);
  });

  it('post /spaces/{spaceId}/change-requests/{changeRequestId}/merge merges two change requests that edit different paragraphs of one page', async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, pageId } = await spaceWithPage(admin);
    const keys = (await spaceDocument(admin, spaceId, pageId)).map((b) => b.key);
    const first = await openChangeRequest(admin, spaceId);
    const second = await openChangeRequest(admin, spaceId);
    // Neighbouring paragraphs, one on each side, and a paragraph added at the end by the second.
    await write(admin, spaceId, first.id, [edit(pageId, '# Overview\n\nFirst paragraph, by the first.\n\nSecond paragraph.\n\nThird paragraph.')]);
    await write(admin, spaceId, second.id, [edit(pageId, '# Overview\n\nFirst paragraph.\n\nSecond paragraph, by the second.\n\nThird paragraph.\n\nA closing word.')]);
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${first.id}/merge`)).status).toBe(200);
    const merged = await admin.api.post(`/spaces/${spaceId}/change-requests/${second.id}/merge`);
    expect(merged.status).toBe(200);
    expect(await spaceMarkdown(admin, spaceId, pageId)).toBe(
      '# Overview\n\nFirst paragraph, by the first.\n\nSecond paragraph, by the second.\n\nThird paragraph.\n\nA closing word.',
    );
    const doc = await spaceDocument(admin, spaceId, pageId);
    expect(doc.map((b) => b.key).slice(0, 4)).toEqual(keys);
    expect(doc).toHaveLength(5);
  });

  it('post /spaces/{spaceId}/change-requests/{changeRequestId}/merge answers 409 naming the page and the block changed on both sides, and writes nothing', async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, pageId } = await spaceWithPage(admin);
    const keys = (await spaceDocument(admin, spaceId, pageId)).map((b) => b.key);
    const first = await openChangeRequest(admin, spaceId);
    const second = await openChangeRequest(admin, spaceId);
    await write(admin, spaceId, first.id, [edit(pageId, '# Overview\n\nFirst paragraph.\n\nSecond paragraph, one way.\n\nThird paragraph.')]);
    await write(admin, spaceId, second.id, [edit(pageId, '# Overview\n\nFirst paragraph.\n\nSecond paragraph, another way.\n\nThird paragraph.')]);
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${first.id}/merge`)).status).toBe(200);
    const revision = (await admin.api.get(`/spaces/${spaceId}`)).body.revision;
    const refused = await admin.api.post(`/spaces/${spaceId}/change-requests/${second.id}/merge`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain(`Block ${keys[2]}`);
    expect(refused.body.error.message).toContain(pageId);
    expect(refused.body.error.message).toContain('"Guide"');
    expect((await admin.api.get(`/spaces/${spaceId}`)).body.revision).toBe(revision);
    expect((await admin.api.get(`/spaces/${spaceId}/change-requests/${second.id}`)).body.status).toBe('open');

    // Bringing it up to date follows the same rules.
    const update = await admin.api.post(`/spaces/${spaceId}/change-requests/${second.id}/update`);
    expect(update.status).toBe(409);
    expect(update.body.error.message).toContain(`Block ${keys[2]}`);
  });

  it('post /spaces/{spaceId}/change-requests/{changeRequestId}/update brings in edits of other blocks, and refuses a block deleted on one side and edited on the other', async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, pageId } = await spaceWithPage(admin);
    const keys = (await spaceDocument(admin, spaceId, pageId)).map((b) => b.key);
    const space = await openChangeRequest(admin, spaceId);
    const mine = await openChangeRequest(admin, spaceId);
    const other = await openChangeRequest(admin, spaceId);
    await write(admin, spaceId, space.id, [edit(pageId, '# Overview\n\nFirst paragraph.\n\nSecond paragraph.')]);
    await write(admin, spaceId, mine.id, [edit(pageId, '# Overview\n\nFirst paragraph, mine.\n\nSecond paragraph.\n\nThird paragraph.')]);
    await write(admin, spaceId, other.id, [edit(pageId, '# Overview\n\nFirst paragraph.\n\nSecond paragraph.\n\nThird paragraph, edited.')]);
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${space.id}/merge`)).status).toBe(200);

    const updated = await admin.api.post(`/spaces/${spaceId}/change-requests/${mine.id}/update`);
    expect(updated.status).toBe(200);
    const page = await admin.api.get(`/spaces/${spaceId}/change-requests/${mine.id}/content/page/${pageId}`, { format: 'markdown' });
    expect(page.body.markdown).toBe('# Overview\n\nFirst paragraph, mine.\n\nSecond paragraph.');

    const refused = await admin.api.post(`/spaces/${spaceId}/change-requests/${other.id}/update`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain(`Block ${keys[3]}`);
    expect(refused.body.error.message).toContain('deleted on one side');
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${other.id}/merge`)).status).toBe(409);
  });

  it('post /spaces/{spaceId}/change-requests/{changeRequestId}/content reverts only the blocks named by revert_page.block', async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, pageId } = await spaceWithPage(admin);
    const keys = (await spaceDocument(admin, spaceId, pageId)).map((b) => b.key as string);
    const cr = await openChangeRequest(admin, spaceId);
    await write(admin, spaceId, cr.id, [edit(pageId, '# Overview\n\nFirst, changed.\n\nSecond, changed.')]);
    await write(admin, spaceId, cr.id, [{ operation: 'revert_page', page: pageId, block: [keys[1], keys[3]] }]);
    const page = await admin.api.get(`/spaces/${spaceId}/change-requests/${cr.id}/content/page/${pageId}`, { format: 'document' });
    expect(page.body.document.nodes.map((b: Block) => b.key)).toEqual(keys);
    const md = await admin.api.get(`/spaces/${spaceId}/change-requests/${cr.id}/content/page/${pageId}`, { format: 'markdown' });
    expect(md.body.markdown).toBe('# Overview\n\nFirst paragraph.\n\nSecond, changed.\n\nThird paragraph.');

    const unknown = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, {
      changes: [{ operation: 'revert_page', page: pageId, block: ['no-such-block'] }],
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('body.changes[0].block[0]');
  });

  it('post /spaces/{spaceId}/change-requests/{changeRequestId}/content keeps the keys a document sends', async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, pageId } = await spaceWithPage(admin);
    const cr = await openChangeRequest(admin, spaceId);
    const read = await admin.api.get(`/spaces/${spaceId}/change-requests/${cr.id}/content/page/${pageId}`, { format: 'document' });
    const doc = read.body.document;
    // Swap the last two paragraphs and edit one: a client that sends keys keeps each block's identity.
    const [h1, p1, p2, p3] = doc.nodes;
    p2.nodes = [{ object: 'text', leaves: [{ object: 'leaf', text: 'Second, moved last.', marks: [] }] }];
    await write(admin, spaceId, cr.id, [{ operation: 'update_page', page: pageId, document: { document: { ...doc, nodes: [h1, p1, p3, p2] } } }]);
    const after = await admin.api.get(`/spaces/${spaceId}/change-requests/${cr.id}/content/page/${pageId}`, { format: 'document' });
    expect(after.body.document.nodes.map((b: Block) => b.key)).toEqual([h1.key, p1.key, p3.key, p2.key]);
  });
});
