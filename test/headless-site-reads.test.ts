// The reads GitBook's renderer makes for a published site with the site API token a resolution hands out (issue
// 48): the space, pages by id in the published revision, users, a page's meta links (its translations), the
// site's search; and `complete` on a site with sections, as the renderer's parallel lookups rely on it.
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createJobRunner } from '../server/jobs/runner.js';
import { runTranslationHandler, RUN_TRANSLATION } from '../server/translations/run.job.js';
import { copyTranslator } from '../server/translations/translator.js';
import { apiClient } from './support/api.js';
import { EVERY_BLOCK_FILE, EVERY_BLOCK_MARKDOWN } from './support/every-block.js';
import { gitbookDocumentErrors } from './support/gitbook-document.js';
import { leavesOf, rawSyntax } from './support/gitbook-markdown-check.js';
import { useHarness, type Account } from './support/harness.js';
import { publish, spaceWithPages } from './published-support.js';
import { enableAdaptiveContent, mergeChanges, newSite, signVisitorToken, sitePath } from './sites-support.js';

const h = useHarness();

async function pageIds(admin: Account, space: string): Promise<Record<string, string>> {
  const res = await admin.api.get(`/spaces/${space}/content/pages`);
  expect(res.status).toBe(200);
  return Object.fromEntries((res.body.pages as { id: string; title: string }[]).map((p) => [p.title, p.id]));
}

/** A published adaptive site: Welcome, Setup (mentions the word "gearbox"), Beta (beta users only, "gearbox" too, described), Quiet (noIndex, "gearbox"). */
async function gearSite(admin: Account) {
  const space = await spaceWithPages(admin, 'Guides', [
    { title: 'Welcome', markdown: 'Welcome, reader.' },
    { title: 'Setup', markdown: 'Oil the gearbox before the first run.' },
  ]);
  await mergeChanges(admin, space, [
    { operation: 'insert_page', title: 'Beta', description: 'What beta users get', document: { markdown: 'The beta gearbox is faster.' }, condition: 'visitor.claims.isBetaUser' },
    { operation: 'insert_page', title: 'Quiet', document: { markdown: 'A quiet gearbox page.' }, noIndex: true },
  ]);
  const site = await newSite(admin, { title: 'Docs', spaces: [space] });
  await enableAdaptiveContent(admin, site.id);
  const url: string = (await publish(admin, site.id)).urls.published;
  const key: string = (await admin.api.get(`${sitePath(admin, site.id)}/publishing/auth`)).body.privateKey;
  return { space, site, url, key, pages: await pageIds(admin, space) };
}

