// Git Sync's rules against a repository served by the test (git http-backend over smart HTTP): changes on
// both sides (conflicts without force, a merge of changes to different pages, force), operations ordered by
// timestamp, repositories over the limits, credentials kept out of storage and logs, triggerGitSync, and
// the refusals of the requests themselves.
import { createHash, randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { pino } from 'pino';
import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { blobs, contentRevisions, jobs, spaces } from '../server/db/schema/index.js';
import { loadConfig } from '../server/config.js';
import { defaultRepositoryLimits, GIT_SYNC } from '../server/git-sync/sync.job.js';
import { startJobs } from '../server/jobs/start.js';
import type { RepositoryLimits } from '../server/git-sync/work-repository.js';
import { PUBLIC_URL, useHarness, type Account } from './support/harness.js';
import { gitCredentials, gitSyncWorld, useGitHttpServer } from './support/git-sync-world.js';
import type { GitHttpServer } from './support/git-http-server.js';

const h = useHarness();
// Each test talks to a Git server through real processes (git http-backend): slower than the default allows on a busy machine.
vi.setConfig({ testTimeout: 180_000 });
const credentials = gitCredentials;
let git: GitHttpServer;
const logLines: string[] = [];

useGitHttpServer(credentials, (server) => (git = server));

const world = gitSyncWorld(h, () => git);
const { authed, requestImport, requestExport, info, markdown, editInSpace, revisionOf, syncedSpace } = world;

/** Runs the queued Git Sync jobs, logging at debug level into logLines. */
async function drain(limits: RepositoryLimits = defaultRepositoryLimits) {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  return world.drain(limits, pino({ level: 'debug' }, stream));
}

describe('git sync: changes on both sides', () => {
  it('an import or export without force refuses pages changed on both sides, naming them; force takes the repository', async () => {
    const admin = await h.current.newAdmin();
    const { url, spaceId, pages } = await syncedSpace(admin, 'both-sides');
    await editInSpace(admin, spaceId, pages.Alpha, 'Alpha edited in the space.');
    const repoHead = git.commit('both-sides', { 'alpha.md': '# Alpha\n\nAlpha edited in Git.\n' }, 'Edit alpha in Git');
    const before = await revisionOf(admin, spaceId);

    await requestImport(admin, spaceId, url, { timestamp: '2026-02-01T11:00:00.000Z' });
    expect(await drain()).toBe(1);
    const refused = (await info(admin, spaceId)).operation;
    expect(refused).toMatchObject({ state: 'failure', direction: 'import' });
    expect(refused.conflicts).toEqual([{ page: pages.Alpha, title: 'Alpha', path: 'alpha', gitPath: 'alpha.md' }]);
    expect(refused.error).toContain('alpha');
    expect(await revisionOf(admin, spaceId)).toBe(before);

    await requestExport(admin, spaceId, url, { timestamp: '2026-02-01T11:05:00.000Z' });
    expect(await drain()).toBe(1);
    const exportRefused = (await info(admin, spaceId)).operation;
    expect(exportRefused).toMatchObject({ state: 'failure', direction: 'export' });
    expect(exportRefused.conflicts.map((c: { page: string }) => c.page)).toEqual([pages.Alpha]);
    expect(git.head('both-sides')).toBe(repoHead); // the branch was left as it was

    await requestImport(admin, spaceId, url, { timestamp: '2026-02-01T11:10:00.000Z', force: true });
    expect(await drain()).toBe(1);
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'success', result: 'applied', commit: repoHead });
    expect(await markdown(admin, spaceId, pages.Alpha)).toContain('Alpha edited in Git.');
  });

  it('an import merges changes to different pages, and an export with force overwrites the branch', async () => {
    const admin = await h.current.newAdmin();
    const { url, spaceId, pages } = await syncedSpace(admin, 'disjoint');
    await editInSpace(admin, spaceId, pages.Alpha, 'Alpha from the space.');
    git.commit('disjoint', { 'beta.md': '# Beta\n\nBeta from Git.\n' }, 'Edit beta in Git');

    await requestImport(admin, spaceId, url, { timestamp: '2026-02-01T12:00:00.000Z' });
    expect(await drain()).toBe(1);
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'success', result: 'applied' });
    expect(await markdown(admin, spaceId, pages.Alpha)).toContain('Alpha from the space.');
    expect(await markdown(admin, spaceId, pages.Beta)).toContain('Beta from Git.');

    // The export then writes both to the branch (the import made the branch's head the sync's base).
    await requestExport(admin, spaceId, url, { timestamp: '2026-02-01T12:05:00.000Z' });
    expect(await drain()).toBe(1);
    const head = git.head('disjoint');
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'success', result: 'applied', commit: head });
    expect(git.show('disjoint', head, 'alpha.md')).toContain('Alpha from the space.');
    expect(git.show('disjoint', head, 'beta.md')).toContain('Beta from Git.');

    // The branch moves on in Git; a forced export overwrites it.
    git.commit('disjoint', { 'beta.md': '# Beta\n\nBeta rewritten in Git.\n' }, 'Rewrite beta');
    await requestExport(admin, spaceId, url, { timestamp: '2026-02-01T12:10:00.000Z', force: true });
    expect(await drain()).toBe(1);
    const forced = git.head('disjoint');
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'success', result: 'applied', commit: forced });
    expect(git.show('disjoint', forced, 'beta.md')).toContain('Beta from Git.');
  });

  it('an export with nothing new writes no commit; an import of the same commit changes nothing', async () => {
    const admin = await h.current.newAdmin();
    const { url, spaceId } = await syncedSpace(admin, 'unchanged');
    const head = git.head('unchanged');
    const revision = await revisionOf(admin, spaceId);
    await requestImport(admin, spaceId, url, { timestamp: '2026-02-01T13:00:00.000Z' });
    expect(await drain()).toBe(1);
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'success', result: 'unchanged', commit: head });
    expect(await revisionOf(admin, spaceId)).toBe(revision);
  });
});

