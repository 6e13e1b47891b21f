// Git Sync conflicts judged on everything the repository format carries (front matter fields such as
// `slug` and `icon`, not only title and Markdown): the same field of one page changed on both sides is a
// conflict naming the page, changes to different pages merge (and the space's side reaches the
// repository on the next export); an export whose space changes, during the push, what the repository
// changed writes nothing to the space and names the pages (the test's Git server runs a hook before each
// request), and an import whose space changes so while the repository is fetched names them too; a
// dangling include is a warning of the operation, another space's include round-trips.
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import type { RevisionGit } from '../server/content/revisions.store.js';
import { jobs } from '../server/db/schema/index.js';
import { idsChangedInRepository, recordConflictsOf, recordsChangedInSpace } from '../server/git-sync/changes.js';
import type { Account } from './support/harness.js';
import { useHarness } from './support/harness.js';
import { gitCredentials, gitSyncWorld, useGitHttpServer } from './support/git-sync-world.js';
import type { GitHttpServer } from './support/git-http-server.js';

const h = useHarness();
vi.setConfig({ testTimeout: 180_000 });
let git: GitHttpServer;
const world = gitSyncWorld(h, () => git);
const { drain, requestImport, requestExport, info, markdown, editInSpace, revisionOf, syncedSpace } = world;

useGitHttpServer(gitCredentials, (server) => (git = server));

