import { describe, expect, it } from 'vitest';
import type { Account } from './support/harness.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

async function setup(admin: Account) {
  const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' })).body;
  const cr = (await admin.api.post(`/spaces/${space.id}/change-requests`)).body;
  const base = `/spaces/${space.id}/change-requests/${cr.id}`;
  const send = (changes: unknown[], compat = false) => admin.api.post(`${base}/content?compat=${compat}`, { changes });
  const tree = async () => {
    const res = await admin.api.get(`${base}/content/pages`);
    const walk = (pages: { title: string; pages?: unknown[] }[]): unknown[] => pages.map((p) => (p.pages?.length ? [p.title, walk(p.pages as never)] : p.title));
    return walk(res.body.pages);
  };
  return { space, cr, base, send, tree };
}

describe('change request content', () => {
  it('post /spaces/{spaceId}/change-requests/{changeRequestId}/content applies a batch as one revision and answers the change request', async () => {
    const admin = await h.current.newAdmin();
    const { space, cr, send } = await setup(admin);
    const res = await send([{ operation: 'insert_page', document: { markdown: '# Hello' } }], true);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'change-request', id: cr.id });
    expect(res.body.revision).not.toBe(cr.revision);
    expect(res.body.revisionInitial).toBe(space.revision);
  });

  it('post /spaces/{spaceId}/change-requests/{changeRequestId}/content takes the number as well as the id, adds the writer as a contributor once, and 404s for neither', async () => {
    const admin = await h.current.newAdmin();
    const { space, cr } = await setup(admin);
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const byNumber = `/spaces/${space.id}/change-requests/${cr.number}/content?compat=true`;
    for (const writer of [admin, editor, editor]) {
      const res = await writer.api.post(byNumber, { changes: [{ operation: 'insert_page', document: { markdown: '# Hello' } }] });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: cr.id, number: cr.number, createdBy: { id: admin.userId }, comments: 0 });
    }
    const listed = await admin.api.get(`/spaces/${space.id}/change-requests`, { contributor: editor.userId });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((c: { id: string }) => c.id)).toEqual([cr.id]);
    const pages = await admin.api.get(`/spaces/${space.id}/change-requests/${cr.id}/content/pages`);
    expect(pages.status).toBe(200);
    expect(pages.body.pages).toHaveLength(3);
    for (const ref of [String(cr.number + 1), 'crq_none']) {
      const missing = await admin.api.post(`/spaces/${space.id}/change-requests/${ref}/content`, { changes: [{ operation: 'insert_page', document: { markdown: 'x' } }] });
      expect(missing.status).toBe(404);
      expect(missing.body.error.message).toContain(`Change request ${ref} (path.changeRequestId) not found`);
    }
  });

  it('post /spaces/{spaceId}/change-requests/{changeRequestId}/content inserts, moves, orders, updates and deletes pages', async () => {
    const admin = await h.current.newAdmin();
    const { send, tree, base } = await setup(admin);
    const first = await send([
      { operation: 'insert_page', document: { markdown: 'a' }, title: 'A', ref: 'a' },
      { operation: 'insert_page', document: { markdown: 'b' }, title: 'B', ref: 'b' },
      { operation: 'insert_page', document: { markdown: 'c' }, title: 'C', at: 0 },
      { operation: 'insert_page', document: { markdown: 'a1' }, title: 'A1', into: 'a' },
      { operation: 'update_page', page: 'b', title: 'B2', into: 'a', at: 0 },
    ]);
    expect(first.status).toBe(200);
    expect(first.body.changes.map((c: { object: string }) => c.object)).toEqual(['created_page', 'created_page', 'created_page', 'created_page', 'updated_page']);
    expect(first.body.changes[0]).toMatchObject({ ref: 'a', page: { object: 'page' } });
    expect(first.body.changes[0].page.urls.location).toContain(`${base}/content/page/`);
    expect(await tree()).toEqual(['C', ['A', ['B2', 'A1']]]);
    const a = first.body.changes[0].page.id;
    const b = first.body.changes[1].page.id;
    const second = await send([
      { operation: 'update_page', page: b, into: null, document: { markdown: 'new b' }, slug: 'bee' },
      { operation: 'delete_page', page: a },
    ]);
    expect(second.body.changes).toEqual([
      { object: 'updated_page', page: expect.objectContaining({ id: b }) },
      { object: 'deleted_page', page: a },
    ]);
    expect(await tree()).toEqual(['C', 'B2']);
    const page = await admin.api.get(`${base}/content/page/${b}`, { format: 'markdown' });
    expect(page.body).toMatchObject({ markdown: 'new b', slug: 'bee', path: 'bee' });
  });

  it('post /spaces/{spaceId}/change-requests/{changeRequestId}/content reverts a page to the base revision', async () => {
    const admin = await h.current.newAdmin();
    const { space, send, base } = await setup(admin);
    const made = await send([{ operation: 'insert_page', document: { markdown: 'v1' }, title: 'Page' }]);
    const pageId = made.body.changes[0].page.id;
    await admin.api.post(`${base}/merge`);
    const cr2 = (await admin.api.post(`/spaces/${space.id}/change-requests`)).body;
    const base2 = `/spaces/${space.id}/change-requests/${cr2.id}`;
    await admin.api.post(`${base2}/content`, { changes: [{ operation: 'update_page', page: pageId, document: { markdown: 'v2' }, title: 'Changed' }] });
    const reverted = await admin.api.post(`${base2}/content?compat=false`, { changes: [{ operation: 'revert_page', page: pageId }] });
    expect(reverted.status).toBe(200);
    const page = await admin.api.get(`${base2}/content/page/${pageId}`, { format: 'markdown' });
    expect(page.body).toMatchObject({ title: 'Page', markdown: 'v1' });
    const unknownRevision = await admin.api.post(`${base2}/content`, { changes: [{ operation: 'revert_page', page: pageId, revision: 'rev_nope' }] });
    expect(unknownRevision.status).toBe(404);
  });

  it('post /spaces/{spaceId}/change-requests/{changeRequestId}/content inserts files', async () => {
    const admin = await h.current.newAdmin();
    const { send, base } = await setup(admin);
    const res = await send([{ operation: 'insert_files', files: [{ name: 'a.txt', contentType: 'text/plain', base64: 'aGVsbG8=' }] }]);
    expect(res.body.insertedFiles).toEqual([expect.objectContaining({ name: 'a.txt', contentType: 'text/plain', size: 5 })]);
    const files = await admin.api.get(`${base}/content/files`);
    expect(files.body.items.map((f: { name: string }) => f.name)).toEqual(['a.txt']);
    const file = await admin.api.get(`${base}/content/files/${res.body.insertedFiles[0].id}`);
    expect(file.body.id).toBe(res.body.insertedFiles[0].id);
    expect((await admin.api.get(`${base}/content/files/fil_nope`)).status).toBe(404);
  });

  it('post /spaces/{spaceId}/change-requests/{changeRequestId}/content refuses the whole batch when one change is bad', async () => {
    const admin = await h.current.newAdmin();
    const { send, tree } = await setup(admin);
    const made = await send([{ operation: 'insert_page', document: { markdown: 'x' }, title: 'X', ref: 'x' }, { operation: 'insert_page', document: {}, title: 'Y', into: 'x' }]);
    const [x, y] = made.body.changes.map((c: { page: { id: string } }) => c.page.id);
    const missing = await send([{ operation: 'insert_page', document: { markdown: 'z' }, title: 'Z' }, { operation: 'update_page', page: 'pag_nope', title: 'N' }]);
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toContain('body.changes[1].page');
    const cycle = await send([{ operation: 'update_page', page: x, into: y }]);
    expect(cycle.status).toBe(400);
    expect(cycle.body.error.message).toContain('body.changes[0].into');
    const dup = await send([{ operation: 'insert_page', document: {}, ref: 'r' }, { operation: 'insert_page', document: {}, ref: 'r' }]);
    expect(dup.status).toBe(400);
    expect(dup.body.error.message).toContain('body.changes[1].ref');
    const tooMany = await send(Array.from({ length: 51 }, () => ({ operation: 'insert_page', document: {} })));
    expect(tooMany.status).toBe(400);
    expect(await tree()).toEqual([['X', ['Y']]]);
  });

  it('post /spaces/{spaceId}/change-requests/{changeRequestId}/content answers 409 when closed or locked, 403 below edit, 404 when unknown', async () => {
    const admin = await h.current.newAdmin();
    const commenter = await h.current.newMember(admin.organizationId, 'comment');
    const { space, base, send } = await setup(admin);
    const change = [{ operation: 'insert_page', document: {} }];
    expect((await commenter.api.post(`${base}/content`, { changes: change })).status).toBe(403);
    expect((await admin.api.post(`/spaces/${space.id}/change-requests/404/content`, { changes: change })).status).toBe(404);
    await admin.api.patch(`/spaces/${space.id}`, { editMode: 'locked' });
    const locked = await send(change);
    // A locked space is a state of the space, not a role the caller lacks: 409, as in applyTemplateToSpace.
    expect(locked.status).toBe(409);
    expect(locked.body.error.message).toContain('locked');
    await admin.api.patch(`/spaces/${space.id}`, { editMode: 'live' });
    await admin.api.patch(base, { status: 'archived' });
    expect((await send(change)).status).toBe(409);
  });

  it('get /spaces/{spaceId}/change-requests/{changeRequestId}/content returns the revision of the change request, apart from the space', async () => {
    const admin = await h.current.newAdmin();
    const { space, cr, base, send } = await setup(admin);
    const made = await send([{ operation: 'insert_page', document: { markdown: '# T\n\n```js\nx()\n```' }, title: 'T' }]);
    const pageId = made.body.changes[0].page.id;
    const rev = await admin.api.get(`${base}/content`);
    expect(rev.status).toBe(200);
    expect(rev.body).toMatchObject({ object: 'revision', id: made.body.changeRequest.revision, parents: [cr.revision], type: 'edits' });
    expect(rev.body.pages[0].urls.app).toBe(`https://api.test.example/app/s/${space.id}/~/changes/1/t`);
    expect((await admin.api.get(`/spaces/${space.id}/content/pages`)).body.pages).toEqual([]);
    const page = await admin.api.get(`${base}/content/page/${pageId}`);
    // The leading `# T` is the page's title, not a block (docs/content.md, "The title and a leading H1").
    expect(page.body.document.nodes.map((n: { type: string }) => n.type)).toEqual(['code']);
    expect((await admin.api.get(`${base}/content/page/pag_nope`)).status).toBe(404);
    expect((await admin.api.get(`/spaces/${space.id}/change-requests/9/content`)).status).toBe(404);
    expect((await admin.api.get(`/spaces/${space.id}/change-requests/9/content/pages`)).status).toBe(404);
  });
});
