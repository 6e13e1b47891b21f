import { describe, expect, it } from 'vitest';
import type { Account } from './support/harness.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

async function newSpace(admin: Account): Promise<string> {
  return (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' })).body.id;
}

async function openChangeRequest(admin: Account, spaceId: string, subject = 'Change') {
  const res = await admin.api.post(`/spaces/${spaceId}/change-requests`, { subject });
  expect(res.status).toBe(201);
  return res.body as { id: string; number: number };
}

async function write(admin: Account, spaceId: string, crId: string, changes: unknown[]) {
  const res = await admin.api.post(`/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, { changes });
  expect(res.status).toBe(200);
  return res.body as { changes: { object: string; page: { id: string } }[] };
}

function titles(pages: { title: string; pages?: unknown[] }[]): unknown[] {
  return pages.map((p) => (p.pages?.length ? [p.title, titles(p.pages as never)] : p.title));
}

describe('change request merge and update', () => {
  it('post /spaces/{spaceId}/change-requests/{changeRequestId}/merge merges two change requests one after the other', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await newSpace(admin);
    const first = await openChangeRequest(admin, spaceId, 'First');
    const second = await openChangeRequest(admin, spaceId, 'Second');
    await write(admin, spaceId, first.id, [
      { operation: 'insert_page', document: { markdown: '# Install\n\nRun the installer.' }, ref: 'install' },
      { operation: 'insert_page', document: { markdown: 'Use a token.' }, title: 'Tokens', into: 'install' },
    ]);
    await write(admin, spaceId, second.id, [{ operation: 'insert_page', document: { markdown: '# FAQ\n\nQuestions about [tokens](install/tokens) and [gone](missing).' } }]);

    const merged = await admin.api.post(`/spaces/${spaceId}/change-requests/${first.id}/merge`);
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({ result: 'merge', revision: expect.stringMatching(/^rev_/) });
    const space = await admin.api.get(`/spaces/${spaceId}`);
    expect(space.body.revision).toBe(merged.body.revision);
    const firstAfter = await admin.api.get(`/spaces/${spaceId}/change-requests/${first.id}`);
    expect(firstAfter.body).toMatchObject({ status: 'merged', revisionMerged: merged.body.revision, outdated: false });

    const secondBefore = await admin.api.get(`/spaces/${spaceId}/change-requests/${second.number}`);
    expect(secondBefore.body.outdated).toBe(true);
    const updated = await admin.api.post(`/spaces/${spaceId}/change-requests/${second.id}/update`);
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ result: 'update', revision: expect.stringMatching(/^rev_/) });
    const secondAfter = await admin.api.get(`/spaces/${spaceId}/change-requests/${second.id}`);
    expect(secondAfter.body).toMatchObject({ outdated: false, revision: updated.body.revision, revisionMergedAncestor: merged.body.revision });
    const crPages = await admin.api.get(`/spaces/${spaceId}/change-requests/${second.id}/content/pages`);
    expect(titles(crPages.body.pages)).toEqual([['Install', ['Tokens']], 'FAQ']);

    const mergedSecond = await admin.api.post(`/spaces/${spaceId}/change-requests/${second.number}/merge`);
    expect(mergedSecond.status).toBe(200);
    const pages = await admin.api.get(`/spaces/${spaceId}/content/pages`);
    expect(titles(pages.body.pages)).toEqual([['Install', ['Tokens']], 'FAQ']);
    expect(pages.body.pages[0].pages[0]).toMatchObject({ slug: 'tokens', path: 'install/tokens' });
    const revision = await admin.api.get(`/spaces/${spaceId}/content`);
    expect(revision.body).toMatchObject({ object: 'revision', id: mergedSecond.body.revision, type: 'merge' });
    expect(revision.body.parents).toHaveLength(2);

    // Links, backlinks and search see the merged content.
    const [install, faq] = pages.body.pages;
    const tokens = install.pages[0];
    const links = await admin.api.get(`/spaces/${spaceId}/links`);
    expect(links.body.stats).toEqual({ total: 2, broken: { total: 1, changeRequest: 0 } });
    const backlinks = await admin.api.get(`/spaces/${spaceId}/content/page/${tokens.id}/backlinks`);
    expect(backlinks.body.items.map((b: { page: string }) => b.page)).toEqual([faq.id]);
    const found = await admin.api.get(`/spaces/${spaceId}/search`, { query: 'installer' });
    expect(found.body.items.map((r: { id: string }) => r.id)).toEqual([install.id]);
  });

  it('post /spaces/{spaceId}/change-requests/{changeRequestId}/merge refuses a page changed on both sides with 409 and writes nothing', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await newSpace(admin);
    const setup = await openChangeRequest(admin, spaceId);
    const written = await write(admin, spaceId, setup.id, [{ operation: 'insert_page', document: { markdown: 'Base' }, title: 'Shared' }]);
    const pageId = written.changes[0].page.id;
    await admin.api.post(`/spaces/${spaceId}/change-requests/${setup.id}/merge`);

    const a = await openChangeRequest(admin, spaceId, 'A');
    const b = await openChangeRequest(admin, spaceId, 'B');
    await write(admin, spaceId, a.id, [{ operation: 'update_page', page: pageId, document: { markdown: 'From A' } }]);
    await write(admin, spaceId, b.id, [{ operation: 'update_page', page: pageId, document: { markdown: 'From B' } }]);
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${a.id}/merge`)).status).toBe(200);
    const before = (await admin.api.get(`/spaces/${spaceId}`)).body.revision;

    const conflict = await admin.api.post(`/spaces/${spaceId}/change-requests/${b.id}/merge`);
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.message).toContain(pageId);
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${b.id}/update`)).status).toBe(409);
    expect((await admin.api.get(`/spaces/${spaceId}`)).body.revision).toBe(before);
    expect((await admin.api.get(`/spaces/${spaceId}/change-requests/${b.id}`)).body).toMatchObject({ status: 'open', outdated: true });
    const page = await admin.api.get(`/spaces/${spaceId}/content/page/${pageId}`, { format: 'markdown' });
    expect(page.body.markdown).toBe('From A');
  });

  it('post /spaces/{spaceId}/change-requests/{changeRequestId}/merge takes changes to different pages from both sides', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await newSpace(admin);
    const setup = await openChangeRequest(admin, spaceId);
    const written = await write(admin, spaceId, setup.id, [
      { operation: 'insert_page', document: { markdown: 'One' }, title: 'One' },
      { operation: 'insert_page', document: { markdown: 'Two' }, title: 'Two' },
    ]);
    const [one, two] = written.changes.map((c) => c.page.id);
    await admin.api.post(`/spaces/${spaceId}/change-requests/${setup.id}/merge`);
    const a = await openChangeRequest(admin, spaceId);
    const b = await openChangeRequest(admin, spaceId);
    await write(admin, spaceId, a.id, [{ operation: 'update_page', page: one, title: 'One (A)' }]);
    await write(admin, spaceId, b.id, [{ operation: 'delete_page', page: two }]);
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${a.id}/merge`)).status).toBe(200);
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${b.id}/merge`)).status).toBe(200);
    const pages = await admin.api.get(`/spaces/${spaceId}/content/pages`);
    expect(titles(pages.body.pages)).toEqual(['One (A)']);
  });

  it('post /spaces/{spaceId}/change-requests/{changeRequestId}/merge answers 409 for a merged or archived change request', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await newSpace(admin);
    const cr = await openChangeRequest(admin, spaceId);
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.id}/merge`)).status).toBe(200);
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.id}/merge`)).status).toBe(409);
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.id}/update`)).status).toBe(409);
    const archived = await openChangeRequest(admin, spaceId);
    await admin.api.patch(`/spaces/${spaceId}/change-requests/${archived.id}`, { status: 'archived' });
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${archived.id}/merge`)).status).toBe(409);
  });

  it('post /spaces/{spaceId}/change-requests/{changeRequestId}/merge answers 403 below review and 409 when the space is locked', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const spaceId = await newSpace(admin);
    const cr = await openChangeRequest(admin, spaceId);
    expect((await editor.api.post(`/spaces/${spaceId}/change-requests/${cr.id}/merge`)).status).toBe(403);
    await admin.api.patch(`/spaces/${spaceId}`, { editMode: 'locked' });
    const locked = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.id}/merge`);
    // A locked space is a state of the space, not a role the caller lacks: 409, as in applyTemplateToSpace.
    expect(locked.status).toBe(409);
    expect(locked.body.error.message).toContain('locked');
  });

  it('post /spaces/{spaceId}/change-requests/{changeRequestId}/update is a no-op on an up-to-date change request and 404 for an unknown one', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await newSpace(admin);
    const cr = await openChangeRequest(admin, spaceId);
    const res = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.id}/update`);
    expect(res.status).toBe(200);
    expect(res.body.revision).toBe((await admin.api.get(`/spaces/${spaceId}/change-requests/${cr.id}`)).body.revision);
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/999/update`)).status).toBe(404);
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/crq_nope/merge`)).status).toBe(404);
  });
});
