import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';

const h = useHarness();
const DAY = 24 * 60 * 60 * 1000;

describe('space delete and restore', () => {
  it('delete /spaces/{spaceId} hides the space from reads and lists', async () => {
    const admin = await h.current.newAdmin();
    const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Trash me' });
    const res = await admin.api.delete(`/spaces/${space.body.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toEqual({});
    expect((await admin.api.get(`/spaces/${space.body.id}`)).status).toBe(404);
    expect((await admin.api.patch(`/spaces/${space.body.id}`, { title: 'x' })).status).toBe(404);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/spaces`)).body.items).toEqual([]);
  });

  it('delete /spaces/{spaceId} returns 204 for a space that does not exist or is already deleted', async () => {
    const admin = await h.current.newAdmin();
    expect((await admin.api.delete('/spaces/spc_never_existed')).status).toBe(204);
    const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, {});
    expect((await admin.api.delete(`/spaces/${space.body.id}`)).status).toBe(204);
    expect((await admin.api.delete(`/spaces/${space.body.id}`)).status).toBe(204);
  });

  it('delete /spaces/{spaceId} returns 403 below admin and leaves the space', async () => {
    const admin = await h.current.newAdmin();
    const creator = await h.current.newMember(admin.organizationId, 'create');
    const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, {});
    expect((await creator.api.delete(`/spaces/${space.body.id}`)).status).toBe(403);
    expect((await admin.api.get(`/spaces/${space.body.id}`)).status).toBe(200);
  });

  it("delete /spaces/{spaceId} by an outsider answers 204 and changes nothing", async () => {
    const admin = await h.current.newAdmin();
    const outsider = await h.current.newAdmin();
    const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, {});
    expect((await outsider.api.delete(`/spaces/${space.body.id}`)).status).toBe(204);
    expect((await admin.api.get(`/spaces/${space.body.id}`)).status).toBe(200);
  });

  it('post /spaces/{spaceId}/restore brings a space back within 7 days', async () => {
    const admin = await h.current.newAdmin();
    const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Back' });
    await admin.api.delete(`/spaces/${space.body.id}`);
    h.current.advanceClock(6 * DAY);
    const res = await admin.api.post(`/spaces/${space.body.id}/restore`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: space.body.id, title: 'Back' });
    expect(res.body.deletedAt).toBeUndefined();
    expect((await admin.api.get(`/spaces/${space.body.id}`)).status).toBe(200);
  });

  it('post /spaces/{spaceId}/restore returns 404 after 7 days', async () => {
    const admin = await h.current.newAdmin();
    const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, {});
    await admin.api.delete(`/spaces/${space.body.id}`);
    h.current.advanceClock(7 * DAY + 60_000);
    const res = await admin.api.post(`/spaces/${space.body.id}/restore`);
    expect(res.status).toBe(404);
    expect(res.body.error.message).toContain('more than 7 days');
    expect((await admin.api.get(`/spaces/${space.body.id}`)).status).toBe(404);
  });

  it('post /spaces/{spaceId}/restore on a space that is not deleted returns it unchanged', async () => {
    const admin = await h.current.newAdmin();
    const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Alive' });
    const res = await admin.api.post(`/spaces/${space.body.id}/restore`);
    expect(res.status).toBe(200);
    expect(res.body.title).toBe('Alive');
  });

  it('post /spaces/{spaceId}/restore returns 403 below admin and 404 for unknown spaces', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, {});
    await admin.api.delete(`/spaces/${space.body.id}`);
    expect((await editor.api.post(`/spaces/${space.body.id}/restore`)).status).toBe(403);
    expect((await admin.api.post('/spaces/spc_unknown/restore')).status).toBe(404);
  });
});