describe('the site token reads what GitBook\'s renderer reads', () => {
  it('reads the space, a page by id in the published revision, a user, meta links and the site search; writes nothing', async () => {
    const admin = await h.current.newAdmin();
    const { space, site, url, key, pages } = await gearSite(admin);
    const resolved = await admin.api.get('/urls/published', { url: `${url}/guides/setup` });
    expect(resolved.status).toBe(200);
    const reader = apiClient(h.current.app, resolved.body.apiToken);
    const revision = resolved.body.revision as string;

    const spaceRead = await reader.get(`/spaces/${space}`);
    expect(spaceRead.status, JSON.stringify(spaceRead.body)).toBe(200);
    expect(spaceRead.body).toMatchObject({ id: space, title: 'Guides' });
    const page = await reader.get(`/spaces/${space}/revisions/${revision}/page/${pages.Setup}`);
    expect(page.status).toBe(200);
    expect(page.body.title).toBe('Setup');
    // The Beta page is not the anonymous visitor's: 404 by id, as by path.
    expect((await reader.get(`/spaces/${space}/revisions/${revision}/page/${pages.Beta}`)).status).toBe(404);
    const user = await reader.get(`/users/${admin.userId}`);
    expect(user.status).toBe(200);
    expect(user.body.id).toBe(admin.userId);

    const links = await reader.get(`/spaces/${space}/revisions/${revision}/page/${pages.Setup}/meta-links`);
    expect(links.status).toBe(200);
    expect(links.body).toEqual({ alternates: [] });
    expect((await reader.get(`/spaces/${space}/revisions/${revision}/page/${pages.Beta}/meta-links`)).status).toBe(404);

    // The search finds Setup; not Beta (its condition), nor Quiet (noIndex).
    const search = await reader.post(`${sitePath(admin, site.id)}/search`, { query: 'gearbox', scope: { mode: 'default', currentSiteSpace: resolved.body.siteSpace } });
    expect(search.status, JSON.stringify(search.body)).toBe(200);
    expect(search.body.items).toHaveLength(1);
    expect(search.body.items[0]).toMatchObject({ id: space, title: 'Guides' });
    expect(search.body.items[0].pages.map((p: { title: string }) => p.title)).toEqual(['Setup']);
    expect(search.body.count).toBe(1);
    // A section's body is plain text, as GitBook's: its renderer highlights the query itself and would show marks.
    expect(search.body.items[0].pages[0].sections.map((s: { body: string }) => s.body)).toEqual(['Oil the gearbox before the first run']);
    // A beta visitor's token finds Beta too.
    const asBeta = await admin.api.get('/urls/published', { url: `${url}/guides/setup`, visitorAuthToken: await signVisitorToken({ isBetaUser: true }, key) });
    const betaSearch = await apiClient(h.current.app, asBeta.body.apiToken).post(`${sitePath(admin, site.id)}/search`, { query: 'gearbox', scope: { mode: 'all' } });
    expect(betaSearch.status).toBe(200);
    expect(betaSearch.body.items[0].pages.map((p: { title: string }) => p.title).sort()).toEqual(['Beta', 'Setup']);
    // Each page with its description, as GitBook's page result requires ("" for a page without one).
    expect(Object.fromEntries(betaSearch.body.items[0].pages.map((p: { title: string; description: string }) => [p.title, p.description]))).toEqual({ Beta: 'What beta users get', Setup: '' });
    // Paged: one page of results at a time, the cursor leading to the next.
    const first = await apiClient(h.current.app, asBeta.body.apiToken).post(`${sitePath(admin, site.id)}/search?limit=1`, { query: 'gearbox', mode: 'all' });
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(2);
    const second = await apiClient(h.current.app, asBeta.body.apiToken).post(`${sitePath(admin, site.id)}/search?limit=1&page=${first.body.next.page}`, { query: 'gearbox', mode: 'all' });
    expect(second.status).toBe(200);
    expect(second.body.next).toBeUndefined();
    expect([first.body.items[0].pages[0].title, second.body.items[0].pages[0].title].sort()).toEqual(['Beta', 'Setup']);
    // The deprecated `mode: current`: with a site space, that one first; without, the sections' defaults.
    for (const body of [{ mode: 'current', siteSpaceId: resolved.body.siteSpace }, { mode: 'current' }]) {
      const current = await reader.post(`${sitePath(admin, site.id)}/search`, { query: 'gearbox', ...body });
      expect(current.status, JSON.stringify(current.body)).toBe(200);
      expect(current.body.items.map((i: { id: string; pages: { title: string }[] }) => [i.id, i.pages.map((p) => p.title)])).toEqual([[space, ['Setup']]]);
    }
    // Bad scopes name the field.
    const noCurrent = await reader.post(`${sitePath(admin, site.id)}/search`, { query: 'gearbox', scope: { mode: 'default', restrictTo: 'currentSiteSpace' } });
    expect(noCurrent.status).toBe(400);
    expect(noCurrent.body.error.message).toContain('currentSiteSpace');
    expect((await reader.post(`${sitePath(admin, site.id)}/search`, { query: '' })).status).toBe(400);
    // A member searches the site as a visitor without claims.
    const member = await admin.api.post(`${sitePath(admin, site.id)}/search`, { query: 'gearbox' });
    expect(member.status).toBe(200);
    expect(member.body.items[0].pages.map((p: { title: string }) => p.title)).toEqual(['Setup']);

    // Another site's search, and writes, are refused.
    const other = await newSite(admin, { title: 'Other', spaces: [space] });
    await publish(admin, other.id);
    expect((await reader.post(`${sitePath(admin, other.id)}/search`, { query: 'gearbox' })).status).toBe(404);
    expect((await reader.patch(`/spaces/${space}`, { title: 'Taken' })).status).toBe(403);
  });

  it('reads the page of every block as GitBook\'s Document: no raw HTML its renderer would show as text, references resolved', async () => {
    const admin = await h.current.newAdmin();
    // Readers first: a relative link is read against the pages as they are when its change applies.
    const space = await spaceWithPages(
      admin,
      'Guides',
      [
        { title: 'Readers', markdown: 'Hello readers.' },
        { title: 'Every block', markdown: EVERY_BLOCK_MARKDOWN.replaceAll('usr_01ABCDEFGHJK', admin.userId) },
      ],
      [EVERY_BLOCK_FILE],
    );
    const pages = await pageIds(admin, space);
    const site = await newSite(admin, { title: 'Docs', spaces: [space] });
    const url: string = (await publish(admin, site.id)).urls.published;
    const resolved = await admin.api.get('/urls/published', { url: `${url}/guides/every-block` });
    expect(resolved.status).toBe(200);
    const reader = apiClient(h.current.app, resolved.body.apiToken);
    const revision = resolved.body.revision as string;
    const read = await reader.get(`/spaces/${space}/revisions/${revision}/page/${pages['Every block']}/document?evaluated=deterministic-only&dereferenced=reusable-contents`);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(gitbookDocumentErrors(read.body)).toBeUndefined();
    type Node = { object: string; type?: string; meta?: { html?: boolean }; data?: Record<string, unknown>; nodes?: Node[]; fragments?: Node[] };
    const all: Node[] = [];
    const walk = (nodes: Node[] = []) => nodes.forEach((n) => (all.push(n), walk(n.nodes), walk(n.fragments)));
    walk(read.body.nodes);
    expect(all.filter((n) => n.meta?.html)).toEqual([]);
    expect(leavesOf(read.body.nodes).filter((t) => rawSyntax.test(t))).toEqual([]);
    // The line of buttons and icons written in a <p>: its inlines.
    const inlines = all.filter((n) => n.object === 'inline').map((n) => [n.type, n.data?.label ?? n.data?.icon ?? n.data?.ref]);
    expect(inlines).toEqual(expect.arrayContaining([['button', 'Sign up'], ['button', 'Contact sales'], ['icon', 'github'], ['icon', 'rocket']]));
    expect(inlines).toEqual(expect.arrayContaining([['mention', { kind: 'page', page: pages.Readers }], ['mention', { kind: 'user', user: admin.userId }]]));
    const file = all.find((n) => n.type === 'file');
    expect(file?.data?.ref).toMatchObject({ kind: 'file' });
    // What the renderer reads for them, with the site token: the mentioned user and the file's revision.
    expect((await reader.get(`/users/${admin.userId}`)).status).toBe(200);
    const rev = await reader.get(`/spaces/${space}/revisions/${revision}?metadata=true`);
    expect(rev.status).toBe(200);
    expect(rev.body.files.map((f: { name: string }) => f.name)).toContain(EVERY_BLOCK_FILE.name);
  });

  it('lists a page\'s alternates: the same page in the spaces of its translations', async () => {
    const admin = await h.current.newAdmin();
    const source = await spaceWithPages(admin, 'Guides', [{ title: 'Setup', markdown: 'Oil the gearbox.' }]);
    expect((await admin.api.patch(`/spaces/${source}`, { language: 'en' })).status).toBe(200);
    const created = await admin.api.post(`/orgs/${admin.organizationId}/translations`, { source: { space: source, language: 'en' }, language: 'fr' });
    expect(created.status).toBe(201);
    expect((await admin.api.post(`/orgs/${admin.organizationId}/translations/${created.body.id}/run`)).status).toBe(204);
    await createJobRunner({ db: h.current.db, logger: pino({ level: 'silent' }), handlers: { [RUN_TRANSLATION]: runTranslationHandler(copyTranslator) } }).drain();
    const translation = await admin.api.get(`/orgs/${admin.organizationId}/translations/${created.body.id}`);
    expect(translation.status).toBe(200);
    const result = translation.body.target?.space ?? translation.body.result?.space ?? translation.body.space;
    expect(typeof result, JSON.stringify(translation.body)).toBe('string');
    const setup = (await pageIds(admin, source)).Setup;
    const sourceRevision = (await admin.api.get(`/spaces/${source}/content`)).body.id;
    const fromSource = await admin.api.get(`/spaces/${source}/revisions/${sourceRevision}/page/${setup}/meta-links`);
    expect(fromSource.status).toBe(200);
    expect(fromSource.body).toEqual({ alternates: [{ kind: 'page', page: setup, space: result }] });
    const resultRevision = (await admin.api.get(`/spaces/${result}/content`)).body.id;
    const fromResult = await admin.api.get(`/spaces/${result}/revisions/${resultRevision}/page/${setup}/meta-links`);
    expect(fromResult.body).toEqual({ alternates: [{ kind: 'page', page: setup, space: source }] });
    // A guest given the source only does not see the translation; given it too, they do.
    const guest = await h.current.newMember(admin.organizationId, null);
    expect((await admin.api.patch(`/spaces/${source}/permissions/users/${guest.userId}`, { role: 'read' })).status).toBe(204);
    const guestPath = `/spaces/${source}/revisions/${sourceRevision}/page/${setup}/meta-links`;
    expect((await guest.api.get(guestPath)).body).toEqual({ alternates: [] });
    expect((await admin.api.patch(`/spaces/${result}/permissions/users/${guest.userId}`, { role: 'read' })).status).toBe(204);
    expect((await guest.api.get(guestPath)).body).toEqual({ alternates: [{ kind: 'page', page: setup, space: result }] });
    // A site token reads only the alternates of spaces its site publishes.
    const site = await newSite(admin, { title: 'Docs', spaces: [source] });
    const url: string = (await publish(admin, site.id)).urls.published;
    const resolved = await admin.api.get('/urls/published', { url });
    expect(resolved.status).toBe(200);
    const viaToken = await apiClient(h.current.app, resolved.body.apiToken).get(`/spaces/${source}/revisions/${sourceRevision}/page/${setup}/meta-links`);
    expect(viaToken.status).toBe(200);
    expect(viaToken.body).toEqual({ alternates: [] });
    // An unknown page: 404.
    expect((await admin.api.get(`/spaces/${source}/revisions/${sourceRevision}/page/pag_nope/meta-links`)).status).toBe(404);
  });
});

