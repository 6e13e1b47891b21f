// Git Sync operations against a repository served by the test (git http-backend over smart HTTP): an
// export that finds the branch moved merges the repository's changes to other pages (three-way against the
// last sync) and pushes, refusing only pages changed on both sides; every operation's outcome is kept in
// a bounded history; a space deleted before or while its operation runs fails the operation (and its job)
// with the reason.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { GIT_SYNC_HISTORY } from '../contract/git-sync-schemas.js';
import { jobs, spaces } from '../server/db/schema/index.js';
import { GIT_SYNC } from '../server/git-sync/sync.job.js';
import { useHarness } from './support/harness.js';
import { gitCredentials, gitSyncWorld, useGitHttpServer } from './support/git-sync-world.js';
import type { GitHttpServer } from './support/git-http-server.js';

const h = useHarness();
vi.setConfig({ testTimeout: 180_000 });
let git: GitHttpServer;
const world = gitSyncWorld(h, () => git);
const { drain, requestImport, requestExport, info, markdown, editInSpace, revisionOf, syncedSpace, pagesByTitle } = world;

useGitHttpServer(gitCredentials, (server) => (git = server));

async function jobOf(operationId: string) {
  const [row] = await h.current.db.select().from(jobs).where(eq(jobs.id, operationId));
  return row;
}

describe('git sync: an export when both sides changed', () => {
  it('merges changes to different pages, pushes both, and brings the repository\'s change into the space', async () => {
    const admin = await h.current.newAdmin();
    const { url, spaceId, pages } = await syncedSpace(admin, 'export-merge');
    await editInSpace(admin, spaceId, pages.Alpha, 'Alpha from the space.');
    // Written by hand, in a style this server does not write (`*…*`, `+` bullets): the merge keeps it as it is.
    const betaInGit = '# Beta\n\n*Beta* from Git.\n\n+ one\n+ two\n';
    const moved = git.commit('export-merge', { 'beta.md': betaInGit, 'notes.txt': 'kept\n' }, 'Edit beta in Git');
    const before = await revisionOf(admin, spaceId);

    await requestExport(admin, spaceId, url, { timestamp: '2026-02-01T11:00:00.000Z' });
    expect(await drain()).toBe(1);
    const head = git.head('export-merge');
    const operation = (await info(admin, spaceId)).operation;
    expect(operation).toMatchObject({ state: 'success', result: 'applied', direction: 'export', commit: head });
    expect(git.commitInfo('export-merge', head)).toMatchObject({ message: 'From the space', parents: [moved] });
    expect(git.show('export-merge', head, 'alpha.md')).toContain('Alpha from the space.');
    expect(git.show('export-merge', head, 'beta.md')).toBe(betaInGit);
    expect(git.show('export-merge', head, 'notes.txt')).toBe('kept\n');
    // The space holds the repository's change too, in a new revision that is the sync's base.
    const after = await revisionOf(admin, spaceId);
    expect(after).not.toBe(before);
    expect(operation.revision).toBe(after);
    expect(await markdown(admin, spaceId, pages.Alpha)).toContain('Alpha from the space.');
    expect(await markdown(admin, spaceId, pages.Beta)).toContain('_Beta_ from Git.');
    const state = await info(admin, spaceId);
    expect(state).toMatchObject({ commit: head, revision: after });
    const revision = await admin.api.get(`/spaces/${spaceId}/content`);
    expect(revision.status).toBe(200);
    expect(revision.body.git).toMatchObject({ oid: head, createdByGitBook: true });

    // Both sides are in step: another export writes nothing, an import changes nothing.
    await requestExport(admin, spaceId, url, { timestamp: '2026-02-01T11:05:00.000Z' });
    await requestImport(admin, spaceId, url, { timestamp: '2026-02-01T11:06:00.000Z' });
    expect(await drain()).toBe(2);
    const [imported, exported] = (await info(admin, spaceId)).operations;
    expect(exported).toMatchObject({ direction: 'export', state: 'success', result: 'unchanged', commit: head });
    expect(imported).toMatchObject({ direction: 'import', state: 'success', result: 'unchanged', commit: head });
    expect(git.head('export-merge')).toBe(head);
    expect(await revisionOf(admin, spaceId)).toBe(after);
  });

  it('refuses the same page changed on both sides, naming it, and leaves both sides as they were; force overwrites', async () => {
    const admin = await h.current.newAdmin();
    const { url, spaceId, pages } = await syncedSpace(admin, 'export-conflict');
    await editInSpace(admin, spaceId, pages.Alpha, 'Alpha from the space.');
    await editInSpace(admin, spaceId, pages.Welcome, 'Welcome from the space.');
    const moved = git.commit('export-conflict', { 'alpha.md': '# Alpha\n\nAlpha from Git.\n', 'beta.md': '# Beta\n\nBeta from Git.\n' }, 'Edit in Git');
    const before = await revisionOf(admin, spaceId);

    await requestExport(admin, spaceId, url, { timestamp: '2026-02-01T11:00:00.000Z' });
    expect(await drain()).toBe(1);
    const refused = (await info(admin, spaceId)).operation;
    expect(refused).toMatchObject({ state: 'failure', direction: 'export' });
    expect(refused.conflicts).toEqual([{ page: pages.Alpha, title: 'Alpha', path: 'alpha', gitPath: 'alpha.md' }]);
    expect(refused.error).toContain('alpha');
    expect(refused.error).toContain('force');
    expect(git.head('export-conflict')).toBe(moved);
    expect(await revisionOf(admin, spaceId)).toBe(before);
    expect(await markdown(admin, spaceId, pages.Beta)).toContain('Beta text.');
    expect((await jobOf(refused.id)).status).toBe('failed');

    await requestExport(admin, spaceId, url, { timestamp: '2026-02-01T11:05:00.000Z', force: true });
    expect(await drain()).toBe(1);
    const forced = git.head('export-conflict');
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'success', result: 'applied', commit: forced });
    expect(git.show('export-conflict', forced, 'alpha.md')).toContain('Alpha from the space.');
    expect(git.show('export-conflict', forced, 'beta.md')).toContain('Beta text.');
  });
});