/** Changes page fields in the space through a change request, merged. */
async function setFields(account: Account, spaceId: string, pageId: string, fields: object) {
  const cr = await account.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'Fields' });
  expect(cr.status).toBe(201);
  const edit = await account.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/content`, { changes: [{ operation: 'update_page', page: pageId, ...fields }] });
  expect(edit.status).toBe(200);
  expect((await account.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
}

async function page(account: Account, spaceId: string, pageId: string) {
  const res = await account.api.get(`/spaces/${spaceId}/content/page/${pageId}`);
  expect(res.status).toBe(200);
  return res.body;
}

describe('git sync: conflicts on the fields front matter carries', () => {
  it('the slug of one page changed on both sides is a conflict naming it, on import and on export', async () => {
    const admin = await h.current.newAdmin();
    const { url, spaceId, pages } = await syncedSpace(admin, 'slug-both');
    await setFields(admin, spaceId, pages.Alpha, { slug: 'alpha-space' });
    const moved = git.commit('slug-both', { 'alpha.md': '---\nslug: alpha-git\n---\n\n# Alpha\n\nAlpha text.\n' }, 'Slug in Git');
    const before = await revisionOf(admin, spaceId);
    const expected = [{ page: pages.Alpha, title: 'Alpha', path: 'alpha-space', gitPath: 'alpha.md' }];

    await requestImport(admin, spaceId, url, { timestamp: '2026-02-01T11:00:00.000Z' });
    expect(await drain()).toBe(1);
    const imported = (await info(admin, spaceId)).operation;
    expect(imported).toMatchObject({ state: 'failure', direction: 'import', error: expect.stringContaining('alpha-space') });
    expect(imported.conflicts).toEqual(expected);
    expect(await revisionOf(admin, spaceId)).toBe(before);
    expect((await page(admin, spaceId, pages.Alpha)).slug).toBe('alpha-space');

    await requestExport(admin, spaceId, url, { timestamp: '2026-02-01T11:05:00.000Z' });
    expect(await drain()).toBe(1);
    const exported = (await info(admin, spaceId)).operation;
    expect(exported).toMatchObject({ state: 'failure', direction: 'export' });
    expect(exported.conflicts).toEqual(expected);
    expect(git.head('slug-both')).toBe(moved);
    expect(await revisionOf(admin, spaceId)).toBe(before);
  });

  it('an icon changed in the space and the text of the same page changed in Git is a conflict too', async () => {
    const admin = await h.current.newAdmin();
    const { url, spaceId, pages } = await syncedSpace(admin, 'icon-text');
    await setFields(admin, spaceId, pages.Beta, { icon: 'rocket' });
    git.commit('icon-text', { 'beta.md': '# Beta\n\nBeta from Git.\n' }, 'Text in Git');
    await requestImport(admin, spaceId, url, { timestamp: '2026-02-01T11:00:00.000Z' });
    expect(await drain()).toBe(1);
    const refused = (await info(admin, spaceId)).operation;
    expect(refused).toMatchObject({ state: 'failure' });
    expect(refused.conflicts.map((c: { page: string }) => c.page)).toEqual([pages.Beta]);
    expect((await page(admin, spaceId, pages.Beta)).icon).toBe('rocket');
  });

  it('changes to fields of different pages merge, and the space\'s side reaches the repository on the next export', async () => {
    const admin = await h.current.newAdmin();
    const { url, spaceId, pages } = await syncedSpace(admin, 'fields-disjoint');
    await setFields(admin, spaceId, pages.Alpha, { icon: 'rocket', noIndex: true });
    const betaInGit = '---\nicon: flag\nhidden: true\n---\n\n# Beta\n\nBeta text.\n';
    git.commit('fields-disjoint', { 'beta.md': betaInGit }, 'Beta fields in Git');

    await requestImport(admin, spaceId, url, { timestamp: '2026-02-01T11:00:00.000Z' });
    expect(await drain()).toBe(1);
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'success', result: 'applied', direction: 'import' });
    expect(await page(admin, spaceId, pages.Alpha)).toMatchObject({ icon: 'rocket', noIndex: true, slug: 'alpha' });
    expect(await page(admin, spaceId, pages.Beta)).toMatchObject({ icon: 'flag', hidden: true, slug: 'beta' });

    // Alpha's file still says the old fields: the export writes the space's, keeps Beta's file as Git wrote it.
    await requestExport(admin, spaceId, url, { timestamp: '2026-02-01T11:05:00.000Z' });
    expect(await drain()).toBe(1);
    const head = git.head('fields-disjoint');
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'success', result: 'applied', direction: 'export', commit: head });
    const alpha = git.show('fields-disjoint', head, 'alpha.md');
    expect(alpha).toContain('icon: rocket');
    expect(alpha).toContain('noIndex: true');
    expect(git.show('fields-disjoint', head, 'beta.md')).toBe(betaInGit);

    // In step: a later change to Alpha's text in Git imports without a conflict and keeps the icon.
    git.commit('fields-disjoint', { 'alpha.md': alpha.replace('Alpha text.', 'Alpha from Git.') }, 'Alpha text in Git');
    await requestImport(admin, spaceId, url, { timestamp: '2026-02-01T11:10:00.000Z' });
    expect(await drain()).toBe(1);
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'success', result: 'applied' });
    expect(await page(admin, spaceId, pages.Alpha)).toMatchObject({ icon: 'rocket', noIndex: true });
    expect(await markdown(admin, spaceId, pages.Alpha)).toContain('Alpha from Git.');
  });
});

describe('git sync: the order SUMMARY.md gives', () => {
  it('a reorder in Git merges with an edit in the space; the same page reordered in Git and edited in the space is a conflict', async () => {
    const admin = await h.current.newAdmin();
    const { url, spaceId, pages } = await syncedSpace(admin, 'reorder');
    const titles = async () => {
      const res = await admin.api.get(`/spaces/${spaceId}/content/pages`);
      expect(res.status).toBe(200);
      return res.body.pages.map((p: { title: string }) => p.title);
    };
    await editInSpace(admin, spaceId, pages.Welcome, 'Welcome from the space.');
    git.commit('reorder', { 'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Beta](beta.md)\n* [Alpha](alpha.md)\n' }, 'Beta first');
    await requestImport(admin, spaceId, url, { timestamp: '2026-02-01T11:00:00.000Z' });
    expect(await drain()).toBe(1);
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'success', result: 'applied' });
    expect(await titles()).toEqual(['Welcome', 'Beta', 'Alpha']);
    expect(await markdown(admin, spaceId, pages.Welcome)).toContain('Welcome from the space.');

    // Git moves Alpha back first while the space edits Alpha: its place and its text meet.
    await editInSpace(admin, spaceId, pages.Alpha, 'Alpha from the space.');
    git.commit('reorder', { 'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Alpha](alpha.md)\n* [Beta](beta.md)\n' }, 'Alpha first');
    await requestImport(admin, spaceId, url, { timestamp: '2026-02-01T11:05:00.000Z' });
    expect(await drain()).toBe(1);
    const refused = (await info(admin, spaceId)).operation;
    expect(refused).toMatchObject({ state: 'failure' });
    expect(refused.conflicts.map((c: { page: string }) => c.page)).toEqual([pages.Alpha]);
    expect(await titles()).toEqual(['Welcome', 'Beta', 'Alpha']);
  });
});

describe('git sync: conflicts on reusable contents', () => {
  /** A space synced with a repository whose Alpha includes `.gitbook/includes/help.md`. */
  async function withInclude(admin: Account, name: string) {
    const synced = await syncedSpace(admin, name);
    git.commit(name, { 'alpha.md': '# Alpha\n\nAlpha text.\n\n{% include ".gitbook/includes/help.md" %}\n', '.gitbook/includes/help.md': '---\ntitle: Help\n---\n\nAsk us.\n' }, 'Help');
    await requestImport(admin, synced.spaceId, synced.url, { timestamp: '2026-02-01T10:30:00.000Z' });
    expect(await drain()).toBe(1);
    expect((await info(admin, synced.spaceId)).operation).toMatchObject({ state: 'success', result: 'applied' });
    const revision = await admin.api.get(`/spaces/${synced.spaceId}/content`);
    expect(revision.status).toBe(200);
    expect(revision.body.reusableContents.map((r: { title: string }) => r.title)).toEqual(['Help']);
    return { ...synced, help: revision.body.reusableContents[0].id as string };
  }

  async function editHelp(admin: Account, spaceId: string, reusableContent: string, text: string) {
    const cr = await admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'Help' });
    expect(cr.status).toBe(201);
    const edit = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/content`, { changes: [{ operation: 'update_reusable_content', reusableContent, document: { markdown: text } }] });
    expect(edit.status).toBe(200);
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
  }

  it('one changed on both sides is a conflict naming it; changed in the space only, it merges with Git\'s changes and reaches the repository', async () => {
    const admin = await h.current.newAdmin();
    const both = await withInclude(admin, 'help-both');
    await editHelp(admin, both.spaceId, both.help, 'Ask the space.');
    git.commit('help-both', { '.gitbook/includes/help.md': '---\ntitle: Help\n---\n\nAsk Git.\n' }, 'Help in Git');
    const before = await revisionOf(admin, both.spaceId);
    await requestImport(admin, both.spaceId, both.url, { timestamp: '2026-02-01T11:00:00.000Z' });
    expect(await drain()).toBe(1);
    const refused = (await info(admin, both.spaceId)).operation;
    expect(refused).toMatchObject({ state: 'failure', error: expect.stringContaining('reusable content "Help" (.gitbook/includes/help.md)') });
    expect(await revisionOf(admin, both.spaceId)).toBe(before);

    const one = await withInclude(admin, 'help-one');
    await editHelp(admin, one.spaceId, one.help, 'Ask the space.');
    git.commit('help-one', { 'beta.md': '# Beta\n\nBeta from Git.\n' }, 'Beta in Git');
    await requestImport(admin, one.spaceId, one.url, { timestamp: '2026-02-01T11:00:00.000Z' });
    expect(await drain()).toBe(1);
    expect((await info(admin, one.spaceId)).operation).toMatchObject({ state: 'success', result: 'applied' });
    expect(await markdown(admin, one.spaceId, one.pages.Beta)).toContain('Beta from Git.');
    await requestExport(admin, one.spaceId, one.url, { timestamp: '2026-02-01T11:05:00.000Z' });
    expect(await drain()).toBe(1);
    const head = git.head('help-one');
    expect((await info(admin, one.spaceId)).operation).toMatchObject({ state: 'success', result: 'applied', commit: head });
    expect(git.show('help-one', head, '.gitbook/includes/help.md')).toContain('Ask the space.');
  });
});