describe('complete, as GitBook answers it', () => {
  it('is true only once no section or site space segment can follow', async () => {
    const admin = await h.current.newAdmin();
    const a = await spaceWithPages(admin, 'Alpha', [{ title: 'Intro', markdown: 'Alpha intro.' }]);
    const b = await spaceWithPages(admin, 'Beta', [{ title: 'Intro', markdown: 'Beta intro.' }]);
    const c = await spaceWithPages(admin, 'Gamma', [{ title: 'Intro', markdown: 'Gamma intro.' }]);
    const site = await newSite(admin, { title: 'Docs', spaces: [a] });
    const section = await admin.api.post(`${sitePath(admin, site.id)}/sections`, { spaceId: b, title: 'API' });
    expect(section.status, JSON.stringify(section.body)).toBe(200);
    const variant = await admin.api.post(`${sitePath(admin, site.id)}/site-spaces`, { spaceId: c, sectionId: section.body.id });
    expect(variant.status, JSON.stringify(variant.body)).toBe(200);
    const url: string = (await publish(admin, site.id)).urls.published;
    const sections = await admin.api.get(`${sitePath(admin, site.id)}/sections`);
    const api = (sections.body.items as { id: string; path: string; siteSpaces: { id: string; path: string }[] }[]).find((s) => s.id === section.body.id)!;
    const gamma = api.siteSpaces.find((s) => s.id === variant.body.id) ?? variant.body;
    const lookup = async (path: string) => {
      const res = await admin.api.get('/urls/published', { url: `${url}${path}` });
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
      return res.body;
    };
    // The site's home: a section segment could follow.
    expect((await lookup('')).complete).toBe(false);
    // The section named, but it has two site spaces: a site space segment could follow.
    const inSection = await lookup(`/${api.path}`);
    expect(inSection).toMatchObject({ siteSection: api.id, complete: false });
    // The section and a site space named: complete, and with a page path after them.
    expect(await lookup(`/${api.path}/${gamma.path}`)).toMatchObject({ siteSpace: gamma.id, space: c, complete: true });
    expect(await lookup(`/${api.path}/${gamma.path}/intro`)).toMatchObject({ siteSpace: gamma.id, pathname: 'intro', complete: true });
    // The same segment as a page path of the default site space is not complete: the renderer waits for the longer lookup.
    expect(await lookup(`/${api.path}/intro`)).toMatchObject({ siteSection: api.id, pathname: 'intro', complete: false });
    // A site of one site space: its home is not complete either, as the site space's segment could follow (GitBook's
    // renderer would otherwise read `<site space>/<page>` as a page path); named, it is.
    const single = await newSite(admin, { title: 'Single', spaces: [a] });
    const singleUrl: string = (await publish(admin, single.id)).urls.published;
    const home = await admin.api.get('/urls/published', { url: singleUrl });
    expect(home.body).toMatchObject({ site: single.id, complete: false });
    const named = await admin.api.get('/urls/published', { url: `${singleUrl}/${home.body.basePath.split('/').filter(Boolean).pop()}/intro` });
    expect(named.body).toMatchObject({ site: single.id, pathname: 'intro', complete: true });
  });
});
