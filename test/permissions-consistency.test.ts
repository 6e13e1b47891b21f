// Grants stay consistent when people, teams and content move or go (docs/permissions.md): a member
// removed or a team deleted loses its grants; a space or collection transferred keeps only the grants of
// members of its new organization; a collection's grants stop reaching a space that leaves it.
import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';

const h = useHarness();

const userIds = (res: { body: { items: { user: { id: string } }[] } }) => res.body.items.map((i) => i.user.id).sort();

describe('permissions stay consistent', () => {
  it('removing a member or deleting a team removes their grants', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const member = await h.current.newMember(org, 'read');
    const space = (await admin.api.post(`/orgs/${org}/spaces`, { title: 'Private' })).body.id;
    expect((await admin.api.patch(`/spaces/${space}`, { defaultLevel: null })).status).toBe(200);
    const team = (await admin.api.put(`/orgs/${org}/teams`, { title: 'T', members: [member.userId] })).body.id;
    expect((await admin.api.post(`/spaces/${space}/permissions`, { role: 'edit', users: [member.userId], teams: [team] })).status).toBe(204);
    expect((await admin.api.get(`/spaces/${space}/permissions/teams`)).body.count).toBe(1);

    expect((await admin.api.delete(`/orgs/${org}/teams/${team}`)).status).toBe(204);
    expect((await admin.api.get(`/spaces/${space}/permissions/teams`)).body.count).toBe(0);
    expect((await member.api.get(`/spaces/${space}`)).status).toBe(200);

    expect((await admin.api.delete(`/orgs/${org}/members/${member.userId}`)).status).toBe(204);
    expect((await admin.api.get(`/spaces/${space}/permissions/users`)).body.count).toBe(0);
    // Back in the organization, they start with nothing on it.
    await h.current.addMembership(org, member.userId, 'read');
    expect((await member.api.get(`/spaces/${space}`)).status).toBe(404);
  });

  it('a transferred space keeps the grants of members of its new organization only', async () => {
    const admin = await h.current.newAdmin();
    const target = await h.current.newAdmin();
    // The admin of the source is admin of the target too, so it can transfer there.
    await h.current.addMembership(target.organizationId, admin.userId, 'admin');
    const both = await h.current.newMember(admin.organizationId, 'read');
    await h.current.addMembership(target.organizationId, both.userId, null);
    const onlySource = await h.current.newMember(admin.organizationId, 'read');
    const team = (await admin.api.put(`/orgs/${admin.organizationId}/teams`, { title: 'Source team', members: [onlySource.userId] })).body.id;
    const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Moving' })).body.id;
    await admin.api.patch(`/spaces/${space}`, { defaultLevel: null });
    expect((await admin.api.post(`/spaces/${space}/permissions`, { role: 'comment', users: [both.userId, onlySource.userId], teams: [team] })).status).toBe(204);

    expect((await admin.api.post(`/spaces/${space}/transfer`, { organization: target.organizationId })).status).toBe(200);
    expect(userIds(await admin.api.get(`/spaces/${space}/permissions/users`))).toEqual([both.userId]);
    expect((await admin.api.get(`/spaces/${space}/permissions/teams`)).body.count).toBe(0);
    // The member of both, a guest in the target, reaches it there by their grant; the other one not at all.
    const asGuest = await both.api.get(`/spaces/${space}`);
    expect(asGuest.status).toBe(200);
    expect(asGuest.body.permissions).toMatchObject({ comment: true, edit: false });
    expect((await onlySource.api.get(`/spaces/${space}`)).status).toBe(404);
    // Its grant can be changed in the new organization (the row moved with it).
    expect((await target.api.patch(`/spaces/${space}/permissions/users/${both.userId}`, { role: 'edit' })).status).toBe(204);
    expect((await both.api.get(`/spaces/${space}`)).body.permissions.edit).toBe(true);
  });

  it('a transferred collection carries the grants on it and on its spaces the same way', async () => {
    const admin = await h.current.newAdmin();
    const target = await h.current.newAdmin();
    await h.current.addMembership(target.organizationId, admin.userId, 'admin');
    const both = await h.current.newMember(admin.organizationId, 'read');
    await h.current.addMembership(target.organizationId, both.userId, null);
    const onlySource = await h.current.newMember(admin.organizationId, 'read');
    const collection = (await admin.api.post(`/orgs/${admin.organizationId}/collections`, { title: 'Moving' })).body.id;
    const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Inside', parent: collection })).body.id;
    await admin.api.post(`/collections/${collection}/permissions`, { role: 'edit', users: [both.userId, onlySource.userId] });
    await admin.api.post(`/spaces/${space}/permissions`, { role: 'read', users: [onlySource.userId] });

    expect((await admin.api.post(`/collections/${collection}/transfer`, { organization: target.organizationId })).status).toBe(200);
    expect(userIds(await admin.api.get(`/collections/${collection}/permissions/users`))).toEqual([both.userId]);
    expect((await admin.api.get(`/spaces/${space}/permissions/users`)).body.count).toBe(0);
    // The guest in the target reaches the space through the collection's grant.
    expect((await both.api.get(`/spaces/${space}`)).body.permissions).toMatchObject({ view: true, edit: true });
    expect((await onlySource.api.get(`/spaces/${space}`)).status).toBe(404);
  });
});
