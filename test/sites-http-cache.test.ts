// HTTP caching of published sites (server/published/reader-caching.ts, docs/sites.md "HTTP caching"): what a
// reader's answer says caches may do with it (Cache-Control, Vary), its ETag, and If-None-Match answered 304
// only while the answer is the same: never after a merge, a change made in the database by another process,
// a redirect, or for a reader whose claims show another page.
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { sites } from '../server/db/schema/index.js';
import { useHarness, type Account } from './support/harness.js';
import { publish, spaceWithPages } from './published-support.js';
import { enableAdaptiveContent, mergeChanges, newSite, signVisitorToken, sitePath } from './sites-support.js';

const h = useHarness();
const PUBLIC = 'public, max-age=60, stale-while-revalidate=300';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';

/** A reader's request of an absolute URL with `headers` (If-None-Match, Cookie…), sent with the URL's host. */
function read(url: string, headers: Record<string, string> = {}, method: 'get' | 'head' = 'get') {
  const u = new URL(url);
  let req = request(h.current.app)[method](u.pathname + u.search).set('Host', u.host).redirects(0);
  for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
  return req;
}

/** Reads `url` (200, tagged) then again with its ETag: 304 without a body, the same tag and headers. Returns the first answer. */
async function revalidated(url: string, headers: Record<string, string> = {}) {
  const first = await read(url, headers);
  expect(first.status).toBe(200);
  const etag = first.headers.etag;
  expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
  const again = await read(url, { ...headers, 'If-None-Match': etag });
  expect(again.status).toBe(304);
  expect(again.text ?? '').toBe('');
  expect(again.headers.etag).toBe(etag);
  expect(again.headers['cache-control']).toBe(first.headers['cache-control']);
  expect(again.headers.vary).toBe(first.headers.vary);
  return first;
}

async function pageId(admin: Account, spaceId: string, title: string): Promise<string> {
  const res = await admin.api.get(`/spaces/${spaceId}/content/pages`);
  expect(res.status).toBe(200);
  return res.body.pages.find((p: { title: string }) => p.title === title).id;
}

async function publishedSite(admin: Account, body: object = {}) {
  const space = await spaceWithPages(admin, 'Guides', [
    { title: 'Intro', markdown: 'Old text.' },
    { title: 'Second', markdown: 'Second text.' },
  ]);
  const site = await newSite(admin, { title: 'Tagged docs', spaces: [space], ...body });
  const url: string = (await publish(admin, site.id)).urls.published;
  return { space, site, url };
}

