import { describe, expect, it } from 'vitest';
import type { Account } from './support/harness.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

/** A space with one page "Guide" in its current content. */
async function spaceWithPage(admin: Account) {
  const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' })).body;
  const cr = (await admin.api.post(`/spaces/${space.id}/change-requests`)).body;
  const done = await admin.api.post(`/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
    changes: [{ operation: 'insert_page', document: { markdown: '# Guide\n\nRead this first.' } }],
  });
  await admin.api.post(`/spaces/${space.id}/change-requests/${cr.id}/merge`);
  return { spaceId: space.id as string, pageId: done.body.changes[0].page.id as string };
}

describe('comments', () => {
  it('post /spaces/{spaceId}/comments posts on the space, a page, a block or a table cell', async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, pageId } = await spaceWithPage(admin);
    const space = await admin.api.get(`/spaces/${spaceId}`);
    const onSpace = await admin.api.post(`/spaces/${spaceId}/comments`, { body: { markdown: 'Looks **good**' } });
    expect(onSpace.status).toBe(200);
    expect(onSpace.body).toMatchObject({
      object: 'comment',
      postedBy: { id: admin.userId },
      body: { markdown: 'Looks **good**' },
      status: 'open',
      replies: 0,
      repliers: [],
      reactions: [],
      target: { space: spaceId, revision: space.body.revision },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    expect(onSpace.body.urls.location).toBe(`https://api.test.example/v1/spaces/${spaceId}/comments/${onSpace.body.id}`);
    const doc = await admin.api.get(`/spaces/${spaceId}/content/page/${pageId}`, { format: 'document' });
    expect(doc.status).toBe(200);
    const key = doc.body.document.nodes[0].key as string;
    expect(key).toEqual(expect.any(String));
    const onNode = await admin.api.post(`/spaces/${spaceId}/comments`, { body: { markdown: 'Here' }, page: pageId, node: key });
    expect(onNode.status).toBe(200);
    expect(onNode.body.target).toMatchObject({ page: { id: pageId }, node: { id: key } });
    const read = await admin.api.get(`/spaces/${spaceId}/comments/${onNode.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.target.node).toEqual({ id: key });
    const onCell = await admin.api.post(`/spaces/${spaceId}/comments`, { body: {}, page: pageId, tableCell: { record: 'r1', definition: 'c1' } });
    expect(onCell.body.target.tableCell).toEqual({ record: 'r1', definition: 'c1' });
    expect(onCell.body.body).toEqual({});
  });

  it('post /spaces/{spaceId}/comments answers 404 for an unknown page and 403 below comment', async () => {
    const admin = await h.current.newAdmin();
    const reader = await h.current.newMember(admin.organizationId, 'read');
    const { spaceId } = await spaceWithPage(admin);
    const unknown = await admin.api.post(`/spaces/${spaceId}/comments`, { body: { markdown: 'x' }, page: 'pag_nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('body.page');
    expect((await reader.api.post(`/spaces/${spaceId}/comments`, { body: { markdown: 'x' } })).status).toBe(403);
  });

  it('post /spaces/{spaceId}/comments refuses a node that is not a block key of the page at that revision', async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, pageId } = await spaceWithPage(admin);
    const unknown = await admin.api.post(`/spaces/${spaceId}/comments`, { body: { markdown: 'x' }, page: pageId, node: 'b1' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('target.node');
    expect(unknown.body.error.message).toContain('b1');
    const noPage = await admin.api.post(`/spaces/${spaceId}/comments`, { body: { markdown: 'x' }, node: 'b1' });
    expect(noPage.status).toBe(400);
    expect(noPage.body.error.message).toContain('target.node');
    const cellNoPage = await admin.api.post(`/spaces/${spaceId}/comments`, { body: { markdown: 'x' }, tableCell: { record: 'r1', definition: 'c1' } });
    expect(cellNoPage.status).toBe(400);
    expect(cellNoPage.body.error.message).toContain('body.tableCell');

    // A block added in a change request is a block of the page in that change request, not in the space.
    const cr = (await admin.api.post(`/spaces/${spaceId}/change-requests`)).body;
    const edited = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, {
      changes: [{ operation: 'update_page', page: pageId, document: { markdown: '# Guide\n\nRead this first.\n\nA new paragraph.' } }],
    });
    expect(edited.status).toBe(200);
    const crDoc = await admin.api.get(`/spaces/${spaceId}/change-requests/${cr.id}/content/page/${pageId}`, { format: 'document' });
    expect(crDoc.status).toBe(200);
    const spaceDoc = await admin.api.get(`/spaces/${spaceId}/content/page/${pageId}`, { format: 'document' });
    const spaceKeys = new Set(spaceDoc.body.document.nodes.map((n: { key: string }) => n.key));
    const added = crDoc.body.document.nodes.map((n: { key: string }) => n.key).find((k: string) => !spaceKeys.has(k));
    expect(added).toEqual(expect.any(String));
    const onCr = await admin.api.post(`/spaces/${spaceId}/comments`, { body: { markdown: 'New?' }, changeRequest: cr.id, page: pageId, node: added });
    expect(onCr.status).toBe(200);
    expect(onCr.body.target).toMatchObject({ changeRequest: cr.id, page: { id: pageId }, node: { id: added } });
    const onSpace = await admin.api.post(`/spaces/${spaceId}/comments`, { body: { markdown: 'New?' }, page: pageId, node: added });
    expect(onSpace.status).toBe(404);
    expect(onSpace.body.error.message).toContain('target.node');
  });

  it('get /spaces/{spaceId}/comments lists newest first with the status, targetPage, authors and order filters', async () => {
    const admin = await h.current.newAdmin();
    const other = await h.current.newMember(admin.organizationId, 'comment');
    const { spaceId, pageId } = await spaceWithPage(admin);
    const a = (await admin.api.post(`/spaces/${spaceId}/comments`, { body: { markdown: 'a' } })).body;
    const b = (await other.api.post(`/spaces/${spaceId}/comments`, { body: { markdown: 'b' }, page: pageId })).body;
    const c = (await admin.api.post(`/spaces/${spaceId}/comments`, { body: { markdown: 'c' }, page: pageId })).body;
    await admin.api.put(`/spaces/${spaceId}/comments/${a.id}`, { resolved: true });
    const ids = (res: { body: { items: { id: string }[] } }) => res.body.items.map((i) => i.id);
    const all = await admin.api.get(`/spaces/${spaceId}/comments`);
    expect(ids(all)).toEqual([c.id, b.id, a.id]);
    expect(all.body.count).toBe(3);
    expect(ids(await admin.api.get(`/spaces/${spaceId}/comments`, { order: 'asc' }))).toEqual([a.id, b.id, c.id]);
    expect(ids(await admin.api.get(`/spaces/${spaceId}/comments`, { status: 'resolved' }))).toEqual([a.id]);
    expect(ids(await admin.api.get(`/spaces/${spaceId}/comments`, { status: 'open' }))).toEqual([c.id, b.id]);
    expect(ids(await admin.api.get(`/spaces/${spaceId}/comments`, { targetPage: pageId }))).toEqual([c.id, b.id]);
    expect(ids(await admin.api.get(`/spaces/${spaceId}/comments`, { authors: other.userId }))).toEqual([b.id]);
    expect(ids(await admin.api.get(`/spaces/${spaceId}/comments?authors=${other.userId}&authors=${admin.userId}`))).toEqual([c.id, b.id, a.id]);
    const first = await admin.api.get(`/spaces/${spaceId}/comments`, { limit: 2 });
    expect(ids(first)).toEqual([c.id, b.id]);
    const second = await admin.api.get(`/spaces/${spaceId}/comments`, { limit: 2, page: first.body.next.page });
    expect(ids(second)).toEqual([a.id]);
    expect(second.body.count).toBe(3);
    expect(second.body.next).toBeUndefined();
    const doc = await admin.api.get(`/spaces/${spaceId}/comments`, { format: 'document', limit: 1 });
    expect(doc.body.items[0].body.document.object).toBe('document');
  });

  it('get /spaces/{spaceId}/comments/{commentId} reads a comment, 404 when unknown or in another space', async () => {
    const admin = await h.current.newAdmin();
    const { spaceId } = await spaceWithPage(admin);
    const other = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, {})).body;
    const posted = (await admin.api.post(`/spaces/${spaceId}/comments`, { body: { markdown: 'Hi' } })).body;
    const res = await admin.api.get(`/spaces/${spaceId}/comments/${posted.id}`, { format: 'document' });
    expect(res.status).toBe(200);
    expect(res.body.body.document.nodes[0].type).toBe('paragraph');
    expect((await admin.api.get(`/spaces/${spaceId}/comments/cmt_nope`)).status).toBe(404);
    expect((await admin.api.get(`/spaces/${other.id}/comments/${posted.id}`)).status).toBe(404);
  });

  it('put /spaces/{spaceId}/comments/{commentId} resolves, reopens, edits and reacts', async () => {
    const admin = await h.current.newAdmin();
    const member = await h.current.newMember(admin.organizationId, 'comment');
    const { spaceId } = await spaceWithPage(admin);
    const posted = (await admin.api.post(`/spaces/${spaceId}/comments`, { body: { markdown: 'Hi' } })).body;
    const url = `/spaces/${spaceId}/comments/${posted.id}`;
    const resolved = await member.api.put(url, { resolved: true, addedReactions: ['👍', '🎉'] });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ status: 'resolved', resolvedBy: { id: member.userId }, permissions: { edit: false, delete: false } });
    expect(resolved.body.resolvedAt).toBeDefined();
    const again = await admin.api.put(url, { addedReactions: ['👍', '👍'] });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const read = await admin.api.get(url);
    const thumbs = read.body.reactions.find((r: { emoji: string }) => r.emoji === '👍');
    expect(thumbs.count).toBe(2);
    expect(thumbs.users.map((u: { user: { id: string } }) => u.user.id).sort()).toEqual([admin.userId, member.userId].sort());
    const removed = await member.api.put(url, { removedReactions: ['👍', '🎉'], resolved: false });
    expect(removed.body.reactions).toEqual([expect.objectContaining({ emoji: '👍', count: 1 })]);
    expect(removed.body.status).toBe('open');
    expect(removed.body.resolvedAt).toBeUndefined();
    const edited = await admin.api.put(url, { body: { markdown: 'Edited' } });
    expect(edited.body).toMatchObject({ body: { markdown: 'Edited' } });
    expect(edited.body.editedAt).toBeDefined();
  });

  it('put /spaces/{spaceId}/comments/{commentId} refuses to change the body of someone else (403), 404 when unknown', async () => {
    const admin = await h.current.newAdmin();
    const member = await h.current.newMember(admin.organizationId, 'edit');
    const { spaceId } = await spaceWithPage(admin);
    const posted = (await admin.api.post(`/spaces/${spaceId}/comments`, { body: { markdown: 'Hi' } })).body;
    const res = await member.api.put(`/spaces/${spaceId}/comments/${posted.id}`, { body: { markdown: 'Mine now' } });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain('body.body');
    expect((await admin.api.put(`/spaces/${spaceId}/comments/cmt_nope`, { resolved: true })).status).toBe(404);
  });

  it('delete /spaces/{spaceId}/comments/{commentId} deletes for the author or an admin, idempotently', async () => {
    const admin = await h.current.newAdmin();
    const member = await h.current.newMember(admin.organizationId, 'comment');
    const { spaceId } = await spaceWithPage(admin);
    const mine = (await member.api.post(`/spaces/${spaceId}/comments`, { body: { markdown: 'Mine' } })).body;
    const theirs = (await admin.api.post(`/spaces/${spaceId}/comments`, { body: { markdown: 'Theirs' } })).body;
    await member.api.post(`/spaces/${spaceId}/comments/${theirs.id}/replies`, { body: { markdown: 'r' } });
    expect((await member.api.delete(`/spaces/${spaceId}/comments/${theirs.id}`)).status).toBe(403);
    expect((await member.api.delete(`/spaces/${spaceId}/comments/${mine.id}`)).status).toBe(204);
    expect((await admin.api.delete(`/spaces/${spaceId}/comments/${theirs.id}`)).status).toBe(204);
    expect((await admin.api.delete(`/spaces/${spaceId}/comments/${theirs.id}`)).status).toBe(204);
    expect((await admin.api.get(`/spaces/${spaceId}/comments`)).body).toEqual({ items: [], count: 0 });
  });
});
