import { describe, expect, it } from 'vitest';
import { addMember } from '../server/auth/bootstrap.js';
import { useHarness, type Account } from './support/harness.js';

const h = useHarness();

async function create(account: Account, kind: 'collections' | 'spaces', body: object = {}) {
  const res = await account.api.post(`/orgs/${account.organizationId}/${kind}`, body);
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

describe('collection move and transfer', () => {
  it('post /collections/{collectionId}/move puts a collection into another and back to the top level', async () => {
    const admin = await h.current.newAdmin();
    const a = await create(admin, 'collections', { title: 'A' });
    const b = await create(admin, 'collections', { title: 'B' });
    const into = await admin.api.post(`/collections/${a.id}/move`, { parent: b.id });
    expect(into.status).toBe(200);
    expect(into.body.parent).toBe(b.id);
    const out = await admin.api.post(`/collections/${a.id}/move`, { parent: null });
    expect(out.status).toBe(200);
    expect(out.body.parent).toBeUndefined();
  });

  it('post /collections/{collectionId}/move places a collection next to a space, in that space\'s parent', async () => {
    const admin = await h.current.newAdmin();
    const shelf = await create(admin, 'collections', { title: 'Shelf' });
    const moving = await create(admin, 'collections', { title: 'Moving' });
    const space = await create(admin, 'spaces', { parent: shelf.id });
    const res = await admin.api.post(`/collections/${moving.id}/move`, { position: { before: { type: 'space', space: space.id } } });
    expect(res.status).toBe(200);
    expect(res.body.parent).toBe(shelf.id);
    const conflicting = await admin.api.post(`/collections/${moving.id}/move`, {
      parent: null,
      position: { after: { type: 'space', space: space.id } },
    });
    expect(conflicting.status).toBe(409);
  });

  it('post /collections/{collectionId}/move returns 409 for a move into its own descendant', async () => {
    const admin = await h.current.newAdmin();
    const parent = await create(admin, 'collections', { title: 'Parent' });
    const child = await create(admin, 'collections', { title: 'Child', parent: parent.id });
    const res = await admin.api.post(`/collections/${parent.id}/move`, { parent: child.id });
    expect(res.status).toBe(409);
    expect((await admin.api.post(`/collections/${parent.id}/move`, { parent: parent.id })).status).toBe(409);
    expect((await admin.api.get(`/collections/${parent.id}`)).body.parent).toBeUndefined();
  });

  it('post /collections/{collectionId}/move returns 400 for a bad position, 403 below admin, 404 unknown (collection, parent or anchor space)', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const c = await create(admin, 'collections');
    const badType = await admin.api.post(`/collections/${c.id}/move`, { position: { before: { type: 'page', space: 'x' } } });
    expect(badType.status).toBe(400);
    expect(badType.body.error.message).toContain('body.position.before.type');
    const unknownAnchor = await admin.api.post(`/collections/${c.id}/move`, { position: { after: { type: 'space', space: 'spc_gone' } } });
    expect(unknownAnchor.status).toBe(404);
    expect(unknownAnchor.body.error.message).toContain('body.position.after.space');
    expect((await editor.api.post(`/collections/${c.id}/move`, { parent: null })).status).toBe(403);
    expect((await admin.api.post('/collections/col_unknown/move', { parent: null })).status).toBe(404);
    expect((await admin.api.post(`/collections/${c.id}/move`, { parent: 'col_unknown' })).status).toBe(404);
  });

  it('post /collections/{collectionId}/transfer moves the collection with its content to another organization', async () => {
    const admin = await h.current.newAdmin();
    const target = await h.current.newAdmin();
    await addMember(h.current.db, target.organizationId, admin.userId, 'admin');
    const top = await create(admin, 'collections', { title: 'Move me' });
    const child = await create(admin, 'collections', { title: 'Child', parent: top.id });
    const space = await create(admin, 'spaces', { parent: child.id });
    const res = await admin.api.post(`/collections/${top.id}/transfer`, { organization: target.organizationId });
    expect(res.status).toBe(200);
    expect(res.body.organization).toBe(target.organizationId);
    expect((await admin.api.get(`/collections/${child.id}`)).body.organization).toBe(target.organizationId);
    expect((await target.api.get(`/spaces/${space.id}`)).body.organization).toBe(target.organizationId);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/collections`)).body.items).toEqual([]);
  });

  it('post /collections/{collectionId}/transfer returns 403 without admin in the target, 404 for unknown targets, 400 without organization', async () => {
    const admin = await h.current.newAdmin();
    const target = await h.current.newAdmin();
    await addMember(h.current.db, target.organizationId, admin.userId, 'edit');
    const c = await create(admin, 'collections');
    expect((await admin.api.post(`/collections/${c.id}/transfer`, { organization: target.organizationId })).status).toBe(403);
    expect((await admin.api.post(`/collections/${c.id}/transfer`, { organization: 'org_unknown' })).status).toBe(404);
    const missing = await admin.api.post(`/collections/${c.id}/transfer`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('body.organization');
    expect((await admin.api.get(`/collections/${c.id}`)).body.organization).toBe(admin.organizationId);
  });
});
