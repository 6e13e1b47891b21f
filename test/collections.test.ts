import { describe, expect, it } from 'vitest';
import { useHarness, type Account } from './support/harness.js';

const h = useHarness();

async function collection(account: Account, body: object = {}) {
  const res = await account.api.post(`/orgs/${account.organizationId}/collections`, body);
  expect(res.status).toBe(201);
  return res.body;
}

describe('collections', () => {
  it('post /orgs/{organizationId}/collections creates a collection, top level or nested', async () => {
    const admin = await h.current.newAdmin();
    const top = await collection(admin, { title: 'Guides' });
    expect(top).toMatchObject({ object: 'collection', title: 'Guides', organization: admin.organizationId, defaultLevel: 'inherit' });
    expect(top.parent).toBeUndefined();
    expect(top.urls.location).toBe(`https://api.test.example/v1/collections/${top.id}`);
    expect(top.permissions).toEqual({ view: true, admin: true, viewInviteLinks: true, create: true });
    const nested = await collection(admin, { title: 'Nested', parent: top.id });
    expect(nested.parent).toBe(top.id);
    const untitled = await admin.api.post(`/orgs/${admin.organizationId}/collections`);
    expect(untitled.status).toBe(201);
    expect(untitled.body.title).toBe('Untitled');
  });

  it('post /orgs/{organizationId}/collections returns 400 for a long title, 403 below create, 404 for an unknown parent', async () => {
    const admin = await h.current.newAdmin();
    const reviewer = await h.current.newMember(admin.organizationId, 'review');
    const long = await admin.api.post(`/orgs/${admin.organizationId}/collections`, { title: 'y'.repeat(51) });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toContain('body.title');
    expect((await reviewer.api.post(`/orgs/${admin.organizationId}/collections`, {})).status).toBe(403);
    expect((await admin.api.post(`/orgs/${admin.organizationId}/collections`, { parent: 'col_nope' })).status).toBe(404);
  });

  it('get /orgs/{organizationId}/collections lists nested collections unless nested=false', async () => {
    const admin = await h.current.newAdmin();
    const top = await collection(admin, { title: 'Top' });
    const child = await collection(admin, { title: 'Child', parent: top.id });
    const all = await admin.api.get(`/orgs/${admin.organizationId}/collections`);
    expect(all.status).toBe(200);
    expect(all.body.items.map((c: { id: string }) => c.id)).toEqual([top.id, child.id]);
    const topOnly = await admin.api.get(`/orgs/${admin.organizationId}/collections`, { nested: false });
    expect(topOnly.body.items.map((c: { id: string }) => c.id)).toEqual([top.id]);
    expect(topOnly.body.count).toBe(1);
  });

  it('get /orgs/{organizationId}/collections returns 400 for nested=maybe and 404 for outsiders', async () => {
    const admin = await h.current.newAdmin();
    const outsider = await h.current.newAdmin();
    const res = await admin.api.get(`/orgs/${admin.organizationId}/collections`, { nested: 'maybe' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('query.nested');
    expect((await outsider.api.get(`/orgs/${admin.organizationId}/collections`)).status).toBe(404);
  });

  it('get /collections/{collectionId} returns it, and 404 for unknown or foreign collections', async () => {
    const admin = await h.current.newAdmin();
    const outsider = await h.current.newAdmin();
    const c = await collection(admin, { title: 'Mine' });
    const res = await admin.api.get(`/collections/${c.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(c);
    expect((await admin.api.get('/collections/col_unknown')).status).toBe(404);
    expect((await outsider.api.get(`/collections/${c.id}`)).status).toBe(404);
  });

  it('patch /collections/{collectionId} changes title, description and defaultLevel', async () => {
    const admin = await h.current.newAdmin();
    const c = await collection(admin, { title: 'Old' });
    const res = await admin.api.patch(`/collections/${c.id}`, { title: 'New', description: 'About', defaultLevel: 'comment' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'New', description: 'About', defaultLevel: 'comment' });
  });

  it('patch /collections/{collectionId} returns 400 for a description over 100, 403 below admin, 404 unknown', async () => {
    const admin = await h.current.newAdmin();
    const creator = await h.current.newMember(admin.organizationId, 'create');
    const c = await collection(admin, { title: 'Same' });
    const long = await admin.api.patch(`/collections/${c.id}`, { description: 'd'.repeat(101) });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toContain('body.description');
    expect((await creator.api.patch(`/collections/${c.id}`, { title: 'No' })).status).toBe(403);
    expect((await admin.api.patch('/collections/col_unknown', { title: 'No' })).status).toBe(404);
    expect((await admin.api.get(`/collections/${c.id}`)).body.title).toBe('Same');
  });

  it('get /collections/{collectionId}/spaces lists the spaces in their order, 404 for unknown', async () => {
    const admin = await h.current.newAdmin();
    const c = await collection(admin, { title: 'Shelf' });
    const a = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'A', parent: c.id });
    const b = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'B', parent: c.id });
    await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Elsewhere' });
    const res = await admin.api.get(`/collections/${c.id}/spaces`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((s: { id: string }) => s.id)).toEqual([a.body.id, b.body.id]);
    expect((await admin.api.get('/collections/col_unknown/spaces')).status).toBe(404);
  });

  it('delete /collections/{collectionId} removes nested collections and trashes their spaces, restorable at the top level', async () => {
    const admin = await h.current.newAdmin();
    const top = await collection(admin, { title: 'Top' });
    const child = await collection(admin, { title: 'Child', parent: top.id });
    const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { parent: child.id });
    expect((await admin.api.delete(`/collections/${top.id}`)).status).toBe(204);
    expect((await admin.api.get(`/collections/${top.id}`)).status).toBe(404);
    expect((await admin.api.get(`/collections/${child.id}`)).status).toBe(404);
    expect((await admin.api.get(`/spaces/${space.body.id}`)).status).toBe(404);
    const restored = await admin.api.post(`/spaces/${space.body.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.parent).toBeUndefined();
  });

  it('delete /collections/{collectionId} returns 204 when it does not exist, 403 below admin', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const c = await collection(admin);
    expect((await admin.api.delete('/collections/col_unknown')).status).toBe(204);
    expect((await editor.api.delete(`/collections/${c.id}`)).status).toBe(403);
    expect((await admin.api.get(`/collections/${c.id}`)).status).toBe(200);
  });
});