describe('git sync: an export whose space changes during the push', () => {
  it('on what the repository changed: the commit is pushed, nothing is written to the space, the pages are named; an import then judges them', async () => {
    const admin = await h.current.newAdmin();
    const { url, spaceId, pages } = await syncedSpace(admin, 'push-race');
    await editInSpace(admin, spaceId, pages.Alpha, 'Alpha from the space.');
    const moved = git.commit('push-race', { 'beta.md': '# Beta\n\nBeta from Git.\n' }, 'Beta in Git');

    await requestExport(admin, spaceId, url, { timestamp: '2026-02-01T11:00:00.000Z' });
    let edited = false;
    git.beforeRequest = async (path) => {
      if (edited || !path.includes('git-receive-pack') || path.includes('info/refs')) return;
      edited = true;
      await editInSpace(admin, spaceId, pages.Beta, 'Beta from the space during the push.');
    };
    try {
      expect(await drain()).toBe(1);
    } finally {
      git.beforeRequest = undefined;
    }
    expect(edited).toBe(true);
    const head = git.head('push-race');
    expect(git.commitInfo('push-race', head)).toMatchObject({ parents: [moved] });
    expect(git.show('push-race', head, 'alpha.md')).toContain('Alpha from the space.');
    expect(git.show('push-race', head, 'beta.md')).toContain('Beta from Git.');
    const state = await info(admin, spaceId);
    expect(state.operation).toMatchObject({ state: 'failure', direction: 'export', commit: head, error: expect.stringContaining(`The commit ${head} was pushed`) });
    expect(state.operation.conflicts.map((c: { page: string }) => c.page)).toEqual([pages.Beta]);
    expect(state.commit).not.toBe(head);
    const [job] = await h.current.db.select().from(jobs).where(eq(jobs.id, state.operation.id));
    expect(job.status).toBe('failed');
    // The space kept its edit made during the push, and nothing of the commit.
    expect(await markdown(admin, spaceId, pages.Beta)).toContain('Beta from the space during the push.');
    const spaceRevision = await revisionOf(admin, spaceId);

    // An import of the pushed commit names Beta only (Alpha is the same on both sides), then force takes Git's.
    await requestImport(admin, spaceId, url, { timestamp: '2026-02-01T11:05:00.000Z' });
    expect(await drain()).toBe(1);
    const refused = (await info(admin, spaceId)).operation;
    expect(refused).toMatchObject({ state: 'failure', direction: 'import' });
    expect(refused.conflicts.map((c: { page: string }) => c.page)).toEqual([pages.Beta]);
    expect(await revisionOf(admin, spaceId)).toBe(spaceRevision);
    await requestImport(admin, spaceId, url, { timestamp: '2026-02-01T11:10:00.000Z', force: true });
    expect(await drain()).toBe(1);
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'success', result: 'applied', commit: head });
    expect(await markdown(admin, spaceId, pages.Beta)).toContain('Beta from Git.');
    expect(await markdown(admin, spaceId, pages.Alpha)).toContain('Alpha from the space.');
  });
});

