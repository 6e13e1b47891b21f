import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';

const h = useHarness();

describe("a member's spaces and teams", () => {
  it('get /orgs/{organizationId}/members/{userId}/spaces lists the live spaces with the member\'s role on each, in either order and by pages', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const reader = await h.current.newMember(org, 'read');
    const col = (await admin.api.post(`/orgs/${org}/collections`, { title: 'Shelf' })).body;
    await admin.api.patch(`/collections/${col.id}`, { defaultLevel: 'edit' });
    const plain = (await admin.api.post(`/orgs/${org}/spaces`, { title: 'Plain' })).body;
    const inside = (await admin.api.post(`/orgs/${org}/spaces`, { title: 'Inside', parent: col.id })).body;
    const gone = (await admin.api.post(`/orgs/${org}/spaces`, { title: 'Gone' })).body;
    await admin.api.delete(`/spaces/${gone.id}`);
    const res = await reader.api.get(`/orgs/${org}/members/${reader.userId}/spaces`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(2);
    expect(res.body.items.map((i: { space: { id: string } }) => i.space.id)).toEqual([inside.id, plain.id]);
    expect(res.body.items.map((i: { permission: string }) => i.permission)).toEqual(['edit', 'read']);
    // Permissions of the space are the caller's (the admin here), the `permission` the member's.
    const asAdmin = await admin.api.get(`/orgs/${org}/members/${reader.userId}/spaces`, { order: 'asc', limit: 1 });
    expect(asAdmin.body.items[0]).toMatchObject({ permission: 'read', space: { id: plain.id, permissions: { admin: true } } });
    const next = await admin.api.get(`/orgs/${org}/members/${reader.userId}/spaces`, { order: 'asc', limit: 1, page: asAdmin.body.next.page });
    expect(next.body.items[0].space.id).toBe(inside.id);
    expect(next.body.next).toBeUndefined();
  });

  it('get /orgs/{organizationId}/members/{userId}/spaces is empty for a guest member, 404 for a non-member, 400 for a bad order', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const guest = await h.current.newMember(org, null);
    await admin.api.post(`/orgs/${org}/spaces`, { title: 'One' });
    const res = await admin.api.get(`/orgs/${org}/members/${guest.userId}/spaces`);
    expect(res.body).toEqual({ items: [], count: 0 });
    expect((await admin.api.get(`/orgs/${org}/members/usr_nobody/spaces`)).status).toBe(404);
    const bad = await admin.api.get(`/orgs/${org}/members/${guest.userId}/spaces`, { order: 'up' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('query.order');
  });

  it('get /orgs/{organizationId}/members/{userId}/teams lists the member\'s teams with its team role, filtered by title', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const member = await h.current.newMember(org, 'edit');
    const docs = (await admin.api.put(`/orgs/${org}/teams`, { title: 'Docs Writers', members: [member.userId] })).body;
    const ops = (await admin.api.put(`/orgs/${org}/teams`, { title: 'Operations', members: [member.userId] })).body;
    await admin.api.put(`/orgs/${org}/teams`, { title: 'Docs Reviewers' });
    await admin.api.put(`/orgs/${org}/teams/${ops.id}/members/${member.userId}`, { role: 'owner' });
    const res = await member.api.get(`/orgs/${org}/members/${member.userId}/teams`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(2);
    expect(res.body.items).toMatchObject([
      { team: { id: docs.id, title: 'Docs Writers', members: 1, permissions: { admin: false } }, member: { role: 'member' } },
      { team: { id: ops.id, permissions: { admin: true } }, member: { role: 'owner' } },
    ]);
    const filtered = await member.api.get(`/orgs/${org}/members/${member.userId}/teams`, { title: 'DOCS' });
    expect(filtered.body.items.map((i: { team: { id: string } }) => i.team.id)).toEqual([docs.id]);
    expect((await admin.api.get(`/orgs/${org}/members/usr_nobody/teams`)).status).toBe(404);
    expect((await admin.api.get(`/orgs/${org}/members/${member.userId}/teams`, { title: '' })).status).toBe(400);
  });
});