describe('git sync: order, limits and credentials', () => {
  it('an operation with a timestamp older than the last one applied is skipped', async () => {
    const admin = await h.current.newAdmin();
    const { url, spaceId, pages } = await syncedSpace(admin, 'ordered');
    git.commit('ordered', { 'alpha.md': '# Alpha\n\nA late change.\n' }, 'Late change');
    const revision = await revisionOf(admin, spaceId);
    await requestImport(admin, spaceId, url, { timestamp: '2026-02-01T09:00:00.000Z' });
    expect(await drain()).toBe(1);
    const state = await info(admin, spaceId);
    expect(state.operation).toMatchObject({ state: 'success', result: 'skipped', direction: 'import' });
    expect(state.timestamp).toBe('2026-02-01T10:00:00.000Z');
    expect(await revisionOf(admin, spaceId)).toBe(revision);
    expect(await markdown(admin, spaceId, pages.Alpha)).toContain('Alpha text.');
  });

  it('a repository over the limits (files, bytes) is refused with the reason, and the space is left as it was', async () => {
    const admin = await h.current.newAdmin();
    const url = git.createRepository('large');
    git.commit('large', { 'README.md': '# Welcome\n', 'a.md': '# A\n', 'b.md': '# B\n', 'c.md': '# C\n', 'big.md': `# Big\n\n${randomBytes(40_000).toString('base64')}\n` }, 'Many files');
    const spaceId = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Large' })).body.id as string;
    const revision = await revisionOf(admin, spaceId);

    await requestImport(admin, spaceId, url);
    expect(await drain({ ...defaultRepositoryLimits, maxFiles: 3 })).toBe(1);
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'failure', error: expect.stringContaining('too large: 5 files') });

    await requestImport(admin, spaceId, url, { timestamp: new Date(Date.now() + 1000).toISOString() });
    expect(await drain({ ...defaultRepositoryLimits, maxTotalBytes: 10_000 })).toBe(1);
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'failure', error: expect.stringContaining('more than 10000 bytes') });

    await requestImport(admin, spaceId, url, { timestamp: new Date(Date.now() + 2000).toISOString() });
    expect(await drain({ ...defaultRepositoryLimits, maxPackBytes: 2_000 })).toBe(1);
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'failure', error: expect.stringContaining('too large') });
    expect(await revisionOf(admin, spaceId)).toBe(revision);
  });

  it('an asset over the file store\'s upload cap but under GIT_SYNC_MAX_ASSET_BYTES is imported whole; one over it is refused naming it', async () => {
    const admin = await h.current.newAdmin();
    const url = git.createRepository('large-gif', { store: true });
    // A 6 MiB GIF screenshot: over FILES_MAX_BYTES' 4 MiB default, under the Git Sync asset cap's 100 MiB.
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([0x80, 0x02, 0xe0, 0x01]), randomBytes(6 * 1024 * 1024 - 10)]);
    git.commit('large-gif', { 'README.md': '# Welcome\n\n![Demo](.gitbook/assets/demo.gif)\n', '.gitbook/assets/demo.gif': gif }, 'A large GIF');
    const spaceId = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Large GIF' })).body.id as string;
    const revision = await revisionOf(admin, spaceId);

    await requestImport(admin, spaceId, url);
    expect(await drain({ ...defaultRepositoryLimits, maxAssetBytes: 6 * 1024 * 1024 - 1 })).toBe(1);
    expect((await info(admin, spaceId)).operation).toMatchObject({
      state: 'failure',
      error: expect.stringContaining('.gitbook/assets/demo.gif: is larger than 6291455 bytes, the most an asset may have (GIT_SYNC_MAX_ASSET_BYTES)'),
    });
    expect(await revisionOf(admin, spaceId)).toBe(revision);

    await requestImport(admin, spaceId, url, { timestamp: new Date(Date.now() + 1000).toISOString() });
    expect(await drain()).toBe(1);
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'success', result: 'applied' });
    const files = await admin.api.get(`/spaces/${spaceId}/content/files`);
    expect(files.status).toBe(200);
    expect(files.body.items.map((f: { name: string; size: number; dimensions?: object }) => [f.name, f.size, f.dimensions])).toEqual([['demo.gif', gif.length, { width: 640, height: 480 }]]);
    // The bytes stored are the repository's (the database store answers the download itself).
    const download = await request(h.current.app).get(files.body.items[0].downloadURL.slice(PUBLIC_URL.length)).buffer(true).parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
    expect(download.status).toBe(200);
    expect((download.body as Buffer).equals(gif)).toBe(true);
    // Its Git id, seen in the repository's tree, is recorded on its blob: an export names it without hashing it again.
    const [blob] = await h.current.db.select({ gitOid: blobs.gitOid }).from(blobs).where(eq(blobs.sha256, createHash('sha256').update(gif).digest('hex')));
    expect(blob).toEqual({ gitOid: createHash('sha1').update(`blob ${gif.length}\0`).update(gif).digest('hex') });
  });

  it('the server takes the limits from its configuration (GIT_SYNC_*): a started job runner refuses a repository over them', async () => {
    const admin = await h.current.newAdmin();
    const url = git.createRepository('configured');
    git.commit('configured', { 'README.md': '# Welcome\n', 'a.md': '# A\n', 'b.md': '# B\n', 'c.md': '# C\n' }, 'Four files');
    const spaceId = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Configured' })).body.id as string;
    const config = loadConfig({ GIT_SYNC_MAX_FILES: '3', GIT_SYNC_MAX_PACK_BYTES: '5000000' });
    expect(config.gitSync).toEqual({ ...defaultRepositoryLimits, maxFiles: 3, maxPackBytes: 5_000_000 });
    await requestImport(admin, spaceId, url);
    const runner = await startJobs(h.current.db, pino({ level: 'silent' }), { gitSyncLimits: config.gitSync, pollIntervalMs: 50 });
    try {
      for (const deadline = Date.now() + 20_000; (await info(admin, spaceId)).operation?.state !== 'failure'; ) {
        if (Date.now() > deadline) throw new Error('the import did not fail within 20 s');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await runner.stop();
    }
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'failure', error: expect.stringContaining('too large: 4 files under its root, more than 3') });
  });

  it('credentials in the URL reach the Git server but are neither stored nor logged, also when they are refused', async () => {
    const admin = await h.current.newAdmin();
    const url = git.createRepository('secret');
    git.commit('secret', { 'README.md': '# Welcome\n\nHi.\n' }, 'Start');
    const spaceId = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Secret' })).body.id as string;
    logLines.length = 0;
    await requestImport(admin, spaceId, url);
    const [queued] = await h.current.db.select().from(jobs).where(sql`${jobs.kind} = ${GIT_SYNC} AND ${jobs.payload}->>'spaceId' = ${spaceId}`);
    expect(JSON.stringify(queued.payload)).not.toContain(credentials.password);
    expect((queued.payload as { credentials?: string }).credentials).toEqual(expect.any(String)); // sealed
    expect(await drain()).toBe(1);
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'success' });

    // A wrong password: the failure says so without either password.
    await requestImport(admin, spaceId, url, { timestamp: new Date(Date.now() + 1000).toISOString(), force: true });
    const wrong = 'wr0ng-pa55word';
    await h.current.db.delete(jobs).where(sql`${jobs.kind} = ${GIT_SYNC} AND ${jobs.status} = 'queued'`);
    expect((await admin.api.post(`/spaces/${spaceId}/git/import`, { url: authed(url, wrong), ref: 'refs/heads/main', force: true, timestamp: new Date(Date.now() + 2000).toISOString() })).status).toBe(204);
    expect(await drain()).toBe(1);
    const failed = (await info(admin, spaceId)).operation;
    expect(failed.state).toBe('failure');
    expect(failed.error).not.toContain(wrong);

    const [space] = await h.current.db.select().from(spaces).where(eq(spaces.id, spaceId));
    const revisions = await h.current.db.select().from(contentRevisions).where(eq(contentRevisions.spaceId, spaceId));
    const jobRows = await h.current.db.select().from(jobs).where(sql`${jobs.payload}->>'spaceId' = ${spaceId}`);
    const stored = JSON.stringify({ space, revisions, jobRows });
    for (const secret of [credentials.password, wrong]) {
      expect(stored).not.toContain(secret);
      expect(logLines.join('')).not.toContain(secret);
    }
    for (const job of jobRows) expect((job.payload as { credentials?: string }).credentials).toBeUndefined();
    expect(logLines.length).toBeGreaterThan(0);
  });
});

