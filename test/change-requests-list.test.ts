import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';

const h = useHarness();

describe('change request lists', () => {
  async function world() {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'A' })).body;
    const other = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'B' })).body;
    const a1 = (await admin.api.post(`/spaces/${space.id}/change-requests`, { subject: 'a1' })).body;
    const a2 = (await editor.api.post(`/spaces/${space.id}/change-requests`, { subject: 'a2' })).body;
    const a3 = (await admin.api.post(`/spaces/${space.id}/change-requests`, { subject: 'a3' })).body;
    const b1 = (await admin.api.post(`/spaces/${other.id}/change-requests`, { subject: 'b1' })).body;
    await admin.api.patch(`/spaces/${space.id}/change-requests/${a3.id}`, { status: 'draft' });
    // The editor writes in a1, which makes it the most recently updated.
    await editor.api.post(`/spaces/${space.id}/change-requests/${a1.id}/content`, { changes: [{ operation: 'insert_page', document: { markdown: 'x' } }] });
    return { admin, editor, space, other, a1, a2, a3, b1 };
  }
  const subjects = (body: { items: { subject?: string }[] }) => body.items.map((i) => i.subject);

  it('get /spaces/{spaceId}/change-requests lists open ones, most recently updated first, with status and user filters', async () => {
    const { admin, editor, space } = await world();
    const open = await admin.api.get(`/spaces/${space.id}/change-requests`);
    expect(open.status).toBe(200);
    expect(subjects(open.body)).toEqual(['a1', 'a2']);
    expect(open.body.count).toBe(2);
    expect(subjects((await admin.api.get(`/spaces/${space.id}/change-requests`, { status: 'draft' })).body)).toEqual(['a3']);
    expect(subjects((await admin.api.get(`/spaces/${space.id}/change-requests`, { orderBy: 'createdAt' })).body)).toEqual(['a2', 'a1']);
    expect(subjects((await admin.api.get(`/spaces/${space.id}/change-requests`, { creator: editor.userId })).body)).toEqual(['a2']);
    expect(subjects((await admin.api.get(`/spaces/${space.id}/change-requests`, { contributor: editor.userId })).body)).toEqual(['a1']);
    expect((await admin.api.get(`/spaces/${space.id}/change-requests`, { requestedReviewer: editor.userId })).body).toEqual({ items: [], count: 0 });
  });

  it('get /spaces/{spaceId}/change-requests paginates with a cursor', async () => {
    const { admin, space } = await world();
    const first = await admin.api.get(`/spaces/${space.id}/change-requests`, { limit: 1 });
    expect(subjects(first.body)).toEqual(['a1']);
    expect(first.body.count).toBe(2);
    const second = await admin.api.get(`/spaces/${space.id}/change-requests`, { limit: 1, page: first.body.next.page });
    expect(subjects(second.body)).toEqual(['a2']);
    expect(second.body.next).toBeUndefined();
    expect((await admin.api.get(`/spaces/${space.id}/change-requests`, { page: 'garbage' })).status).toBe(400);
  });

  it('get /orgs/{organizationId}/change-requests lists across spaces with statuses and the space filter', async () => {
    const { admin, other } = await world();
    const res = await admin.api.get(`/orgs/${admin.organizationId}/change-requests`);
    expect(res.status).toBe(200);
    expect(subjects(res.body)).toEqual(['a1', 'b1', 'a2']);
    const both = await admin.api.get(`/orgs/${admin.organizationId}/change-requests?status=open&status=draft`);
    expect(both.body.count).toBe(4);
    expect(subjects((await admin.api.get(`/orgs/${admin.organizationId}/change-requests`, { space: other.id })).body)).toEqual(['b1']);
    const guest = await h.current.newMember(admin.organizationId, null);
    expect((await guest.api.get(`/orgs/${admin.organizationId}/change-requests`)).body).toEqual({ items: [], count: 0 });
    const outsider = await h.current.newAdmin();
    expect((await outsider.api.get(`/orgs/${admin.organizationId}/change-requests`)).status).toBe(404);
  });

  it('get /spaces/{spaceId} and the space list count change requests by status and open comments', async () => {
    const { admin, space, other } = await world();
    await admin.api.post(`/spaces/${space.id}/comments`, { body: { markdown: 'open' } });
    const resolved = (await admin.api.post(`/spaces/${space.id}/comments`, { body: { markdown: 'done' } })).body;
    await admin.api.put(`/spaces/${space.id}/comments/${resolved.id}`, { resolved: true });
    const counts = { changeRequests: 3, changeRequestsOpen: 2, changeRequestsDraft: 1, comments: 1 };
    expect((await admin.api.get(`/spaces/${space.id}`)).body).toMatchObject(counts);
    const list = await admin.api.get(`/orgs/${admin.organizationId}/spaces`);
    const byId = new Map(list.body.items.map((s: { id: string }) => [s.id, s]));
    expect(byId.get(space.id)).toMatchObject(counts);
    expect(byId.get(other.id)).toMatchObject({ changeRequests: 1, changeRequestsOpen: 1, changeRequestsDraft: 0, comments: 0 });
  });

  it('every other answer showing the space (update, move, transfer, the lists of a collection and of a member) shows the same counters', async () => {
    const { admin, space } = await world();
    await admin.api.post(`/spaces/${space.id}/comments`, { body: { markdown: 'open' } });
    const counts = { changeRequests: 3, changeRequestsOpen: 2, changeRequestsDraft: 1, comments: 1 };
    expect((await admin.api.patch(`/spaces/${space.id}`, { title: 'A2' })).body).toMatchObject(counts);
    const collection = (await admin.api.post(`/orgs/${admin.organizationId}/collections`, { title: 'C' })).body;
    expect((await admin.api.post(`/spaces/${space.id}/move`, { parent: collection.id })).body).toMatchObject(counts);
    expect((await admin.api.get(`/collections/${collection.id}/spaces`)).body.items).toEqual([expect.objectContaining({ id: space.id, ...counts })]);
    const memberSpaces = await admin.api.get(`/orgs/${admin.organizationId}/members/${admin.userId}/spaces`);
    expect(memberSpaces.body.items.find((i: { space: { id: string } }) => i.space.id === space.id).space).toMatchObject(counts);
    const elsewhere = await h.current.newAdmin();
    await h.current.addMembership(elsewhere.organizationId, admin.userId, 'admin');
    expect((await admin.api.post(`/spaces/${space.id}/transfer`, { organization: elsewhere.organizationId })).body).toMatchObject(counts);
    // A duplicate starts with none: change requests and comments are not copied.
    const copy = await admin.api.post(`/spaces/${space.id}/duplicate`);
    expect(copy.body).toMatchObject({ changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0, comments: 0 });
  });
});
