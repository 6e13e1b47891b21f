// A member's role on content is their organization role raised to the content's default level and to
// those of the collections around it: an in-collection space takes its role from its collection.
import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';

const h = useHarness();

describe('roles inherited through collections', () => {
  it('an in-collection space gives a reader the level of its collection, and of the collections around it', async () => {
    const admin = await h.current.newAdmin();
    const reader = await h.current.newMember(admin.organizationId, 'read');
    const outer = (await admin.api.post(`/orgs/${admin.organizationId}/collections`, { title: 'Outer' })).body.id;
    const inner = (await admin.api.post(`/orgs/${admin.organizationId}/collections`, { title: 'Inner', parent: outer })).body.id;
    const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Inside', parent: inner })).body.id;
    const topLevel = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Outside' })).body.id;

    expect((await reader.api.patch(`/spaces/${space}`, { title: 'Renamed' })).status).toBe(403);
    expect((await admin.api.patch(`/collections/${outer}`, { defaultLevel: 'edit' })).status).toBe(200);

    const inside = await reader.api.get(`/spaces/${space}`);
    expect(inside.body.permissions).toMatchObject({ view: true, edit: true, admin: false });
    expect((await reader.api.patch(`/spaces/${space}`, { title: 'Renamed' })).status).toBe(200);
    // The nested collection inherits too; the top-level space does not.
    expect((await reader.api.get(`/collections/${inner}`)).body.permissions).toMatchObject({ view: true, admin: false, create: false });
    expect((await reader.api.get(`/spaces/${topLevel}`)).body.permissions.edit).toBe(false);
    expect((await reader.api.patch(`/spaces/${topLevel}`, { title: 'Renamed' })).status).toBe(403);

    // Lists compute the same role for each item.
    const listed = await reader.api.get(`/orgs/${admin.organizationId}/spaces`);
    const byId = new Map(listed.body.items.map((s: { id: string; permissions: { edit: boolean } }) => [s.id, s.permissions.edit]));
    expect(byId.get(space)).toBe(true);
    expect(byId.get(topLevel)).toBe(false);
    const inCollection = await reader.api.get(`/collections/${inner}/spaces`);
    expect(inCollection.body.items[0].permissions.edit).toBe(true);

    // Admin on the outer collection reaches a delete of the space inside.
    await admin.api.patch(`/collections/${outer}`, { defaultLevel: 'admin' });
    expect((await reader.api.delete(`/spaces/${space}`)).status).toBe(204);
    expect((await admin.api.get(`/spaces/${space}`)).status).toBe(404);
  });

  it('a space that is not in-collection keeps its own level only', async () => {
    const admin = await h.current.newAdmin();
    const reader = await h.current.newMember(admin.organizationId, 'read');
    const collection = (await admin.api.post(`/orgs/${admin.organizationId}/collections`, { title: 'C' })).body.id;
    const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { parent: collection })).body.id;
    await h.current.setSpaceVisibility(space, 'private');
    await admin.api.patch(`/collections/${collection}`, { defaultLevel: 'admin' });
    expect((await reader.api.get(`/spaces/${space}`)).body.permissions.edit).toBe(false);
    await admin.api.patch(`/spaces/${space}`, { defaultLevel: 'comment' });
    expect((await reader.api.get(`/spaces/${space}`)).body.permissions).toMatchObject({ comment: true, edit: false });
  });

  it('guests see no content, whatever its level', async () => {
    const admin = await h.current.newAdmin();
    const guest = await h.current.newMember(admin.organizationId, null);
    const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`)).body.id;
    await admin.api.patch(`/spaces/${space}`, { defaultLevel: 'admin' });
    expect((await guest.api.get(`/spaces/${space}`)).status).toBe(404);
    expect((await guest.api.get(`/orgs/${admin.organizationId}/spaces`)).body).toMatchObject({ items: [], count: 0 });
  });
});