describe('git sync: an import whose space changes while the repository is fetched', () => {
  it('on what the repository changed: a conflict naming the page, the space keeps its edit', async () => {
    const admin = await h.current.newAdmin();
    const { url, spaceId, pages } = await syncedSpace(admin, 'fetch-race');
    git.commit('fetch-race', { 'alpha.md': '# Alpha\n\nAlpha from Git.\n' }, 'Alpha in Git');
    await requestImport(admin, spaceId, url, { timestamp: '2026-02-01T11:00:00.000Z' });
    let edited = false;
    git.beforeRequest = async (path) => {
      if (edited || !path.includes('git-upload-pack') || path.includes('info/refs')) return;
      edited = true;
      await editInSpace(admin, spaceId, pages.Alpha, 'Alpha from the space during the fetch.');
    };
    try {
      expect(await drain()).toBe(1);
    } finally {
      git.beforeRequest = undefined;
    }
    expect(edited).toBe(true);
    const refused = (await info(admin, spaceId)).operation;
    expect(refused).toMatchObject({ state: 'failure', direction: 'import' });
    expect(refused.conflicts.map((c: { page: string }) => c.page)).toEqual([pages.Alpha]);
    expect(await markdown(admin, spaceId, pages.Alpha)).toContain('Alpha from the space during the fetch.');
  });
});