describe('HTTP caching of published sites', () => {
  it('get <page> of a public site is public for a minute, tagged, and answered 304 to a reader who holds it (HEAD too)', async () => {
    const admin = await h.current.newAdmin();
    const { url } = await publishedSite(admin);
    const page = await revalidated(`${url}/intro`);
    expect(page.text).toContain('Old text.');
    expect(page.headers['cache-control']).toBe(PUBLIC);
    expect(page.headers.vary).toBeUndefined();
    // Another page has another tag; a list holding the tag, weak or not, matches; `*` matches any page.
    const second = await read(`${url}/second`, { 'If-None-Match': page.headers.etag });
    expect(second.status).toBe(200);
    expect(second.headers.etag).not.toBe(page.headers.etag);
    expect((await read(`${url}/intro`, { 'If-None-Match': `"other", ${page.headers.etag.slice(2)}` })).status).toBe(304);
    expect((await read(`${url}/intro`, { 'If-None-Match': '*' })).status).toBe(304);
    const head = await read(`${url}/intro`, { 'If-None-Match': page.headers.etag }, 'head');
    expect(head.status).toBe(304);
  });

  it('get <page> with a held ETag is 200 with the new page after a merge, a customization, a change written in the database and a redirect', async () => {
    const admin = await h.current.newAdmin();
    const { space, site, url } = await publishedSite(admin);
    const held = (await revalidated(`${url}/intro`)).headers.etag;

    await mergeChanges(admin, space, [{ operation: 'update_page', page: await pageId(admin, space, 'Intro'), document: { markdown: 'New text.' } }]);
    const merged = await read(`${url}/intro`, { 'If-None-Match': held });
    expect(merged.status).toBe(200);
    expect(merged.text).toContain('New text.');
    expect(merged.headers.etag).not.toBe(held);
    const afterMerge = (await revalidated(`${url}/intro`)).headers.etag;
    expect(afterMerge).toBe(merged.headers.etag);

    expect((await admin.api.put(`${sitePath(admin, site.id)}/customization`, { title: 'Renamed docs' })).status).toBe(200);
    const customized = await read(`${url}/intro`, { 'If-None-Match': afterMerge });
    expect(customized.status).toBe(200);
    expect(customized.text).toContain('<title>Intro | Renamed docs</title>');
    const afterCustomization = (await revalidated(`${url}/intro`)).headers.etag;

    // As another process sharing the database would write it: the site's stamp changes, and so does the page.
    await h.current.db.update(sites).set({ customization: {}, title: 'Written elsewhere' }).where(eq(sites.id, site.id));
    const written = await read(`${url}/intro`, { 'If-None-Match': afterCustomization });
    expect(written.status).toBe(200);
    expect(written.text).toContain('<title>Intro | Written elsewhere</title>');
    const afterWrite = (await revalidated(`${url}/intro`)).headers.etag;

    // The page moves (a new slug): its old URL now redirects, with the site's caching, never 304.
    await mergeChanges(admin, space, [{ operation: 'update_page', page: await pageId(admin, space, 'Intro'), slug: 'introduction' }]);
    const moved = await read(`${url}/intro`, { 'If-None-Match': afterWrite });
    expect(moved.status).toBe(308);
    expect(moved.headers.location).toMatch(/\/introduction$/);
    expect(moved.headers['cache-control']).toBe(PUBLIC);
    expect(moved.headers.etag).toBeUndefined();
  });

  it('get <page> of a site whose claims adapt it is private, varies on Cookie, and a reader with other claims never gets 304', async () => {
    const admin = await h.current.newAdmin();
    const { space, site, url } = await publishedSite(admin);
    await mergeChanges(admin, space, [{ operation: 'insert_page', title: 'Beta', document: { markdown: 'Beta only.' }, condition: 'visitor.claims.isBetaUser' }]);
    await enableAdaptiveContent(admin, site.id);
    const key: string = (await admin.api.get(`${sitePath(admin, site.id)}/publishing/auth`)).body.privateKey;
    const beta = { Cookie: `dw_visitor_${site.id}=${await signVisitorToken({ isBetaUser: true }, key)}` };
    const other = { Cookie: `dw_visitor_${site.id}=${await signVisitorToken({ isBetaUser: false }, key)}` };

    const anonymous = await revalidated(`${url}/intro`);
    expect(anonymous.headers['cache-control']).toBe('private, no-cache');
    expect(anonymous.headers.vary).toBe('Cookie');
    const betaIntro = await revalidated(`${url}/intro`, beta);
    expect(betaIntro.text).toContain('/beta"'); // the sidebar shows the page the claim opens
    expect(betaIntro.headers.etag).not.toBe(anonymous.headers.etag);
    // The beta reader's tag, sent with another reader's claims (their cookie changed): the page they may see.
    const changed = await read(`${url}/intro`, { ...other, 'If-None-Match': betaIntro.headers.etag });
    expect(changed.status).toBe(200);
    expect(changed.text).not.toContain('/beta"');
    expect(changed.headers.etag).toBe(anonymous.headers.etag);
    const betaPage = await revalidated(`${url}/beta`, beta);
    expect(betaPage.text).toContain('Beta only.');
    const refused = await read(`${url}/beta`, { 'If-None-Match': betaPage.headers.etag });
    expect(refused.status).toBe(404);
    expect(refused.headers['cache-control']).toBe('no-store');
  });

  it('get <file> of a site is public on a public site, private once adaptive content may show it to some readers only', async () => {
    const admin = await h.current.newAdmin();
    const space = await spaceWithPages(admin, 'Guides', [{ title: 'Intro', markdown: '{% file src=".gitbook/assets/notes.txt" %}' }], [{ name: 'notes.txt', contentType: 'text/plain', text: 'Notes.' }]);
    const site = await newSite(admin, { title: 'Files', spaces: [space] });
    const url: string = (await publish(admin, site.id)).urls.published;
    const page = await read(`${url}/intro`);
    expect(page.status).toBe(200);
    const href = /href="([^"]*\/~files\/[^"]+)"/.exec(page.text)?.[1];
    expect(href).toBeDefined();
    const fileUrl = `${new URL(url).origin}${href!}`;
    const open = await read(fileUrl);
    expect(open.status).toBe(200);
    expect(open.text).toBe('Notes.');
    expect(open.headers['cache-control']).toBe('public, max-age=86400');
    await enableAdaptiveContent(admin, site.id);
    const adaptive = await read(fileUrl);
    expect(adaptive.status).toBe(200);
    expect(adaptive.headers['cache-control']).toBe('private, max-age=300');
  });

  it('get <page> of a visitor-auth site is private and revalidated: 304 with a valid token, 401 without one whatever the tag', async () => {
    const admin = await h.current.newAdmin();
    const { site, url } = await publishedSite(admin, { visibility: 'visitor-auth' });
    const key: string = (await admin.api.get(`${sitePath(admin, site.id)}/publishing/auth`)).body.privateKey;
    const visitor = { Cookie: `dw_visitor_${site.id}=${await signVisitorToken({}, key)}` };
    const page = await revalidated(`${url}/intro`, visitor);
    expect(page.text).toContain('Old text.');
    expect(page.headers['cache-control']).toBe('private, no-cache');
    expect(page.headers.vary).toBe('Cookie');
    const noToken = await read(`${url}/intro`, { 'If-None-Match': page.headers.etag });
    expect(noToken.status).toBe(401);
    expect(noToken.headers['cache-control']).toBe('no-store');
    expect(noToken.headers.etag).toBeUndefined();
    const expired = { Cookie: `dw_visitor_${site.id}=${await signVisitorToken({}, key, -10)}` };
    expect((await read(`${url}/intro`, { ...expired, 'If-None-Match': page.headers.etag })).status).toBe(401);
  });

  it('get <page> of a share-link site is private: its key is in the URL, and a shared cache must not keep what it opens', async () => {
    const admin = await h.current.newAdmin();
    const { site } = await publishedSite(admin, { visibility: 'share-link' });
    const url: string = (await publish(admin, site.id)).urls.published;
    const page = await revalidated(`${url}/guides/intro`);
    expect(page.headers['cache-control']).toBe('private, no-cache');
    expect(page.headers.vary).toBeUndefined();
  });

  it('get <missing page>, a search and a refused AI agent are kept by no cache; a site refusing agents varies on User-Agent', async () => {
    const admin = await h.current.newAdmin();
    const { site, url } = await publishedSite(admin);
    const missing = await read(`${url}/nothing-here`, { 'If-None-Match': '*' });
    expect(missing.status).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
    expect(missing.headers.etag).toBeUndefined();
    const noSite = await read(`https://api.test.example/sites/${admin.organizationId}/sit_nope`);
    expect(noSite.status).toBe(404);
    expect(noSite.headers['cache-control']).toBe('no-store');
    const search = await read(`${url}/~search?q=text`);
    expect(search.status).toBe(200);
    expect(search.headers['cache-control']).toBe('no-store');
    expect(search.headers.etag).toBeUndefined();

    expect((await admin.api.patch(sitePath(admin, site.id), { agentsContext: 'excluded' })).status).toBe(200);
    const page = await revalidated(`${url}/intro`);
    expect(page.headers.vary).toBe('User-Agent');
    const agent = await read(`${url}/intro`, { 'User-Agent': GPTBOT, 'If-None-Match': page.headers.etag });
    expect(agent.status).toBe(403);
    expect(agent.headers['cache-control']).toBe('no-store');
  });

  it('get sitemap.xml, robots.txt, llms.txt and a page.md are cached like the pages, and tagged with what they hold', async () => {
    const admin = await h.current.newAdmin();
    const { space, url } = await publishedSite(admin);
    const paths = ['sitemap.xml', 'robots.txt', 'llms.txt', 'guides/intro.md'];
    const held = new Map<string, string>();
    for (const path of paths) {
      const first = await revalidated(`${url}/${path}`);
      expect(first.headers['cache-control'], path).toBe(PUBLIC);
      held.set(path, first.headers.etag);
    }
    await mergeChanges(admin, space, [
      { operation: 'update_page', page: await pageId(admin, space, 'Intro'), document: { markdown: 'New text.' } },
      { operation: 'insert_page', title: 'Third', document: { markdown: 'Third text.' } },
    ]);
    // robots.txt does not hold pages: the same tag still matches. The others changed.
    expect((await read(`${url}/robots.txt`, { 'If-None-Match': held.get('robots.txt')! })).status).toBe(304);
    for (const path of ['sitemap.xml', 'llms.txt', 'guides/intro.md']) {
      const after = await read(`${url}/${path}`, { 'If-None-Match': held.get(path)! });
      expect(after.status, path).toBe(200);
      expect(after.text, path).toMatch(/third|New text/i);
    }
  });
});
