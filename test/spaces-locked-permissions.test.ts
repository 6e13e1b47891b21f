// `permissions` of a locked space agree with what its members can do: every change of the content is a 409
// while `editMode` is `locked`, so `edit`, `merge` and `triggerGitSync` are false for everyone; the admin
// keeps `admin` (and can unlock it). `triggerGitSync` is false here throughout, as no Git Sync is configured;
// a synced space's flag while locked is in test/git-sync-rules.test.ts.
import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';

const h = useHarness();

describe('locked spaces', () => {
  it('get /spaces/{spaceId} and the space list answer edit, merge and triggerGitSync false while the space is locked', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const created = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Handbook' });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(created.body.permissions).toMatchObject({ edit: true, merge: true, triggerGitSync: false, admin: true });

    const locked = await admin.api.patch(`/spaces/${id}`, { editMode: 'locked' });
    expect(locked.status).toBe(200);
    expect(locked.body.permissions).toMatchObject({ view: true, comment: true, admin: true, edit: false, merge: false, triggerGitSync: false });
    const seenByEditor = await editor.api.get(`/spaces/${id}`);
    expect(seenByEditor.status).toBe(200);
    expect(seenByEditor.body.permissions).toMatchObject({ view: true, comment: true, edit: false, merge: false, triggerGitSync: false });
    const listed = await editor.api.get(`/orgs/${admin.organizationId}/spaces`);
    expect(listed.status).toBe(200);
    expect(listed.body.items.find((s: { id: string }) => s.id === id).permissions).toMatchObject({ edit: false, merge: false });

    // What the flags say is what happens: an edit is refused.
    const cr = await editor.api.post(`/spaces/${id}/change-requests`);
    expect(cr.status).toBe(201);
    const edit = await editor.api.post(`/spaces/${id}/change-requests/${cr.body.id}/content`, {
      changes: [{ operation: 'insert_page', title: 'New', document: { markdown: 'x' } }],
    });
    expect(edit.status).toBe(409);

    const unlocked = await admin.api.patch(`/spaces/${id}`, { editMode: 'live' });
    expect(unlocked.status).toBe(200);
    expect(unlocked.body.permissions).toMatchObject({ edit: true, merge: true, triggerGitSync: false });
    expect((await editor.api.get(`/spaces/${id}`)).body.permissions).toMatchObject({ edit: true, merge: false });
  });
});