describe('git sync: includes in the outcome', () => {
  it("an include naming no file is a warning of the import and of the export; another space's include comes back as the same block", async () => {
    const admin = await h.current.newAdmin();
    const { url, spaceId, pages } = await syncedSpace(admin, 'includes');
    const other = '{% include "gitbook:spaces/spc_other0000001/reusable-contents/rsc_theirs000001" %}';
    git.commit('includes', { 'alpha.md': `# Alpha\n\nAlpha text.\n\n{% include ".gitbook/includes/missing.md" %}\n\n${other}\n` }, 'Includes');
    await requestImport(admin, spaceId, url, { timestamp: '2026-02-01T11:00:00.000Z' });
    expect(await drain()).toBe(1);
    const warning = 'alpha.md: {% include ".gitbook/includes/missing.md" %} names no reusable content of the space (no file under .gitbook/includes/): kept as a reference to ".gitbook/includes/missing.md"';
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'success', result: 'applied', warnings: [warning] });
    const doc = await admin.api.get(`/spaces/${spaceId}/content/page/${pages.Alpha}`, { format: 'document' });
    expect(doc.status).toBe(200);
    const refs = doc.body.document.nodes.filter((n: { type: string }) => n.type === 'reusable-content').map((n: { data: { ref: object } }) => n.data.ref);
    expect(refs).toEqual([
      { kind: 'reusable-content', reusableContent: '.gitbook/includes/missing.md' },
      { kind: 'reusable-content', reusableContent: 'rsc_theirs000001', space: 'spc_other0000001' },
    ]);

    // An export of Alpha edited in the space writes its includes as they were and reports the dangling one.
    await editInSpace(admin, spaceId, pages.Alpha, `Alpha from the space.\n\n{% include ".gitbook/includes/missing.md" %}\n\n${other}`);
    await requestExport(admin, spaceId, url, { timestamp: '2026-02-01T11:05:00.000Z' });
    expect(await drain()).toBe(1);
    const head = git.head('includes');
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'success', result: 'applied', commit: head, warnings: [warning] });
    const alpha = git.show('includes', head, 'alpha.md');
    expect(alpha).toContain(other);
    expect(alpha).toContain('{% include ".gitbook/includes/missing.md" %}');
  });
});

describe('git sync: files changed on both sides (changes.ts)', () => {
  const file = (id: string, name: string, size: number) => ({ id, name, contentType: 'image/png', size });
  const content = (files: ReturnType<typeof file>[]) => ({ pages: [], files, variables: {}, reusableContents: [] });
  const git = { blobs: { fil_a00000000001: { oid: 'o1', path: '.gitbook/assets/a.png' }, fil_b00000000001: { oid: 'o2', path: '.gitbook/assets/b.png' } } } as unknown as RevisionGit;

  it('a file renamed in the space whose bytes Git replaced is named; one changed on one side only, or the same way on both, is not', () => {
    const base = content([file('fil_a00000000001', 'a.png', 1), file('fil_b00000000001', 'b.png', 1)]);
    const current = content([file('fil_a00000000001', 'a-renamed.png', 1), file('fil_b00000000001', 'b.png', 1)]);
    const inSpace = recordsChangedInSpace(base, current);
    expect([...inSpace]).toEqual(['fil_a00000000001']);
    const tree = new Map([
      ['.gitbook/assets/a.png', { oid: 'o1-new', mode: '100644' }],
      ['.gitbook/assets/b.png', { oid: 'o2-new', mode: '100644' }],
    ]);
    const inRepository = idsChangedInRepository(git, tree)!;
    expect([...inRepository].sort()).toEqual(['fil_a00000000001', 'fil_b00000000001']);
    const theirs = content([file('fil_a00000000001', 'a.png', 2), file('fil_b00000000001', 'b.png', 2)]);
    expect(recordConflictsOf(current, theirs, inSpace, inRepository, git)).toEqual(['file "a-renamed.png" (.gitbook/assets/a.png)']);
    // Git wrote exactly what the space holds: no conflict.
    expect(recordConflictsOf(current, content([file('fil_a00000000001', 'a-renamed.png', 1)]), inSpace, inRepository, git)).toEqual([]);
  });
});
