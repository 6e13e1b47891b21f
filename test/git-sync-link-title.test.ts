// A page's link title (GitBook's `linkTitle`, the title of its table-of-contents entry) set through the
// API where its title is: inserted and updated in a change request, read back from the change request and
// the space, merged field by field with another change request's edit of the same page, removed with "",
// and exported to SUMMARY.md as the entry's quoted link title, only that line changing.
import { describe, expect, it, vi } from 'vitest';
import type { Account } from './support/harness.js';
import { useHarness } from './support/harness.js';
import { gitCredentials, gitSyncWorld, useGitHttpServer } from './support/git-sync-world.js';
import type { GitHttpServer } from './support/git-http-server.js';

const h = useHarness();
vi.setConfig({ testTimeout: 180_000 });
let git: GitHttpServer;
const { drain, requestExport, info, pagesByTitle, syncedSpace } = gitSyncWorld(h, () => git);

useGitHttpServer(gitCredentials, (server) => (git = server));

async function openChangeRequest(account: Account, spaceId: string, subject: string): Promise<string> {
  const cr = await account.api.post(`/spaces/${spaceId}/change-requests`, { subject });
  expect(cr.status).toBe(201);
  return cr.body.id;
}

async function write(account: Account, spaceId: string, crId: string, changes: unknown[]) {
  const res = await account.api.post(`/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, { changes });
  expect(res.status).toBe(200);
  return res.body as { changes: { page: { id: string } }[] };
}

async function merge(account: Account, spaceId: string, crId: string) {
  const res = await account.api.post(`/spaces/${spaceId}/change-requests/${crId}/merge`);
  expect(res.status).toBe(200);
}

async function spacePage(account: Account, spaceId: string, pageId: string) {
  const res = await account.api.get(`/spaces/${spaceId}/content/page/${pageId}`);
  expect(res.status).toBe(200);
  return res.body;
}

describe('a page link title through the API', () => {
  it('post /spaces/{spaceId}/change-requests/{id}/content sets, keeps and removes a link title, returned where the title is', async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, pages } = await syncedSpace(admin, 'link-title-api');
    const cr = await openChangeRequest(admin, spaceId, 'Link titles');
    const done = await write(admin, spaceId, cr, [
      { operation: 'update_page', page: pages.Alpha, linkTitle: 'First' },
      { operation: 'insert_page', title: 'Installing on every platform', linkTitle: 'Install', document: { markdown: 'Steps.' } },
    ]);
    const inserted = done.changes[1].page.id;
    const inCr = await admin.api.get(`/spaces/${spaceId}/change-requests/${cr}/content/page/${inserted}`);
    expect(inCr.status).toBe(200);
    expect(inCr.body).toMatchObject({ title: 'Installing on every platform', linkTitle: 'Install' });
    const tree = await admin.api.get(`/spaces/${spaceId}/change-requests/${cr}/content/pages`);
    expect(tree.status).toBe(200);
    expect(tree.body.pages.map((p: { title: string; linkTitle?: string }) => [p.title, p.linkTitle ?? null])).toEqual([
      ['Welcome', null], ['Alpha', 'First'], ['Beta', null], ['Installing on every platform', 'Install'],
    ]);
    // A title change leaves the link title; "" removes it.
    await write(admin, spaceId, cr, [{ operation: 'update_page', page: pages.Alpha, title: 'Alpha renamed' }, { operation: 'update_page', page: inserted, linkTitle: '' }]);
    await merge(admin, spaceId, cr);
    expect(await spacePage(admin, spaceId, pages.Alpha)).toMatchObject({ title: 'Alpha renamed', linkTitle: 'First' });
    expect(await spacePage(admin, spaceId, inserted)).not.toHaveProperty('linkTitle');
  });

  it('post /spaces/{spaceId}/change-requests/{id}/content refuses a link title over 100 characters with 400 naming it', async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, pages } = await syncedSpace(admin, 'link-title-long');
    const cr = await openChangeRequest(admin, spaceId, 'Too long');
    const res = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr}/content?compat=false`, { changes: [{ operation: 'update_page', page: pages.Alpha, linkTitle: 'x'.repeat(101) }] });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/linkTitle/);
  });

  it('merges a link title field by field with an edit of the same page, and exports it to SUMMARY.md alone', async () => {
    const admin = await h.current.newAdmin();
    const { url, spaceId, pages } = await syncedSpace(admin, 'link-title-merge');
    const synced = git.head('link-title-merge', 'refs/heads/main');
    const linkCr = await openChangeRequest(admin, spaceId, 'Link title');
    const editCr = await openChangeRequest(admin, spaceId, 'Edit');
    await write(admin, spaceId, linkCr, [{ operation: 'update_page', page: pages.Alpha, linkTitle: 'Start here' }]);
    await write(admin, spaceId, editCr, [{ operation: 'update_page', page: pages.Alpha, description: 'The first page', document: { markdown: 'Alpha text, edited.' } }]);
    await merge(admin, spaceId, editCr);
    // The link title's change request changed the same page as the one merged: its fields merge with the space's.
    await merge(admin, spaceId, linkCr);
    expect(await spacePage(admin, spaceId, pages.Alpha)).toMatchObject({ title: 'Alpha', linkTitle: 'Start here', description: 'The first page' });
    expect(Object.keys(await pagesByTitle(admin, spaceId))).toEqual(['Welcome', 'Alpha', 'Beta']);

    await requestExport(admin, spaceId, url, { timestamp: '2026-02-01T11:00:00.000Z' });
    expect(await drain()).toBe(1);
    const head = git.head('link-title-merge', 'refs/heads/main');
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'success', result: 'applied', commit: head });
    const changed = git.changedLines('link-title-merge', synced, head);
    expect(changed['SUMMARY.md']).toEqual(['-* [Alpha](alpha.md)', '+* [Alpha](alpha.md "Start here")']);
    expect(git.show('link-title-merge', head, 'alpha.md')).toBe('---\ndescription: The first page\n---\n\n# Alpha\n\nAlpha text, edited.\n');
    expect(Object.keys(changed).sort()).toEqual(['SUMMARY.md', 'alpha.md']);
  });
});