describe('git sync: pages an import merged from the space', () => {
  it('stay the space\'s: a later change to them in Git is a conflict, and an export writes them', async () => {
    const admin = await h.current.newAdmin();
    const { url, spaceId, pages } = await syncedSpace(admin, 'divergent');
    await editInSpace(admin, spaceId, pages.Alpha, 'Alpha from the space.');
    git.commit('divergent', { 'beta.md': '# Beta\n\nBeta from Git.\n' }, 'Edit beta in Git');
    await requestImport(admin, spaceId, url, { timestamp: '2026-02-01T11:00:00.000Z' });
    expect(await drain()).toBe(1);
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'success', result: 'applied' });
    const merged = await revisionOf(admin, spaceId);

    // Alpha's file still says the old text: a change to it in Git now meets the space's unexported edit.
    const moved = git.commit('divergent', { 'alpha.md': '# Alpha\n\nAlpha from Git.\n' }, 'Edit alpha in Git');
    await requestImport(admin, spaceId, url, { timestamp: '2026-02-01T11:05:00.000Z' });
    expect(await drain()).toBe(1);
    const refused = (await info(admin, spaceId)).operation;
    expect(refused).toMatchObject({ state: 'failure', direction: 'import' });
    expect(refused.conflicts.map((c: { page: string }) => c.page)).toEqual([pages.Alpha]);
    expect(await revisionOf(admin, spaceId)).toBe(merged);

    // Without that change, an export writes the space's Alpha (the sync's file is not kept for it).
    git.commit('divergent', { 'alpha.md': '# Alpha\n\nAlpha text.\n' }, 'Revert alpha');
    await requestImport(admin, spaceId, url, { timestamp: '2026-02-01T11:10:00.000Z' });
    await requestExport(admin, spaceId, url, { timestamp: '2026-02-01T11:15:00.000Z' });
    expect(await drain()).toBe(2);
    const head = git.head('divergent');
    expect(head).not.toBe(moved);
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'success', result: 'applied', direction: 'export', commit: head });
    expect(git.show('divergent', head, 'alpha.md')).toContain('Alpha from the space.');
    expect(git.show('divergent', head, 'beta.md')).toContain('Beta from Git.');
    expect(await markdown(admin, spaceId, pages.Alpha)).toContain('Alpha from the space.');
  });
});