describe('git sync: permissions and requests', () => {
  it('triggerGitSync is true only once a sync is configured, and only for those who may edit; getSpaceGitInfo is 404 before', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const reader = await h.current.newMember(admin.organizationId, 'read');
    const spaceId = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Perms' })).body.id as string;
    await h.current.setSpaceVisibility(spaceId, 'public');
    await admin.api.patch(`/spaces/${spaceId}`, { defaultLevel: 'inherit' });
    const perms = async (account: Account) => {
      const res = await account.api.get(`/spaces/${spaceId}`);
      expect(res.status).toBe(200);
      return res.body;
    };
    expect((await perms(admin)).permissions.triggerGitSync).toBe(false);
    expect((await perms(admin)).gitSync).toBeUndefined();
    expect((await admin.api.get(`/spaces/${spaceId}/git/info`)).status).toBe(404);

    const url = git.createRepository('perms');
    expect((await reader.api.post(`/spaces/${spaceId}/git/import`, { url, ref: 'refs/heads/main' })).status).toBe(403);
    expect((await editor.api.post(`/spaces/${spaceId}/git/import`, { url, ref: 'refs/heads/main' })).status).toBe(204);
    expect((await perms(editor)).permissions.triggerGitSync).toBe(true);
    expect((await perms(editor)).gitSync).toMatchObject({ repoName: 'perms', installationProvider: 'github', provider: 'git', repository: { url, ref: 'refs/heads/main' } });
    expect((await perms(reader)).permissions.triggerGitSync).toBe(false);
    expect((await reader.api.get(`/spaces/${spaceId}/git/info`)).status).toBe(200);

    expect((await admin.api.patch(`/spaces/${spaceId}`, { editMode: 'locked' })).status).toBe(200);
    expect((await perms(admin)).permissions.triggerGitSync).toBe(false);
    const locked = await admin.api.post(`/spaces/${spaceId}/git/export`, { url, ref: 'refs/heads/main', commitMessage: 'x' });
    expect(locked.status).toBe(409);
    await h.current.db.delete(jobs).where(sql`${jobs.kind} = ${GIT_SYNC}`);
  });

  it('post /spaces/{spaceId}/git/import and /git/export refuse bad input naming the field', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Bad' })).body.id as string;
    const cases: [string, object, string][] = [
      ['import', { url: 'ftp://example.com/repo.git', ref: 'refs/heads/main' }, 'body.url'],
      ['import', { url: 'https://example.com/repo.git', ref: 'main' }, 'body.ref'],
      ['import', { url: 'https://example.com/repo.git', ref: 'refs/heads/main', repoProjectDirectory: '../up' }, 'body.repoProjectDirectory'],
      ['import', { url: 'https://example.com/repo.git', ref: 'refs/heads/main', timestamp: 'yesterday' }, 'body.timestamp'],
      ['export', { url: 'https://example.com/repo.git', ref: 'refs/heads/main' }, 'body.commitMessage'],
      ['export', { url: 'https://example.com/repo.git', ref: 'refs/tags/v1', commitMessage: 'x' }, 'body.ref'],
    ];
    for (const [direction, body, field] of cases) {
      const res = await admin.api.post(`/spaces/${spaceId}/git/${direction}`, body);
      expect(res.status, `${direction} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.error.message).toContain(field);
    }
    expect((await admin.api.get(`/spaces/${spaceId}`)).body.gitSync).toBeUndefined();
    const stranger = await h.current.newAdmin();
    expect((await stranger.api.post(`/spaces/${spaceId}/git/import`, { url: 'https://example.com/repo.git', ref: 'refs/heads/main' })).status).toBe(404);
  });

  it('a repository on a private address is refused without ALLOW_PRIVATE_FETCH, and the space is left as it was', async () => {
    const admin = await h.current.newAdmin();
    const url = git.createRepository('private');
    git.commit('private', { 'README.md': '# Welcome\n' }, 'Start');
    const spaceId = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Private' })).body.id as string;
    const revision = await revisionOf(admin, spaceId);
    await requestImport(admin, spaceId, url);
    process.env.ALLOW_PRIVATE_FETCH = 'false';
    try {
      expect(await drain()).toBe(1);
    } finally {
      process.env.ALLOW_PRIVATE_FETCH = 'true';
    }
    const operation = (await info(admin, spaceId)).operation;
    expect(operation).toMatchObject({ state: 'failure', error: expect.stringContaining('not a public address') });
    expect(operation.error).not.toContain(credentials.password);
    expect(await revisionOf(admin, spaceId)).toBe(revision);
  });
});
