// Invite links: to the organization with a role, to a space or collection with a level (joining as a
// guest), expiring, changed, revoked; the organization's `inviteLinks` switch and SSO enforcement apply.
import { describe, expect, it } from 'vitest';
import { gitbookResponseProblems } from './support/gitbook-spec.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

describe('invite links', () => {
  it('lets a newcomer join with the role of an organization invite, until it is revoked', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const newcomer = await h.current.newAdmin();
    const created = await admin.api.post(`/orgs/${org}/link-invites`, { role: 'comment' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: 'invite', role: 'comment', redundant: true });
    const id = created.body.id as string;
    expect(id).toMatch(/^inv_[A-Za-z0-9_-]{22}$/);

    // The newcomer reads it (not redundant for them), then joins with it.
    const seen = await newcomer.api.get(`/orgs/${org}/link-invites/${id}`);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ role: 'comment', redundant: false });
    expect((await newcomer.api.post(`/orgs/${org}/invites/${id}`)).status).toBe(200);
    expect((await admin.api.get(`/orgs/${org}/members/${newcomer.userId}`)).body.role).toBe('comment');
    expect((await newcomer.api.get(`/orgs/${org}/link-invites/${id}`)).body.redundant).toBe(true);

    // Changed, listed, then revoked: the link no longer works.
    const changed = await admin.api.patch(`/orgs/${org}/link-invites/${id}`, { role: 'edit' });
    expect(changed.status).toBe(200);
    expect(changed.body.role).toBe('edit');
    expect((await admin.api.patch(`/orgs/${org}/link-invites/${id}`, { level: 'edit' })).status).toBe(400);
    const listed = await admin.api.get(`/orgs/${org}/link-invites`);
    expect(listed.body.items.map((i: { id: string }) => i.id)).toEqual([id]);
    // A member keeps a stronger role than the invite's (admin stays admin).
    expect((await admin.api.post(`/orgs/${org}/invites/${id}`)).status).toBe(200);
    expect((await admin.api.get(`/orgs/${org}/members/${admin.userId}`)).body.role).toBe('admin');
    expect((await admin.api.delete(`/orgs/${org}/link-invites/${id}`)).status).toBe(204);
    const late = await h.current.newAdmin();
    expect((await late.api.post(`/orgs/${org}/invites/${id}`)).status).toBe(404);
    expect((await late.api.get(`/orgs/${org}/link-invites/${id}`)).status).toBe(404);
  });

  it('gives a newcomer one space as a guest with a space invite', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const space = (await admin.api.post(`/orgs/${org}/spaces`, { title: 'Partner docs' })).body.id;
    const other = (await admin.api.post(`/orgs/${org}/spaces`, { title: 'Internal' })).body.id;
    const invite = await admin.api.post(`/orgs/${org}/link-invites`, { space, level: 'comment' });
    expect(invite.status).toBe(201);
    expect(invite.body).toMatchObject({ level: 'comment', space: { id: space } });
    expect(invite.body.role).toBeUndefined(); // GitBook's invite to a space has a level, not a role
    // Listed beside an invite to the organization, each says the organization role it gives: the space
    // invite none (null: a guest), which is what joining through it makes the partner below.
    const toOrganization = await admin.api.post(`/orgs/${org}/link-invites`, { role: 'edit' });
    expect(toOrganization.status).toBe(201);
    const listed = await admin.api.get(`/orgs/${org}/link-invites`);
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((i: { id: string; role: unknown; level?: unknown }) => [i.id, i.role, i.level])).toEqual([
      [invite.body.id, null, 'comment'],
      [toOrganization.body.id, 'edit', undefined],
    ]);
    expect(listed.body.items[0].space.id).toBe(space);
    // Both answers have GitBook's shapes: the list's items its invite to the organization, the invite read
    // alone its invite to a space (one of its variants only, as `oneOf` asks).
    expect(gitbookResponseProblems('listOrganizationInviteLinks', 200, listed.body)).toEqual([]);
    const alone = await admin.api.get(`/orgs/${org}/link-invites/${invite.body.id}`);
    expect(alone.status).toBe(200);
    expect(alone.body.role).toBeUndefined();
    expect(gitbookResponseProblems('getOrganizationInviteLink', 200, alone.body)).toEqual([]);
    const partner = await h.current.newAdmin();
    expect((await partner.api.post(`/orgs/${org}/invites/${invite.body.id}`)).status).toBe(200);
    expect((await admin.api.get(`/orgs/${org}/members/${partner.userId}`)).body.role).toBeNull();
    expect((await partner.api.get(`/spaces/${space}`)).body.permissions).toMatchObject({ view: true, comment: true, edit: false });
    expect((await partner.api.get(`/spaces/${other}`)).status).toBe(404);
    expect((await admin.api.get(`/spaces/${space}/permissions/users`)).body.items).toEqual([
      expect.objectContaining({ permission: 'comment', user: expect.objectContaining({ id: partner.userId }) }),
    ]);
    expect((await admin.api.post(`/orgs/${org}/link-invites`, { space: 'spc_unknown', level: 'read' })).status).toBe(404);
  });

  it('refuses expired invites, organizations without invite links and those enforcing SSO', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const past = await admin.api.post(`/orgs/${org}/link-invites`, { role: 'read', expiresAt: '2000-01-01T00:00:00.000Z' });
    expect(past.status).toBe(400);
    const soon = await admin.api.post(`/orgs/${org}/link-invites`, { role: 'read', expiresAt: new Date(Date.now() + 60_000).toISOString() });
    expect(soon.status).toBe(201);
    h.current.advanceClock(120_000);
    const joiner = await h.current.newAdmin();
    const expired = await joiner.api.post(`/orgs/${org}/invites/${soon.body.id}`);
    expect(expired.status).toBe(400);
    expect(expired.body.error.message).toContain('expired');
    expect((await admin.api.get(`/orgs/${org}/link-invites`)).body.count).toBe(0);

    const open = await admin.api.post(`/orgs/${org}/link-invites`, { role: 'read' });
    expect((await admin.api.patch(`/orgs/${org}`, { inviteLinks: false })).status).toBe(200);
    expect((await joiner.api.post(`/orgs/${org}/invites/${open.body.id}`)).status).toBe(400);
    expect((await admin.api.post(`/orgs/${org}/link-invites`, { role: 'read' })).status).toBe(400);
    expect((await admin.api.patch(`/orgs/${org}`, { inviteLinks: true, sso: true })).status).toBe(200);
    const sso = await joiner.api.post(`/orgs/${org}/invites/${open.body.id}`);
    expect(sso.status).toBe(400);
    expect(sso.body.error.message).toContain('SSO');
  });
});
