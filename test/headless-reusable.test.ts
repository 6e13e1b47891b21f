// Reusable contents written through the change-request batch (insert, update, delete), merged like the
// other records of a revision, and read back by the reusable-content reads; pages include them by the
// batch's `ref`.
import { describe, expect, it } from 'vitest';
import { useHarness, type Account } from './support/harness.js';

import { ok } from './support/content-writes.js';

const h = useHarness();

async function draft(admin: Account, spaceId: string, changes: unknown[]) {
  const cr = await ok(admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'Edit' }), 201);
  const res = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, { changes });
  return { cr: cr.id as string, res };
}

async function merge(admin: Account, spaceId: string, changes: unknown[]) {
  const { cr, res } = await draft(admin, spaceId, changes);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await ok(admin.api.post(`/spaces/${spaceId}/change-requests/${cr}/merge`));
  return res.body;
}

const include = (reusableContent: string) => ({ object: 'block', type: 'reusable-content', isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent } } });
const para = (t: string) => ({ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] }] });

describe('reusable contents in the change-request batch', () => {
  it('are inserted (included by a page of the batch by ref), updated and deleted, and read back', async () => {
    const admin = await h.current.newAdmin();
    const space = await ok(admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' }), 201);
    const { changes, reusableContents } = await merge(admin, space.id, [
      { operation: 'insert_reusable_content', ref: 'legal', title: 'Legal', document: { markdown: 'Legal **words**.' } },
      { operation: 'insert_page', title: 'Home', document: { document: { object: 'document', data: {}, nodes: [para('Before.'), include('legal')] } } },
    ]);
    // Page results in `changes`, as before; the reusable contents' in `reusableContents`.
    expect(changes).toEqual([expect.objectContaining({ object: 'created_page' })]);
    expect(reusableContents).toEqual([{ object: 'created_reusable_content', ref: 'legal', reusableContent: expect.any(String) }]);
    const id: string = reusableContents[0].reusableContent;
    expect(id).toMatch(/^rsc_/);

    const revision = await ok(admin.api.get(`/spaces/${space.id}/content`));
    const base = `/spaces/${space.id}/revisions/${revision.id}`;
    expect(revision.reusableContents).toEqual([expect.objectContaining({ id, title: 'Legal' })]);
    const reusable = await ok(admin.api.get(`${base}/reusable-contents/${id}`));
    expect(reusable).toMatchObject({ id, title: 'Legal' });
    const doc = await ok(admin.api.get(`${base}/reusable-contents/${id}/document`));
    expect(doc.nodes[0].type).toBe('paragraph');
    expect(JSON.stringify(doc)).toContain('"bold"');
    expect(await ok(admin.api.get(`/spaces/${space.id}/documents/${reusable.document}`))).toEqual(doc);
    // The page's block names the content by its id, and expands into it.
    const page = revision.pages[0].id;
    const plain = await ok(admin.api.get(`${base}/page/${page}/document`));
    expect(plain.nodes[1].data.ref).toEqual({ kind: 'reusable-content', reusableContent: id });
    const expanded = await ok(admin.api.get(`${base}/page/${page}`, { format: 'markdown', dereferenced: 'reusable-contents' }));
    expect(expanded.markdown).toBe('Before.\n\nLegal **words**.');

    // Updated: title and content, the block keys kept.
    const updated = await merge(admin, space.id, [{ operation: 'update_reusable_content', reusableContent: id, title: 'Legal notice', document: { markdown: 'Legal **words**, revised.' } }]);
    expect(updated.reusableContents).toEqual([{ object: 'updated_reusable_content', reusableContent: id }]);
    expect(updated.changes).toEqual([]);
    const r2 = await ok(admin.api.get(`/spaces/${space.id}/content`));
    expect(r2.reusableContents[0].title).toBe('Legal notice');
    const doc2 = await ok(admin.api.get(`/spaces/${space.id}/revisions/${r2.id}/reusable-contents/${id}/document`));
    expect(JSON.stringify(doc2)).toContain('revised');
    expect(doc2.nodes[0].key).toBe(doc.nodes[0].key);
    // The first revision still answers what it held.
    expect(JSON.stringify(await ok(admin.api.get(`${base}/reusable-contents/${id}/document`)))).not.toContain('revised');

    // Deleted: gone from the revision; the including block stays as it is.
    const deleted = await merge(admin, space.id, [{ operation: 'delete_reusable_content', reusableContent: id }]);
    expect(deleted.reusableContents).toEqual([{ object: 'deleted_reusable_content', reusableContent: id }]);
    const r3 = await ok(admin.api.get(`/spaces/${space.id}/content`));
    expect(r3.reusableContents).toEqual([]);
    expect((await admin.api.get(`/spaces/${space.id}/revisions/${r3.id}/reusable-contents/${id}`)).status).toBe(404);
    const kept = await ok(admin.api.get(`/spaces/${space.id}/revisions/${r3.id}/page/${page}/document`, { dereferenced: 'reusable-contents' }));
    expect(kept.nodes[1].type).toBe('reusable-content');
  });

  it('merge like records: different contents changed on both sides merge; the same content changed on both is a 409', async () => {
    const admin = await h.current.newAdmin();
    const space = await ok(admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' }), 201);
    const { reusableContents: [a] } = await merge(admin, space.id, [{ operation: 'insert_reusable_content', title: 'A', document: { markdown: 'A.' } }]);
    const one = await draft(admin, space.id, [{ operation: 'update_reusable_content', reusableContent: a.reusableContent, title: 'A1' }]);
    const two = await draft(admin, space.id, [{ operation: 'insert_reusable_content', title: 'B' }]);
    const three = await draft(admin, space.id, [{ operation: 'update_reusable_content', reusableContent: a.reusableContent, title: 'A3' }]);
    for (const d of [one, two, three]) expect(d.res.status, JSON.stringify(d.res.body)).toBe(200);
    await ok(admin.api.post(`/spaces/${space.id}/change-requests/${one.cr}/merge`));
    await ok(admin.api.post(`/spaces/${space.id}/change-requests/${two.cr}/merge`));
    const current = await ok(admin.api.get(`/spaces/${space.id}/content`));
    expect(current.reusableContents.map((r: { title: string }) => r.title).sort()).toEqual(['A1', 'B']);
    expect((await admin.api.post(`/spaces/${space.id}/change-requests/${three.cr}/merge`)).status).toBe(409);
  });

  it('refuse, naming the change, an unknown content, a ref used twice and a document that cannot be stored', async () => {
    const admin = await h.current.newAdmin();
    const space = await ok(admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' }), 201);
    const unknown = await draft(admin, space.id, [{ operation: 'update_reusable_content', reusableContent: 'rsc_nothing', title: 'X' }]);
    expect(unknown.res.status).toBe(404);
    expect(unknown.res.body.error.message).toContain('body.changes[0].reusableContent');
    const twice = await draft(admin, space.id, [
      { operation: 'insert_page', ref: 'x', title: 'X', document: { markdown: 'X.' } },
      { operation: 'insert_reusable_content', ref: 'x', title: 'X' },
    ]);
    expect(twice.res.status).toBe(400);
    expect(twice.res.body.error.message).toContain('body.changes[1].ref');
    const noTitle = await draft(admin, space.id, [{ operation: 'insert_reusable_content', title: '' }]);
    expect(noTitle.res.status).toBe(400);
    expect(noTitle.res.body.error.message).toContain('title');
    const deleteUnknown = await draft(admin, space.id, [{ operation: 'delete_reusable_content', reusableContent: 'rsc_nothing' }]);
    expect(deleteUnknown.res.status).toBe(404);
  });
});
