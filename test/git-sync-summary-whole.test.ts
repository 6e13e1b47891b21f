// A GitBook repository comes through Git Sync whole: every SUMMARY.md entry is a page (a web URL, an
// anchor of a page and a page listed again are link pages, read by the API with their target), the title
// SUMMARY.md gives wins, `.gitbook/tags.yaml` is kept and `.gitbook.yaml`'s redirects are the space's,
// followed by its published site. An unmodified import exported back changes nothing, and exported to a
// repository of its own writes SUMMARY.md, the tags file and the redirects as they were.
import { describe, expect, it, vi } from 'vitest';
import { useHarness } from './support/harness.js';
import { gitCredentials, gitSyncWorld, useGitHttpServer } from './support/git-sync-world.js';
import type { GitHttpServer } from './support/git-http-server.js';
import { open, publish } from './published-support.js';
import { newSite } from './sites-support.js';

const h = useHarness();
vi.setConfig({ testTimeout: 180_000 });
let git: GitHttpServer;
const { drain, requestImport, requestExport, info } = gitSyncWorld(h, () => git);

useGitHttpServer(gitCredentials, (server) => (git = server));

// As GitBook writes them (GitbookIO/public-docs, documentation/: SUMMARY.md lines 47-51 and a link title as line 96, .gitbook/tags.yaml).
const summary = [
  '# Table of contents',
  '',
  '* [Welcome](README.md)',
  '* [Inline](inline.md "Formatting")',
  '  * [Buttons](inline.md#buttons)',
  '* [Custom blocks](https://app.gitbook.com/s/2SyQSbIa1iYS7z6Dx5di/integrations/quickstart)',
  '* [Document an API](openapi.md)',
  '',
].join('\n');
const tags = '- tag: beta\n  label: Beta\n  icon: flask-round-potion\n- tag: new\n  label: New\n  icon: sparkles\n  color: $primary\n';
const files = {
  '.gitbook.yaml': 'root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n\nredirects:\n  old/api: openapi.md\n',
  'SUMMARY.md': summary,
  '.gitbook/tags.yaml': tags,
  'README.md': '# Welcome\n\nHello.\n',
  'inline.md': '---\ntags:\n  - beta\n---\n\n# Inline\n\n## Buttons\n\nPress one.\n',
  'openapi.md': '# OpenAPI\n\nSpecs.\n',
};

interface PageNode {
  id: string;
  title: string;
  type: string;
  kind?: string;
  linkTitle?: string;
  target?: unknown;
  pages?: PageNode[];
}