describe('git sync: the history of operations', () => {
  it('keeps every operation\'s outcome, a superseded one included, newest first, bounded', async () => {
    const admin = await h.current.newAdmin();
    const { url, spaceId } = await syncedSpace(admin, 'history');
    const first = (await info(admin, spaceId)).operation;
    expect((await info(admin, spaceId)).operations).toEqual([first]);

    // Two requests before either runs: `operation` shows the second, the history keeps both outcomes.
    git.commit('history', { 'alpha.md': '# Alpha\n\nNewer.\n' }, 'Newer alpha');
    await requestImport(admin, spaceId, url, { timestamp: '2026-02-01T12:00:00.000Z' });
    await requestImport(admin, spaceId, url, { timestamp: '2026-02-01T09:00:00.000Z' });
    let state = await info(admin, spaceId);
    expect(state.operations.map((o: { state: string }) => o.state)).toEqual(['running', 'running', 'success']);
    expect(await drain()).toBe(2);
    state = await info(admin, spaceId);
    const [older, newer, start] = state.operations;
    expect(state.operation).toEqual(older);
    expect(newer).toMatchObject({ state: 'success', result: 'applied', direction: 'import', endedAt: expect.any(String) });
    expect(older).toMatchObject({ state: 'success', result: 'skipped' });
    expect(start).toEqual(first);
    const space = await admin.api.get(`/spaces/${spaceId}`);
    expect(space.status).toBe(200);
    expect(space.body.gitSync.operations).toEqual(state.operations);

    // Bounded: the oldest leave.
    for (let i = 0; i < GIT_SYNC_HISTORY; i++) await requestImport(admin, spaceId, url, { timestamp: '2026-01-01T00:00:00.000Z' });
    expect(await drain()).toBe(GIT_SYNC_HISTORY);
    const bounded = (await info(admin, spaceId)).operations;
    expect(bounded).toHaveLength(GIT_SYNC_HISTORY);
    expect(bounded.every((o: { result?: string }) => o.result === 'skipped')).toBe(true);
    expect(bounded.map((o: { id: string }) => o.id)).not.toContain(newer.id);
  });
});

describe('git sync: a space deleted under its operation', () => {
  it('an operation queued when its space is deleted fails with the reason, and so does its job', async () => {
    const admin = await h.current.newAdmin();
    const { url, spaceId } = await syncedSpace(admin, 'deleted-queued');
    await requestExport(admin, spaceId, url, { timestamp: '2026-02-01T11:00:00.000Z' });
    const queued = (await info(admin, spaceId)).operation;
    expect(queued.state).toBe('running');
    expect((await admin.api.delete(`/spaces/${spaceId}`)).status).toBe(204);
    expect(await drain()).toBe(1);
    expect(await jobOf(queued.id)).toMatchObject({ status: 'failed', lastError: expect.stringContaining('deleted') });
    expect((await admin.api.post(`/spaces/${spaceId}/restore`)).status).toBe(200);
    expect((await info(admin, spaceId)).operation).toMatchObject({ id: queued.id, state: 'failure', error: 'The space was deleted before the operation ran', endedAt: expect.any(String) });
  });

  it('an import or export running when its space is deleted fails with the reason and writes nothing to the space', async () => {
    const admin = await h.current.newAdmin();
    const { url, spaceId, pages } = await syncedSpace(admin, 'deleted-running');
    const revision = await revisionOf(admin, spaceId);
    git.commit('deleted-running', { 'alpha.md': '# Alpha\n\nChanged in Git.\n' }, 'Change alpha');
    const trash = async () => {
      await h.current.db.update(spaces).set({ deletedAt: new Date() }).where(eq(spaces.id, spaceId));
    };
    const restore = async () => {
      git.beforeRequest = undefined;
      expect((await admin.api.post(`/spaces/${spaceId}/restore`)).status).toBe(200);
    };

    // Import: deleted while the repository is fetched.
    await requestImport(admin, spaceId, url, { timestamp: '2026-02-01T11:00:00.000Z' });
    git.beforeRequest = trash;
    expect(await drain()).toBe(1);
    await restore();
    const imported = (await info(admin, spaceId)).operation;
    expect(imported).toMatchObject({ state: 'failure', direction: 'import', error: expect.stringContaining('deleted') });
    expect((await jobOf(imported.id)).status).toBe('failed');
    expect(await revisionOf(admin, spaceId)).toBe(revision);
    expect(await markdown(admin, spaceId, pages.Alpha)).toContain('Alpha text.');

    // Export: deleted while the commit is pushed.
    await requestExport(admin, spaceId, url, { timestamp: '2026-02-01T11:10:00.000Z', force: true });
    git.beforeRequest = async (path) => {
      if (path.includes('git-receive-pack') && !path.includes('info/refs')) await trash();
    };
    expect(await drain()).toBe(1);
    await restore();
    const exported = (await info(admin, spaceId)).operation;
    expect(exported).toMatchObject({ state: 'failure', direction: 'export', error: expect.stringContaining('deleted while the export ran') });
    expect((await jobOf(exported.id)).status).toBe('failed');
    const jobRows = await h.current.db.select().from(jobs).where(sql`${jobs.kind} = ${GIT_SYNC} AND ${jobs.payload}->>'spaceId' = ${spaceId} AND ${jobs.status} = 'running'`);
    expect(jobRows).toEqual([]);
    expect(Object.keys(await pagesByTitle(admin, spaceId)).sort()).toEqual(['Alpha', 'Beta', 'Welcome']);
  });
});
