// Git Sync end to end against a Git repository served over smart HTTP by the test itself (git http-backend,
// test/support/git-http-server.ts), on loopback (ALLOW_PRIVATE_FETCH=true), behind basic auth: import the
// fixture repository in GitBook's format, edit through a change request and merge, export, read the new
// commit from the repository, import it back into an empty space and compare.
import { join } from 'node:path';
import { readdirSync, statSync } from 'node:fs';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { createJobRunner } from '../server/jobs/runner.js';
import { gitSyncHandler, GIT_SYNC } from '../server/git-sync/sync.job.js';
import { useHarness, type Account } from './support/harness.js';
import { readFixture, type GitHttpServer } from './support/git-http-server.js';
import { useGitHttpServer } from './support/git-sync-world.js';
import { open, publish } from './published-support.js';
import { newSite, sitePath } from './sites-support.js';

const h = useHarness();
// Each test talks to a Git server through real processes (git http-backend): slower than the default allows on a busy machine.
vi.setConfig({ testTimeout: 180_000 });
const credentials = { username: 'dana', password: 's3cret-token-for-git' };
let git: GitHttpServer;

const FIXTURE = join(import.meta.dirname, 'fixtures', 'git-repository');

function fixturePaths(dir = FIXTURE, prefix = ''): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? fixturePaths(path, `${prefix}${name}/`) : [`${prefix}${name}`];
  });
}

useGitHttpServer(credentials, (server) => (git = server));

/** Runs the queued Git Sync jobs. */
async function drain() {
  return createJobRunner({ db: h.current.db, logger: pino({ level: process.env.GIT_SYNC_TEST_LOG ?? 'silent' }), handlers: { [GIT_SYNC]: gitSyncHandler() } }).drain();
}

function withCredentials(url: string): string {
  const u = new URL(url);
  u.username = credentials.username;
  u.password = credentials.password;
  return u.toString();
}

async function newSpace(account: Account, title = 'Docs'): Promise<string> {
  const res = await account.api.post(`/orgs/${account.organizationId}/spaces`, { title });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function gitInfo(account: Account, spaceId: string) {
  const res = await account.api.get(`/spaces/${spaceId}/git/info`);
  expect(res.status).toBe(200);
  return res.body;
}

type Page = { id: string; title: string; path: string; type: string; git?: { oid: string; path: string }; pages?: Page[] };

function flatten(pages: Page[]): Page[] {
  return pages.flatMap((p) => [p, ...flatten(p.pages ?? [])]);
}

function blockTypes(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => blockTypes(n, into));
  else if (node && typeof node === 'object') {
    const { object, type, nodes, fragments } = node as { object?: string; type?: string; nodes?: unknown; fragments?: unknown };
    if ((object === 'block' || object === 'inline') && type) into.add(type);
    blockTypes(nodes, into);
    blockTypes(fragments, into);
  }
  return into;
}

/** Every page's title, path, description and Markdown, by path: what a reader sees of the content. */
async function contentByPath(account: Account, spaceId: string) {
  const res = await account.api.get(`/spaces/${spaceId}/content`);
  expect(res.status).toBe(200);
  const out: Record<string, { title: string; description?: string; markdown: string }> = {};
  for (const page of flatten(res.body.pages)) {
    if (page.type !== 'document') continue;
    const read = await account.api.get(`/spaces/${spaceId}/content/page/${page.id}`, { format: 'markdown' });
    expect(read.status).toBe(200);
    // Links to other pages and files name them by id; ids differ between spaces, so they are left out.
    out[page.path] = { title: read.body.title, description: read.body.description, markdown: read.body.markdown.replace(/(pag|fil|rsc)_[0-9A-Z]+/g, '<id>') };
  }
  const reusables: Record<string, string> = {};
  for (const reusable of res.body.reusableContents as { id: string; title: string }[]) {
    const doc = await account.api.get(`/spaces/${spaceId}/revisions/${res.body.id}/reusable-contents/${reusable.id}/document`);
    expect(doc.status).toBe(200);
    reusables[reusable.title] = JSON.stringify(doc.body.nodes).replace(/"key":"[^"]*"/g, '').replace(/(pag|fil|rsc)_[0-9A-Z]+/g, '<id>');
  }
  return { tree: flatten(res.body.pages).map((p) => p.path), files: res.body.files.map((f: { name: string; size: number }) => [f.name, f.size]).sort(), pages: out, reusables };
}

