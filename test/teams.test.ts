import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';

const h = useHarness();

describe('teams', () => {
  it('put /orgs/{organizationId}/teams creates a team with its members', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const a = await h.current.newMember(org, 'read');
    const b = await h.current.newMember(org, null);
    const res = await admin.api.put(`/orgs/${org}/teams`, { title: '  Developer Relations ', members: [a.userId, b.userId, a.userId] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: 'team', title: 'Developer Relations', members: 2, spaces: 0, permissions: { admin: true, view: true } });
    expect(res.headers.location).toBe(`https://api.test.example/v1/orgs/${org}/teams/${res.body.id}`);
    const members = await admin.api.get(`/orgs/${org}/teams/${res.body.id}/members`);
    expect(members.body.items.map((m: { organization: { id: string } }) => m.organization.id).sort()).toEqual([a.userId, b.userId].sort());
  });

  it('put /orgs/{organizationId}/teams makes a non-admin creator the owner; 400 for unknown members, 403 below create', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const creator = await h.current.newMember(org, 'create');
    const res = await creator.api.put(`/orgs/${org}/teams`, { title: 'Mine' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ members: 1, permissions: { admin: true } });
    const outsider = await h.current.newAdmin();
    const unknown = await admin.api.put(`/orgs/${org}/teams`, { title: 'Bad', members: [outsider.userId] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain(`body.members`);
    expect(unknown.body.error.message).toContain(outsider.userId);
    expect((await admin.api.get(`/orgs/${org}/teams`, { title: 'Bad' })).body.count).toBe(0);
    expect((await admin.api.put(`/orgs/${org}/teams`, { title: '' })).status).toBe(400);
    const editor = await h.current.newMember(org, 'edit');
    expect((await editor.api.put(`/orgs/${org}/teams`, { title: 'No' })).status).toBe(403);
  });

  it('get /orgs/{organizationId}/teams lists teams in creation order, by title and by the teams a member can manage, in pages', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const owner = await h.current.newMember(org, 'read');
    const t1 = (await admin.api.put(`/orgs/${org}/teams`, { title: 'Alpha squad' })).body;
    const t2 = (await admin.api.put(`/orgs/${org}/teams`, { title: 'Beta', members: [owner.userId] })).body;
    const t3 = (await admin.api.put(`/orgs/${org}/teams`, { title: 'alphabet' })).body;
    await admin.api.put(`/orgs/${org}/teams/${t3.id}/members`, { memberships: { [owner.userId]: { role: 'owner' } } });
    const all = await owner.api.get(`/orgs/${org}/teams`);
    expect(all.body.items.map((t: { id: string }) => t.id)).toEqual([t1.id, t2.id, t3.id]);
    expect(all.body.items.map((t: { permissions: { admin: boolean } }) => t.permissions.admin)).toEqual([false, false, true]);
    const titled = await owner.api.get(`/orgs/${org}/teams`, { title: 'ALPHA' });
    expect(titled.body.items.map((t: { id: string }) => t.id)).toEqual([t1.id, t3.id]);
    const owned = await owner.api.get(`/orgs/${org}/teams`, { owner: owner.userId });
    expect(owned.body.items.map((t: { id: string }) => t.id)).toEqual([t3.id]);
    expect((await owner.api.get(`/orgs/${org}/teams`, { owner: admin.userId })).body.count).toBe(3);
    const p1 = await owner.api.get(`/orgs/${org}/teams`, { limit: 2 });
    const p2 = await owner.api.get(`/orgs/${org}/teams`, { limit: 2, page: p1.body.next.page });
    expect([...p1.body.items, ...p2.body.items].map((t: { id: string }) => t.id)).toEqual([t1.id, t2.id, t3.id]);
    expect(p2.body.count).toBe(3);
    const outsider = await h.current.newAdmin();
    expect((await outsider.api.get(`/orgs/${org}/teams`)).status).toBe(404);
  });

  it('get, patch and delete /orgs/{organizationId}/teams/{teamId} read, rename and delete a team; 400, 403, 404', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const reader = await h.current.newMember(org, 'read');
    const team = (await admin.api.put(`/orgs/${org}/teams`, { title: 'Old', members: [reader.userId] })).body;
    const got = await reader.api.get(`/orgs/${org}/teams/${team.id}`);
    expect(got.body).toMatchObject({ id: team.id, title: 'Old', members: 1, permissions: { admin: false, view: true } });
    const renamed = await admin.api.patch(`/orgs/${org}/teams/${team.id}`, { title: 'New' });
    expect(renamed.status).toBe(200);
    expect((await reader.api.get(`/orgs/${org}/teams/${team.id}`)).body.title).toBe('New');
    expect((await admin.api.patch(`/orgs/${org}/teams/${team.id}`, {})).status).toBe(400);
    expect((await reader.api.patch(`/orgs/${org}/teams/${team.id}`, { title: 'X' })).status).toBe(403);
    expect((await admin.api.patch(`/orgs/${org}/teams/tem_nope`, { title: 'X' })).status).toBe(404);
    expect((await reader.api.delete(`/orgs/${org}/teams/${team.id}`)).status).toBe(403);
    expect((await admin.api.delete(`/orgs/${org}/teams/${team.id}`)).status).toBe(204);
    expect((await admin.api.get(`/orgs/${org}/teams/${team.id}`)).status).toBe(404);
    expect((await admin.api.delete(`/orgs/${org}/teams/${team.id}`)).status).toBe(204);
    expect((await admin.api.get(`/orgs/${org}/members/${reader.userId}`)).body.teams).toBe(0);
    // Another organization's team is not found.
    const other = await h.current.newAdmin();
    const foreign = (await other.api.put(`/orgs/${other.organizationId}/teams`, { title: 'Theirs' })).body;
    expect((await admin.api.get(`/orgs/${org}/teams/${foreign.id}`)).status).toBe(404);
  });
});
