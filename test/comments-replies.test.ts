import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';

const h = useHarness();

async function world() {
  const admin = await h.current.newAdmin();
  const member = await h.current.newMember(admin.organizationId, 'comment');
  const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' })).body;
  const comment = (await admin.api.post(`/spaces/${space.id}/comments`, { body: { markdown: 'Question?' } })).body;
  return { admin, member, spaceId: space.id as string, base: `/spaces/${space.id}/comments/${comment.id}` };
}

describe('comment replies', () => {
  it('post /spaces/{spaceId}/comments/{commentId}/replies replies and counts repliers on the comment', async () => {
    const { admin, member, base } = await world();
    const reply = await member.api.post(`${base}/replies`, { body: { markdown: 'Answer' } });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ object: 'comment-reply', postedBy: { id: member.userId }, body: { markdown: 'Answer' }, reactions: [] });
    expect(reply.body.urls.location).toBe(`https://api.test.example/v1${base}/replies/${reply.body.id}`);
    await member.api.post(`${base}/replies`, { body: { markdown: 'More' } });
    await admin.api.post(`${base}/replies`, { body: { markdown: 'Thanks' } });
    const comment = await admin.api.get(base);
    expect(comment.body.replies).toBe(3);
    expect(comment.body.repliers).toHaveLength(2);
    expect(comment.body.repliers.find((r: { user: { id: string } }) => r.user.id === member.userId).count).toBe(2);
    expect((await admin.api.post(`${base.replace(/cmt_\w+$/, 'cmt_nope')}/replies`, { body: { markdown: 'x' } })).status).toBe(404);
  });

  it('get /spaces/{spaceId}/comments/{commentId}/replies lists replies oldest first, paginated', async () => {
    const { admin, base } = await world();
    for (const text of ['one', 'two', 'three']) await admin.api.post(`${base}/replies`, { body: { markdown: text } });
    const first = await admin.api.get(`${base}/replies`, { limit: 2 });
    expect(first.status).toBe(200);
    expect(first.body.items.map((r: { body: { markdown: string } }) => r.body.markdown)).toEqual(['one', 'two']);
    expect(first.body.count).toBe(3);
    const second = await admin.api.get(`${base}/replies`, { limit: 2, page: first.body.next.page, format: 'document' });
    expect(second.body.items[0].body.document.object).toBe('document');
    expect((await admin.api.get(`${base.replace(/cmt_\w+$/, 'cmt_nope')}/replies`)).status).toBe(404);
  });

  it('get /spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId} reads a reply, 404 when unknown', async () => {
    const { admin, base } = await world();
    const reply = (await admin.api.post(`${base}/replies`, { body: { markdown: 'Hi' } })).body;
    expect((await admin.api.get(`${base}/replies/${reply.id}`)).body).toEqual(reply);
    expect((await admin.api.get(`${base}/replies/rpl_nope`)).status).toBe(404);
  });

  it('put /spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId} edits (author only) and reacts', async () => {
    const { admin, member, base } = await world();
    const reply = (await member.api.post(`${base}/replies`, { body: { markdown: 'Hi' } })).body;
    const url = `${base}/replies/${reply.id}`;
    const edited = await member.api.put(url, { body: { markdown: 'Hello' }, addedReactions: ['👀'] });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ body: { markdown: 'Hello' }, reactions: [{ emoji: '👀', count: 1 }] });
    expect(edited.body.editedAt).toBeDefined();
    const reacted = await admin.api.put(url, { addedReactions: ['👀'] });
    expect(reacted.body.reactions[0].count).toBe(2);
    const forbidden = await admin.api.put(url, { body: { markdown: 'Not mine' } });
    expect(forbidden.status).toBe(403);
    expect((await admin.api.put(`${base}/replies/rpl_nope`, {})).status).toBe(404);
  });

  it('delete /spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId} deletes for the author or an admin, idempotently', async () => {
    const { admin, member, base } = await world();
    const mine = (await member.api.post(`${base}/replies`, { body: { markdown: 'a' } })).body;
    const theirs = (await admin.api.post(`${base}/replies`, { body: { markdown: 'b' } })).body;
    expect((await member.api.delete(`${base}/replies/${theirs.id}`)).status).toBe(403);
    expect((await member.api.delete(`${base}/replies/${mine.id}`)).status).toBe(204);
    expect((await member.api.delete(`${base}/replies/${mine.id}`)).status).toBe(204);
    expect((await admin.api.delete(`${base}/replies/${theirs.id}`)).status).toBe(204);
    expect((await admin.api.delete(`${base.replace(/cmt_\w+$/, 'cmt_nope')}/replies/rpl_nope`)).status).toBe(204);
    expect((await admin.api.get(base)).body).toMatchObject({ replies: 0, repliers: [] });
  });
});
