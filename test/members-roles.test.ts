import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { members } from '../server/db/schema/index.js';
import { verifyVisitorClaims } from '../server/members/visitor-claims.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

describe('organization member roles, removal, SSO and ping', () => {
  it('patch /orgs/{organizationId}/members/{userId} changes the role, null making a guest, and an empty body changes nothing', async () => {
    const admin = await h.current.newAdmin();
    const member = await h.current.newMember(admin.organizationId, 'read');
    const path = `/orgs/${admin.organizationId}/members/${member.userId}`;
    const up = await admin.api.patch(path, { role: 'review' });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ id: member.userId, role: 'review' });
    expect((await admin.api.get(path)).body.role).toBe('review');
    const guest = await admin.api.patch(path, { role: null });
    expect(guest.body.role).toBeNull();
    expect((await admin.api.patch(path, {})).body.role).toBeNull();
    // The member sees the organization with its new (guest) permissions.
    expect((await member.api.get(`/orgs/${admin.organizationId}`)).body.permissions.listMembers).toBe(false);
  });

  it('patch /orgs/{organizationId}/members/{userId} returns 409 for the last admin, 400, 403 and 404', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const last = await admin.api.patch(`/orgs/${org}/members/${admin.userId}`, { role: 'create' });
    expect(last.status).toBe(409);
    expect((await admin.api.get(`/orgs/${org}/members/${admin.userId}`)).body.role).toBe('admin');
    // With a second admin, the first may step down; then the second is the last one.
    const second = await h.current.newMember(org, 'admin');
    expect((await admin.api.patch(`/orgs/${org}/members/${admin.userId}`, { role: 'create' })).status).toBe(200);
    expect((await second.api.patch(`/orgs/${org}/members/${second.userId}`, { role: null })).status).toBe(409);
    const bad = await second.api.patch(`/orgs/${org}/members/${admin.userId}`, { role: 'owner' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('body.role');
    expect((await admin.api.patch(`/orgs/${org}/members/${second.userId}`, { role: 'read' })).status).toBe(403);
    expect((await second.api.patch(`/orgs/${org}/members/usr_nobody`, { role: 'read' })).status).toBe(404);
  });

  it('patch /orgs/{organizationId}/members/{userId} keeps one admin when two admins demote each other at once', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const other = await h.current.newMember(org, 'admin');
    const results = await Promise.all([
      admin.api.patch(`/orgs/${org}/members/${other.userId}`, { role: 'read' }),
      other.api.patch(`/orgs/${org}/members/${admin.userId}`, { role: 'read' }),
    ]);
    // The loser either hit the last-admin 409 or had already lost its admin role (403) when it ran.
    const [winner, loser] = results.sort((a, b) => a.status - b.status).map((r) => r.status);
    expect(winner).toBe(200);
    expect([403, 409]).toContain(loser);
    const admins = await h.current.db
      .select()
      .from(members)
      .where(and(eq(members.organizationId, org), eq(members.role, 'admin')));
    expect(admins).toHaveLength(1);
  });

  it('delete /orgs/{organizationId}/members/{userId} removes a member from the organization and its teams, idempotently', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const member = await h.current.newMember(org, 'edit');
    const team = (await admin.api.put(`/orgs/${org}/teams`, { title: 'Team', members: [member.userId] })).body;
    expect((await admin.api.delete(`/orgs/${org}/members/${member.userId}`)).status).toBe(204);
    expect((await admin.api.get(`/orgs/${org}/members/${member.userId}`)).status).toBe(404);
    expect((await admin.api.get(`/orgs/${org}/teams/${team.id}`)).body.members).toBe(0);
    expect((await member.api.get(`/orgs/${org}`)).status).toBe(404);
    expect((await admin.api.delete(`/orgs/${org}/members/${member.userId}`)).status).toBe(204);
  });

  it('delete /orgs/{organizationId}/members/{userId} returns 409 for the last admin and 403 below admin', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const editor = await h.current.newMember(org, 'edit');
    expect((await admin.api.delete(`/orgs/${org}/members/${admin.userId}`)).status).toBe(409);
    expect((await editor.api.delete(`/orgs/${org}/members/${admin.userId}`)).status).toBe(403);
    expect((await admin.api.get(`/orgs/${org}/members/${admin.userId}`)).status).toBe(200);
  });

  it('post /orgs/{organizationId}/members/{userId}/sso marks the member as an SSO member; 403, 404', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const member = await h.current.newMember(org, 'read');
    const res = await admin.api.post(`/orgs/${org}/members/${member.userId}/sso`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: member.userId, sso: true });
    expect((await admin.api.get(`/orgs/${org}/members/${member.userId}`)).body.sso).toBe(true);
    expect((await member.api.post(`/orgs/${org}/members/${member.userId}/sso`)).status).toBe(403);
    expect((await admin.api.post(`/orgs/${org}/members/usr_nobody/sso`)).status).toBe(404);
  });

  it('post /orgs/{organizationId}/ping records the last-seen time and returns signed visitor claims; 404 for an outsider', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const guest = await h.current.newMember(org, null);
    const res = await guest.api.post(`/orgs/${org}/ping`);
    expect(res.status).toBe(200);
    const claims = await verifyVisitorClaims(h.current.ctx(guest.userId), res.body.serviceVisitorClaims);
    expect(claims).toMatchObject({ sub: guest.userId, organization: org, role: null });
    expect(await verifyVisitorClaims(h.current.ctx(guest.userId), res.body.serviceVisitorClaims + 'x')).toBeUndefined();
    const seen = (await admin.api.get(`/orgs/${org}/members/${guest.userId}`)).body.lastSeenAt;
    expect(Date.now() - Date.parse(seen)).toBeLessThan(60_000);
    const outsider = await h.current.newAdmin();
    expect((await outsider.api.post(`/orgs/${org}/ping`)).status).toBe(404);
  });
});
