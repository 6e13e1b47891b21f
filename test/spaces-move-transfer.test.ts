import { describe, expect, it } from 'vitest';
import { useHarness, type Account } from './support/harness.js';

const h = useHarness();

async function create(account: Account, kind: 'collections' | 'spaces', body: object = {}) {
  const res = await account.api.post(`/orgs/${account.organizationId}/${kind}`, body);
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

/** The ids of a collection's spaces, in their order. */
async function spacesIn(account: Account, collectionId: string): Promise<string[]> {
  return (await account.api.get(`/collections/${collectionId}/spaces`)).body.items.map((s: { id: string }) => s.id);
}

describe('space move, duplicate and transfer', () => {
  it('post /spaces/{spaceId}/move puts a space into a collection, before or after a sibling, and back to the top level', async () => {
    const admin = await h.current.newAdmin();
    const shelf = await create(admin, 'collections', { title: 'Shelf' });
    const [a, b] = [await create(admin, 'spaces', { parent: shelf.id }), await create(admin, 'spaces', { parent: shelf.id })];
    const moving = await create(admin, 'spaces', { title: 'Moving' });
    const into = await admin.api.post(`/spaces/${moving.id}/move`, { parent: shelf.id });
    expect(into.status).toBe(200);
    expect(into.body.parent).toBe(shelf.id);
    expect(await spacesIn(admin, shelf.id)).toEqual([a.id, b.id, moving.id]);
    await admin.api.post(`/spaces/${moving.id}/move`, { position: { before: { type: 'space', space: a.id } } });
    expect(await spacesIn(admin, shelf.id)).toEqual([moving.id, a.id, b.id]);
    await admin.api.post(`/spaces/${moving.id}/move`, { parent: shelf.id, position: { after: { type: 'space', space: a.id } } });
    expect(await spacesIn(admin, shelf.id)).toEqual([a.id, moving.id, b.id]);
    const out = await admin.api.post(`/spaces/${moving.id}/move`, { parent: null });
    expect(out.body.parent).toBeUndefined();
    expect(out.body.visibility).toBe('private');
    expect(await spacesIn(admin, shelf.id)).toEqual([a.id, b.id]);
    expect((await admin.api.post(`/spaces/${moving.id}/move`, {})).body.id).toBe(moving.id);
  });

  it('post /spaces/{spaceId}/move returns 409 for a parent contradicting the position, 400, 403 below admin, 404', async () => {
    const admin = await h.current.newAdmin();
    const shelf = await create(admin, 'collections');
    const sibling = await create(admin, 'spaces', { parent: shelf.id });
    const moving = await create(admin, 'spaces');
    const conflict = await admin.api.post(`/spaces/${moving.id}/move`, { parent: null, position: { after: { type: 'space', space: sibling.id } } });
    expect(conflict.status).toBe(409);
    const bad = await admin.api.post(`/spaces/${moving.id}/move`, { position: { before: { type: 'page', space: sibling.id } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('body.position.before.type');
    const creator = await h.current.newMember(admin.organizationId, 'create');
    expect((await creator.api.post(`/spaces/${moving.id}/move`, { parent: shelf.id })).status).toBe(403);
    expect((await admin.api.post(`/spaces/${moving.id}/move`, { parent: 'col_nope' })).status).toBe(404);
    const anchor = await admin.api.post(`/spaces/${moving.id}/move`, { position: { after: { type: 'space', space: 'spc_nope' } } });
    expect(anchor.status).toBe(404);
    expect(anchor.body.error.message).toContain('body.position.after.space');
    expect((await admin.api.post(`/spaces/spc_nope/move`, {})).status).toBe(404);
    const other = await h.current.newAdmin();
    const foreign = await create(other, 'collections');
    expect((await admin.api.post(`/spaces/${moving.id}/move`, { parent: foreign.id })).status).toBe(404);
  });

  it('post /spaces/{spaceId}/duplicate copies the settings into a new space right after it, with a new revision', async () => {
    const admin = await h.current.newAdmin();
    const shelf = await create(admin, 'collections');
    const original = await create(admin, 'spaces', { parent: shelf.id, title: 'Handbook', emoji: '1f4d8', language: 'fr' });
    const last = await create(admin, 'spaces', { parent: shelf.id });
    const settings = { editMode: 'locked', defaultLevel: 'comment', mergeRules: { type: 'none' } };
    const patched = await admin.api.patch(`/spaces/${original.id}`, settings);
    expect(patched.status).toBe(200);
    const res = await admin.api.post(`/spaces/${original.id}/duplicate`);
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(res.body.urls.location);
    expect(res.body.id).not.toBe(original.id);
    expect(res.body.revision).not.toBe(patched.body.revision);
    const copy = (await admin.api.get(`/spaces/${res.body.id}`)).body;
    for (const key of ['title', 'emoji', 'language', 'visibility', 'editMode', 'defaultLevel', 'mergeRules', 'parent']) {
      expect(copy[key], key).toEqual(patched.body[key]);
    }
    expect(await spacesIn(admin, shelf.id)).toEqual([original.id, res.body.id, last.id]);
  });

  it('post /spaces/{spaceId}/duplicate returns 403 below create and 404 for an unknown or deleted space', async () => {
    const admin = await h.current.newAdmin();
    const space = await create(admin, 'spaces');
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    expect((await editor.api.post(`/spaces/${space.id}/duplicate`)).status).toBe(403);
    await admin.api.delete(`/spaces/${space.id}`);
    expect((await admin.api.post(`/spaces/${space.id}/duplicate`)).status).toBe(404);
    expect((await admin.api.post('/spaces/spc_nope/duplicate')).status).toBe(404);
  });

  it('post /spaces/{spaceId}/transfer moves a space into another organization, optionally into a collection there', async () => {
    const admin = await h.current.newAdmin();
    const target = await h.current.newAdmin();
    await h.current.addMembership(target.organizationId, admin.userId, 'admin');
    const space = await create(admin, 'spaces', { title: 'Moving house' });
    const res = await admin.api.post(`/spaces/${space.id}/transfer`, { organization: target.organizationId });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: space.id, organization: target.organizationId, permissions: { admin: true } });
    const targetList = await target.api.get(`/orgs/${target.organizationId}/spaces`);
    expect(targetList.body.items.map((s: { id: string }) => s.id)).toContain(space.id);
    const sourceList = await admin.api.get(`/orgs/${admin.organizationId}/spaces`);
    expect(sourceList.body.items.map((s: { id: string }) => s.id)).not.toContain(space.id);
    const col = await create(target, 'collections');
    const into = await admin.api.post(`/spaces/${space.id}/transfer`, { organization: target.organizationId, collection: col.id });
    expect(into.body.parent).toBe(col.id);
    expect(await spacesIn(target, col.id)).toEqual([space.id]);
  });

  it('post /spaces/{spaceId}/transfer returns 400, 403 when not admin of the target, 404 for an unknown organization or collection', async () => {
    const admin = await h.current.newAdmin();
    const target = await h.current.newAdmin();
    const space = await create(admin, 'spaces');
    expect((await admin.api.post(`/spaces/${space.id}/transfer`, {})).status).toBe(400);
    expect((await admin.api.post(`/spaces/${space.id}/transfer`, { organization: target.organizationId })).status).toBe(404);
    await h.current.addMembership(target.organizationId, admin.userId, 'edit');
    expect((await admin.api.post(`/spaces/${space.id}/transfer`, { organization: target.organizationId })).status).toBe(403);
    const foreign = await create(await h.current.newAdmin(), 'collections');
    const badCollection = await admin.api.post(`/spaces/${space.id}/transfer`, { organization: admin.organizationId, collection: foreign.id });
    expect(badCollection.status).toBe(404);
    expect(badCollection.body.error.message).toContain('body.collection');
    const creator = await h.current.newMember(admin.organizationId, 'create');
    expect((await creator.api.post(`/spaces/${space.id}/transfer`, { organization: admin.organizationId })).status).toBe(403);
    expect((await admin.api.get(`/spaces/${space.id}`)).body.organization).toBe(admin.organizationId);
  });
});
