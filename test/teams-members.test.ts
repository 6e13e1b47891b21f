import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../server/db/schema/index.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

async function emailOf(userId: string): Promise<string> {
  const [row] = await h.current.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row.email;
}

async function teamMembers(api: { get: (p: string, q?: Record<string, string | number>) => Promise<{ body: any }> }, org: string, team: string) {
  const res = await api.get(`/orgs/${org}/teams/${team}/members`);
  return Object.fromEntries(res.body.items.map((m: { organization: { id: string }; team: { role: string } }) => [m.organization.id, m.team.role]));
}

describe('team members', () => {
  it('put /orgs/{organizationId}/teams/{teamId}/members adds by id or email, removes, and a user in both add and remove is removed', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const [a, b, c, d] = [await h.current.newMember(org, 'read'), await h.current.newMember(org, 'edit'), await h.current.newMember(org, null), await h.current.newMember(org, 'read')];
    const team = (await admin.api.put(`/orgs/${org}/teams`, { title: 'Team', members: [d.userId] })).body.id;
    const res = await admin.api.put(`/orgs/${org}/teams/${team}/members`, {
      add: [a.userId, (await emailOf(b.userId)).toUpperCase(), c.userId],
      remove: [await emailOf(c.userId), d.userId],
      memberships: { [b.userId]: { role: 'owner' } },
    });
    expect(res.status).toBe(204);
    expect(await teamMembers(admin.api, org, team)).toEqual({ [a.userId]: 'member', [b.userId]: 'owner' });
    expect((await admin.api.get(`/orgs/${org}/teams/${team}`)).body.members).toBe(2);
    // Adding someone already in the team keeps its role; memberships alone change a role.
    await admin.api.put(`/orgs/${org}/teams/${team}/members`, { add: [b.userId], memberships: { [a.userId]: { role: 'owner' } } });
    expect(await teamMembers(admin.api, org, team)).toEqual({ [a.userId]: 'owner', [b.userId]: 'owner' });
  });

  it('put /orgs/{organizationId}/teams/{teamId}/members applies nothing and names unknown users (400); 403 for a non-owner, 404 for an unknown team', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const a = await h.current.newMember(org, 'read');
    const team = (await admin.api.put(`/orgs/${org}/teams`, { title: 'Team' })).body.id;
    const res = await admin.api.put(`/orgs/${org}/teams/${team}/members`, { add: [a.userId, 'nobody@nowhere.example'], remove: ['usr_ghost'] });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('body.add: nobody@nowhere.example');
    expect(res.body.error.message).toContain('body.remove: usr_ghost');
    expect(await teamMembers(admin.api, org, team)).toEqual({});
    const bad = await admin.api.put(`/orgs/${org}/teams/${team}/members`, { memberships: { [a.userId]: { role: 'boss' } } });
    expect(bad.status).toBe(400);
    expect((await a.api.put(`/orgs/${org}/teams/${team}/members`, { add: [a.userId] })).status).toBe(403);
    expect((await admin.api.put(`/orgs/${org}/teams/tem_nope/members`, { add: [a.userId] })).status).toBe(404);
  });

  it('team owners manage their team members; other members cannot', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const owner = await h.current.newMember(org, 'read');
    const other = await h.current.newMember(org, 'read');
    const team = (await admin.api.put(`/orgs/${org}/teams`, { title: 'Team', members: [other.userId] })).body.id;
    await admin.api.put(`/orgs/${org}/teams/${team}/members/${owner.userId}`, { role: 'owner' });
    expect((await owner.api.put(`/orgs/${org}/teams/${team}/members`, { remove: [other.userId] })).status).toBe(204);
    expect((await owner.api.put(`/orgs/${org}/teams/${team}/members/${other.userId}`)).status).toBe(204);
    expect(await teamMembers(owner.api, org, team)).toEqual({ [owner.userId]: 'owner', [other.userId]: 'member' });
    expect((await other.api.delete(`/orgs/${org}/teams/${team}/members/${owner.userId}`)).status).toBe(403);
    expect((await other.api.put(`/orgs/${org}/teams/${team}/members/${other.userId}`, { role: 'owner' })).status).toBe(403);
  });

  it('put /orgs/{organizationId}/teams/{teamId}/members/{userId} adds a member or changes its role; 400, 404 for an unknown team or member', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const a = await h.current.newMember(org, 'read');
    const team = (await admin.api.put(`/orgs/${org}/teams`, { title: 'Team' })).body.id;
    expect((await admin.api.put(`/orgs/${org}/teams/${team}/members/${a.userId}`, { role: 'owner' })).status).toBe(204);
    expect((await admin.api.put(`/orgs/${org}/teams/${team}/members/${a.userId}`, {})).status).toBe(204);
    expect(await teamMembers(admin.api, org, team)).toEqual({ [a.userId]: 'owner' });
    expect((await admin.api.put(`/orgs/${org}/teams/${team}/members/${a.userId}`, { role: 'member' })).status).toBe(204);
    expect(await teamMembers(admin.api, org, team)).toEqual({ [a.userId]: 'member' });
    expect((await admin.api.put(`/orgs/${org}/teams/${team}/members/${a.userId}`, { role: 'chief' })).status).toBe(400);
    expect((await admin.api.put(`/orgs/${org}/teams/tem_nope/members/${a.userId}`, {})).status).toBe(404);
    const outsider = await h.current.newAdmin();
    expect((await admin.api.put(`/orgs/${org}/teams/${team}/members/${outsider.userId}`, {})).status).toBe(404);
  });

  it('delete /orgs/{organizationId}/teams/{teamId}/members/{userId} removes the user from the team only, idempotently', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const a = await h.current.newMember(org, 'read');
    const team = (await admin.api.put(`/orgs/${org}/teams`, { title: 'Team', members: [a.userId] })).body.id;
    expect((await admin.api.delete(`/orgs/${org}/teams/${team}/members/${a.userId}`)).status).toBe(204);
    expect(await teamMembers(admin.api, org, team)).toEqual({});
    expect((await admin.api.get(`/orgs/${org}/members/${a.userId}`)).status).toBe(200);
    expect((await admin.api.delete(`/orgs/${org}/teams/${team}/members/${a.userId}`)).status).toBe(204);
    expect((await admin.api.delete(`/orgs/${org}/teams/tem_nope/members/${a.userId}`)).status).toBe(204);
  });

  it('get /orgs/{organizationId}/teams/{teamId}/members pages through the members with their organization membership; 404', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const people = [await h.current.newMember(org, 'read'), await h.current.newMember(org, 'edit'), await h.current.newMember(org, null)];
    const team = (await admin.api.put(`/orgs/${org}/teams`, { title: 'Team', members: people.map((p) => p.userId) })).body.id;
    const p1 = await admin.api.get(`/orgs/${org}/teams/${team}/members`, { limit: 2 });
    expect(p1.body.count).toBe(3);
    const p2 = await admin.api.get(`/orgs/${org}/teams/${team}/members`, { limit: 2, page: p1.body.next.page });
    const items = [...p1.body.items, ...p2.body.items];
    expect(items.map((m: { organization: { id: string } }) => m.organization.id)).toEqual(people.map((p) => p.userId).sort());
    expect(items.find((m: { organization: { id: string } }) => m.organization.id === people[1].userId)).toMatchObject({
      organization: { object: 'member', role: 'edit', teams: 1 },
      team: { role: 'member' },
      permissions: { view: true },
    });
    expect((await admin.api.get(`/orgs/${org}/teams/tem_nope/members`)).status).toBe(404);
  });
});