describe('git sync', () => {
  it('imports a repository, exports an edit merged through a change request, and imports the commit back into an empty space', async () => {
    const admin = await h.current.newAdmin();
    const url = git.createRepository('lighthouse');
    const imported = git.commit('lighthouse', readFixture(FIXTURE, fixturePaths()), 'Add the Lighthouse docs');
    const spaceId = await newSpace(admin);

    const request = await admin.api.post(`/spaces/${spaceId}/git/import`, {
      url: withCredentials(url),
      ref: 'refs/heads/main',
      repoTreeURL: 'https://git.example.com/lighthouse/tree/main/',
      repoCommitURL: 'https://git.example.com/lighthouse/commit/',
      timestamp: '2026-01-01T10:00:00.000Z',
    });
    expect(request.status).toBe(204);
    const queued = await gitInfo(admin, spaceId);
    expect(queued).toMatchObject({ installationProvider: 'github', provider: 'git', installationStatus: 'active', repoName: 'lighthouse', operation: { state: 'running', direction: 'import' } });
    expect(queued.repository.url).toBe(url);
    expect(await drain()).toBe(1);

    const done = await gitInfo(admin, spaceId);
    expect(done.operation.error).toBeUndefined();
    expect(done.operation).toMatchObject({ state: 'success', result: 'applied', commit: imported, direction: 'import' });
    expect(done).toMatchObject({ commit: imported, url: 'https://git.example.com/lighthouse/tree/main/' });
    expect(done.revision).toBe(done.operation.revision);

    const content = await admin.api.get(`/spaces/${spaceId}/content`);
    expect(content.status).toBe(200);
    expect(content.body.revision ?? content.body.id).toBe(done.revision);
    expect(content.body.type).toBe('update');
    expect(content.body.git).toEqual({
      oid: imported,
      message: 'Add the Lighthouse docs\n',
      createdByGitBook: false,
      ref: 'refs/heads/main',
      url: `https://git.example.com/lighthouse/commit/${imported}`,
    });
    const pages = flatten(content.body.pages);
    // Nested pages: Installing > On Linux, On macOS.
    const installing = pages.find((p) => p.title === 'Installing Lighthouse')!;
    expect(installing.pages?.map((p) => p.title)).toEqual(['On Linux', 'On macOS']);
    expect(installing.git).toEqual({ oid: expect.stringMatching(/^[0-9a-f]{40}$/), path: 'docs/guides/installing/README.md' });
    for (const page of pages.filter((p) => p.type === 'document')) expect(page.git?.path).toMatch(/^docs\//);
    expect(content.body.files.length).toBeGreaterThanOrEqual(3);
    for (const file of content.body.files) expect(file.git.path).toMatch(/^docs\/\.gitbook\/assets\//);

    // The blocks of the pages: hints, tabs, images of the assets…; front matter gives the description.
    const types = new Set<string>();
    for (const page of pages.filter((p) => p.type === 'document')) {
      const read = await admin.api.get(`/spaces/${spaceId}/content/page/${page.id}`);
      expect(read.status).toBe(200);
      blockTypes(read.body.document, types);
    }
    for (const type of ['hint', 'tabs', 'tabs-item', 'images', 'image', 'code', 'columns', 'embed', 'reusable-content']) expect(types).toContain(type);
    // `.gitbook/includes/` are the space's reusable contents, which pages include.
    expect(content.body.reusableContents).toEqual([{ id: expect.stringMatching(/^rsc_/), title: 'Getting help', document: expect.any(String) }]);
    const help = content.body.reusableContents[0];
    const helpDocument = await admin.api.get(`/spaces/${spaceId}/revisions/${content.body.id}/reusable-contents/${help.id}/document`);
    expect(helpDocument.status).toBe(200);
    expect(JSON.stringify(helpDocument.body)).toContain('Stuck? Ask in the ');
    const tour = await admin.api.get(`/spaces/${spaceId}/content/page/${pages.find((p) => p.title === 'A tour of the blocks')!.id}`);
    expect(tour.body.description).toBe("One of each block Lighthouse's docs use.");

    // metadata=false omits the Git metadata.
    const bare = await admin.api.get(`/spaces/${spaceId}/content`, { metadata: 'false' });
    expect(bare.status).toBe(200);
    expect(bare.body.git).toBeUndefined();
    expect(JSON.stringify(bare.body)).not.toContain('"git"');
    const barePage = await admin.api.get(`/spaces/${spaceId}/content/page/${installing.id}`, { metadata: 'false' });
    expect(barePage.body.git).toBeUndefined();

    // An edit through a change request, merged.
    const quickstart = pages.find((p) => p.title === 'Quickstart')!;
    const cr = await admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'Clarify the quickstart' });
    expect(cr.status).toBe(201);
    const edit = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
      changes: [{ operation: 'update_page', page: quickstart.id, document: { markdown: 'Run `lighthouse init`, then `lighthouse serve`. That is all.' } }],
    });
    expect(edit.status).toBe(200);
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
    const merged = await admin.api.get(`/spaces/${spaceId}/content`);
    expect(merged.body.git).toBeUndefined(); // a revision no sync wrote has no Git metadata

    const exportRequest = await admin.api.post(`/spaces/${spaceId}/git/export`, {
      url: withCredentials(url),
      ref: 'refs/heads/main',
      commitMessage: 'Clarify the quickstart',
      repoCommitURL: 'https://git.example.com/lighthouse/commit/',
      timestamp: '2026-01-01T11:00:00.000Z',
    });
    expect(exportRequest.status).toBe(204);
    expect(await drain()).toBe(1);
    const exported = await gitInfo(admin, spaceId);
    expect(exported.operation).toMatchObject({ state: 'success', result: 'applied', direction: 'export' });
    const head = git.head('lighthouse');
    expect(exported.operation.commit).toBe(head);
    expect(exported.commit).toBe(head);

    const commit = git.commitInfo('lighthouse', head);
    expect(commit.message).toBe('Clarify the quickstart');
    expect(commit.parents).toEqual([imported]);
    const adminUser = (await admin.api.get('/user')).body;
    expect({ author: commit.author, email: commit.email }).toEqual({ author: adminUser.displayName, email: adminUser.email });
    const quickstartPath = quickstart.git!.path;
    expect(git.show('lighthouse', head, quickstartPath)).toContain('Run `lighthouse init`, then `lighthouse serve`. That is all.');
    // The export writes where the repository's `.gitbook.yaml` says the docs are: the same files, one changed.
    expect(git.files('lighthouse', head).sort()).toEqual(git.files('lighthouse', imported).sort());
    expect(git.show('lighthouse', head, '.gitbook.yaml')).toBe(git.show('lighthouse', imported, '.gitbook.yaml'));
    // Pages the edit did not touch keep the repository's own bytes (written by hand, not in this server's style).
    for (const path of ['docs/guides/installing/linux.md', 'docs/guides/blocks-tour.md', 'docs/README.md']) expect(git.show('lighthouse', head, path)).toBe(git.show('lighthouse', imported, path));
    expect(git.show('lighthouse', head, 'docs/.gitbook/includes/getting-help.md')).toBe(git.show('lighthouse', imported, 'docs/.gitbook/includes/getting-help.md'));
    expect(git.show('lighthouse', head, 'docs/reference/cli.md')).toContain('{% include "../.gitbook/includes/getting-help.md" %}');

    // The exported revision now records the commit, made by GitBook.
    const afterExport = await admin.api.get(`/spaces/${spaceId}/content`);
    expect(afterExport.body.git).toMatchObject({ oid: head, message: 'Clarify the quickstart', createdByGitBook: true, url: `https://git.example.com/lighthouse/commit/${head}` });
    expect(flatten(afterExport.body.pages).find((p) => p.id === quickstart.id)?.git?.path).toBe(quickstartPath);

    // Back into an empty space: the same content.
    const copy = await newSpace(admin, 'Copy');
    expect((await admin.api.post(`/spaces/${copy}/git/import`, { url: withCredentials(url), ref: 'refs/heads/main' })).status).toBe(204);
    expect(await drain()).toBe(1);
    expect((await gitInfo(admin, copy)).operation).toMatchObject({ state: 'success', result: 'applied', commit: head });
    const copied = await contentByPath(admin, copy);
    expect(Object.keys(copied.reusables)).toEqual(['Getting help']);
    expect(copied).toEqual(await contentByPath(admin, spaceId));

    // Every request to the Git server carried the credentials; none is stored or shown.
    expect(git.authorizations.every((a) => a === `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`)).toBe(true);
    expect(JSON.stringify(await gitInfo(admin, spaceId))).not.toContain(credentials.password);
    expect(JSON.stringify((await admin.api.get(`/spaces/${spaceId}`)).body)).not.toContain(credentials.password);
  });

  it('a published page links to its file in the repository when the customization shows the edit link', async () => {
    const admin = await h.current.newAdmin();
    const url = git.createRepository('published');
    git.commit('published', readFixture(FIXTURE, fixturePaths()), 'Add the docs');
    const spaceId = await newSpace(admin, 'Guides');
    const tree = 'https://git.example.com/published/tree/main/';
    expect((await admin.api.post(`/spaces/${spaceId}/git/import`, { url: withCredentials(url), ref: 'refs/heads/main', repoTreeURL: tree })).status).toBe(204);
    expect(await drain()).toBe(1);
    expect((await gitInfo(admin, spaceId)).operation).toMatchObject({ state: 'success' });
    const site = await newSite(admin, { title: 'Lighthouse', spaces: [spaceId] });
    const published = (await publish(admin, site.id)).urls.published;

    const before = await open(h.current, published);
    expect(before.status).toBe(200);
    expect(before.text).not.toContain('Edit on');

    expect((await admin.api.put(`${sitePath(admin, site.id)}/customization`, { git: { showEditLink: true } })).status).toBe(200);
    const page = await open(h.current, published);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<p class="edit-link"><a href="${tree}docs/README.md" rel="noopener">Edit on Git</a></p>`);
  });
});