describe('git sync: a GitBook repository whole', () => {
  it('imports every entry as a page, exports unmodified as no change, and writes a new repository as GitBook wrote it', async () => {
    const admin = await h.current.newAdmin();
    const url = git.createRepository('whole');
    const imported = git.commit('whole', files, 'Docs from GitBook');
    const created = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Whole' });
    expect(created.status).toBe(201);
    const spaceId = created.body.id as string;
    await requestImport(admin, spaceId, url, { timestamp: '2026-03-01T10:00:00.000Z' });
    expect(await drain()).toBe(1);
    const imports = await info(admin, spaceId);
    expect(imports.operation).toMatchObject({ state: 'success', result: 'applied', commit: imported });
    expect(imports.operation.warnings).toBeUndefined();

    // The API reads the link pages with their target, as GitBook's RevisionPageLink.
    const res = await admin.api.get(`/spaces/${spaceId}/content/pages`);
    expect(res.status).toBe(200);
    const flat = (pages: PageNode[]): PageNode[] => pages.flatMap((p) => [p, ...flat(p.pages ?? [])]);
    const pages = flat(res.body.pages);
    const byTitle = (title: string) => pages.find((p) => p.title === title)!;
    expect(pages.map((p) => [p.title, p.type])).toEqual([
      ['Welcome', 'document'],
      ['Inline', 'document'],
      ['Buttons', 'link'],
      ['Custom blocks', 'link'],
      ['Document an API', 'document'],
    ]);
    expect(byTitle('Buttons')).toMatchObject({ kind: 'link', target: { kind: 'anchor', page: byTitle('Inline').id, anchor: 'buttons' } });
    // SUMMARY.md's quoted title is the page's link title, as GitBook's RevisionPage.linkTitle.
    expect(byTitle('Inline').linkTitle).toBe('Formatting');
    expect(byTitle('Welcome').linkTitle).toBeUndefined();
    expect(byTitle('Custom blocks')).toMatchObject({ kind: 'link', target: { kind: 'url', url: 'https://app.gitbook.com/s/2SyQSbIa1iYS7z6Dx5di/integrations/quickstart' } });
    const link = await admin.api.get(`/spaces/${spaceId}/content/page/${byTitle('Buttons').id}`);
    expect(link.status).toBe(200);
    expect(link.body).toMatchObject({ type: 'link', target: { kind: 'anchor', anchor: 'buttons' } });

    // Exported back unmodified: the branch stays at the import's commit.
    await requestExport(admin, spaceId, url, { timestamp: '2026-03-01T11:00:00.000Z' });
    expect(await drain()).toBe(1);
    const exports = await info(admin, spaceId);
    expect(exports.operation).toMatchObject({ state: 'success', result: 'unchanged', direction: 'export', commit: imported });
    expect(exports.operation.warnings).toBeUndefined();
    expect(git.head('whole')).toBe(imported);

    // To a repository of its own (no .gitbook.yaml to keep): SUMMARY.md, the tags file and the redirect as they were.
    const other = git.createRepository('whole-copy');
    await requestExport(admin, spaceId, other, { timestamp: '2026-03-01T12:00:00.000Z' });
    expect(await drain()).toBe(1);
    expect((await info(admin, spaceId)).operation).toMatchObject({ state: 'success', result: 'applied', direction: 'export' });
    const head = git.head('whole-copy');
    expect(git.show('whole-copy', head, 'SUMMARY.md')).toBe(summary);
    expect(git.show('whole-copy', head, '.gitbook/tags.yaml')).toBe(tags);
    expect(git.show('whole-copy', head, '.gitbook.yaml')).toContain('redirects:\n  old/api: openapi.md\n');
    expect(git.show('whole-copy', head, 'inline.md')).toBe(files['inline.md']);
    expect(git.files('whole-copy', head).sort()).toEqual(['.gitbook.yaml', '.gitbook/tags.yaml', 'README.md', 'SUMMARY.md', 'inline.md', 'openapi.md']);

    // The published site follows the space's redirect to its page.
    const site = await newSite(admin, { title: 'Docs', spaces: [spaceId] });
    const published: string = (await publish(admin, site.id)).urls.published;
    const page = await admin.api.get('/urls/published', { url: `${published}/whole/openapi` });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.page).toBe(byTitle('Document an API').id);
    const viaRedirect = await admin.api.get('/urls/published', { url: `${published}/whole/old/api` });
    expect(viaRedirect.status).toBe(200);
    expect(viaRedirect.body).toEqual({ target: 'content', redirect: `${published}/whole/openapi` });
    const served = await open(h.current, `${published}/whole/old/api`);
    // Permanent, as a moved page is (the site is public: 308).
    expect(served.status).toBe(308);
    expect(served.headers.location).toBe(`${new URL(published).pathname}/whole/openapi`);

    // Link pages lead where they point: in the sidebar, and at their own path.
    const home = await open(h.current, `${published}/whole/inline`);
    expect(home.status).toBe(200);
    expect(home.text).toContain('href="https://app.gitbook.com/s/2SyQSbIa1iYS7z6Dx5di/integrations/quickstart"');
    expect(home.text).toContain(`href="${new URL(published).pathname}/whole/inline#buttons"`);
    // The sidebar and pagination name a page by its link title; its own heading keeps its title.
    expect(home.text).toMatch(/<a href="[^"]*\/whole\/inline"[^>]*>Formatting<\/a>/);
    expect(home.text).toContain('<h1>Inline</h1>');
    const welcome = await open(h.current, `${published}/whole`);
    expect(welcome.status).toBe(200);
    expect(welcome.text).toMatch(/rel="next">[^<]* Formatting<\/a>/);
    const buttons = await open(h.current, `${published}/whole/inline/buttons`);
    expect(buttons.status).toBe(302);
    expect(buttons.headers.location).toBe(`${new URL(published).pathname}/whole/inline#buttons`);
  });
});
