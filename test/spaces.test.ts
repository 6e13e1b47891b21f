import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';

const h = useHarness();

describe('spaces', () => {
  it('post /orgs/{organizationId}/spaces creates a space with a Location header', async () => {
    const admin = await h.current.newAdmin();
    const res = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Handbook', emoji: '📘', language: 'fr' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'space',
      title: 'Handbook',
      emoji: '📘',
      language: 'fr',
      visibility: 'private',
      editMode: 'live',
      mergeRules: { type: 'inherit' },
      organization: admin.organizationId,
      defaultLevel: 'inherit',
      comments: 0,
    });
    expect(res.body.revision).toMatch(/^rev_/);
    expect(res.headers.location).toBe(`https://api.test.example/v1/spaces/${res.body.id}`);
    expect(res.body.urls.location).toBe(res.headers.location);
    expect(res.body.permissions).toMatchObject({ admin: true, edit: true, view: true });
  });

  it('post /orgs/{organizationId}/spaces accepts no body and uses defaults', async () => {
    const admin = await h.current.newAdmin();
    const res = await admin.api.post(`/orgs/${admin.organizationId}/spaces`);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: 'Untitled', emoji: '' });
  });

  it('post /orgs/{organizationId}/spaces inside a collection is in-collection', async () => {
    const admin = await h.current.newAdmin();
    const collection = await admin.api.post(`/orgs/${admin.organizationId}/collections`, { title: 'Guides' });
    const res = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { parent: collection.body.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ parent: collection.body.id, visibility: 'in-collection' });
  });

  it('post /orgs/{organizationId}/spaces returns 400 naming a title over 50 characters', async () => {
    const admin = await h.current.newAdmin();
    const res = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'x'.repeat(51) });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('body.title');
  });

  it('post /orgs/{organizationId}/spaces returns 400 naming an emoji over 50 characters and an unknown field', async () => {
    const admin = await h.current.newAdmin();
    const long = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { emoji: '🙂'.repeat(51) });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toContain('body.emoji');
    const unknown = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { colour: 'red' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('body.colour');
  });

  it('post /orgs/{organizationId}/spaces returns 403 for a member below create', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const res = await editor.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Nope' });
    expect(res.status).toBe(403);
  });

  it('post /orgs/{organizationId}/spaces returns 404 for an organization the caller is not in, and for an unknown parent', async () => {
    const admin = await h.current.newAdmin();
    const other = await h.current.newAdmin();
    expect((await admin.api.post(`/orgs/${other.organizationId}/spaces`, {})).status).toBe(404);
    expect((await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { parent: 'col_missing' })).status).toBe(404);
  });

  it('get /spaces/{spaceId} returns the space with permissions computed for the caller', async () => {
    const admin = await h.current.newAdmin();
    const reader = await h.current.newMember(admin.organizationId, 'read');
    const created = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Read me' });
    const res = await reader.api.get(`/spaces/${created.body.id}`, { shareKey: 'abc' });
    expect(res.status).toBe(200);
    expect(res.body.title).toBe('Read me');
    expect(res.body.permissions).toEqual({
      view: true,
      access: true,
      admin: false,
      viewInviteLinks: false,
      edit: false,
      triggerGitSync: false,
      comment: false,
      merge: false,
      review: false,
      installIntegration: false,
    });
  });

  it('get /spaces/{spaceId} raises a reader to the space defaultLevel', async () => {
    const admin = await h.current.newAdmin();
    const reader = await h.current.newMember(admin.organizationId, 'read');
    const created = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, {});
    await admin.api.patch(`/spaces/${created.body.id}`, { defaultLevel: 'review' });
    const res = await reader.api.get(`/spaces/${created.body.id}`);
    expect(res.body.permissions).toMatchObject({ edit: true, review: true, merge: true, admin: false });
  });

  it('get /spaces/{spaceId} returns 404 for unknown ids, other organizations and guests', async () => {
    const admin = await h.current.newAdmin();
    const outsider = await h.current.newAdmin();
    const guest = await h.current.newMember(admin.organizationId, null);
    const created = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, {});
    expect((await admin.api.get('/spaces/spc_unknown')).status).toBe(404);
    expect((await outsider.api.get(`/spaces/${created.body.id}`)).status).toBe(404);
    expect((await guest.api.get(`/spaces/${created.body.id}`)).status).toBe(404);
  });

  it('patch /spaces/{spaceId} changes the given fields only', async () => {
    const admin = await h.current.newAdmin();
    const created = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Before', emoji: '🐢' });
    const res = await admin.api.patch(`/spaces/${created.body.id}`, {
      title: 'After',
      editMode: 'locked',
      mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'After', emoji: '🐢', editMode: 'locked' });
    expect(res.body.mergeRules).toEqual({ type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] });
    expect((await admin.api.get(`/spaces/${created.body.id}`)).body.title).toBe('After');
  });

  it('patch /spaces/{spaceId} returns 400 for a bad merge rule and keeps the space unchanged', async () => {
    const admin = await h.current.newAdmin();
    const created = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Keep' });
    const res = await admin.api.patch(`/spaces/${created.body.id}`, { title: 'Lost', mergeRules: { type: 'sometimes' } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('body.mergeRules');
    expect((await admin.api.get(`/spaces/${created.body.id}`)).body.title).toBe('Keep');
  });

  it('patch /spaces/{spaceId} returns 403 when an editor changes admin settings, 404 for unknown spaces', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const created = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, {});
    expect((await editor.api.patch(`/spaces/${created.body.id}`, { title: 'Fine' })).status).toBe(200);
    expect((await editor.api.patch(`/spaces/${created.body.id}`, { editMode: 'locked' })).status).toBe(403);
    expect((await admin.api.patch('/spaces/spc_unknown', { title: 'x' })).status).toBe(404);
  });

  it('get /orgs/{organizationId}/spaces lists the spaces that are not deleted', async () => {
    const admin = await h.current.newAdmin();
    const a = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'A' });
    const b = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'B' });
    await admin.api.delete(`/spaces/${a.body.id}`);
    const res = await admin.api.get(`/orgs/${admin.organizationId}/spaces`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((s: { id: string }) => s.id)).toEqual([b.body.id]);
    expect(res.body.count).toBe(1);
  });

  it('get /orgs/{organizationId}/spaces returns 404 for non-members and 400 for a limit over 1000', async () => {
    const admin = await h.current.newAdmin();
    const outsider = await h.current.newAdmin();
    expect((await outsider.api.get(`/orgs/${admin.organizationId}/spaces`)).status).toBe(404);
    const res = await admin.api.get(`/orgs/${admin.organizationId}/spaces`, { limit: 1001 });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('query.limit');
  });
});
