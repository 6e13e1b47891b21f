// The page cache of published sites (server/published/page-cache.ts) never serves a stale page: every test
// reads a page twice (the second answer comes from the cache), changes something through the API or
// straight in the database (as another server process sharing it would), and reads again at once.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { siteSections, sites } from '../server/db/schema/index.js';
import { useHarness, type Account } from './support/harness.js';
import { publishAs } from './support/matrix/integrations.js';
import { hrefs, open, publish, spaceWithPages } from './published-support.js';
import { enableAdaptiveContent, mergeChanges, newSite, signVisitorToken, sitePath } from './sites-support.js';

const h = useHarness();

/** The id of the top-level page titled `title`. */
async function pageId(admin: Account, spaceId: string, title: string): Promise<string> {
  const res = await admin.api.get(`/spaces/${spaceId}/content/pages`);
  expect(res.status).toBe(200);
  return res.body.pages.find((p: { title: string }) => p.title === title).id;
}

/** Reads `url` twice (the second from the cache) and returns the second answer. */
async function readTwice(url: string, cookies?: string[]) {
  const first = await open(h.current, url, cookies);
  const second = await open(h.current, url, cookies);
  expect(second.status).toBe(first.status);
  expect(second.text).toBe(first.text);
  return second;
}

async function publishedSite(admin: Account, body: object = {}) {
  const space = await spaceWithPages(admin, 'Guides', [
    { title: 'Intro', markdown: 'Old text.' },
    { title: 'Second', markdown: 'Second text.' },
  ]);
  const site = await newSite(admin, { title: 'Cached docs', spaces: [space], ...body });
  const url: string = (await publish(admin, site.id)).urls.published;
  return { space, site, url };
}

describe('the page cache of published sites', () => {
  it('shows a merge at the next read: new content, a new page in the sidebar and in the next link of another cached page', async () => {
    const admin = await h.current.newAdmin();
    const { space, url } = await publishedSite(admin);
    expect((await readTwice(`${url}/intro`)).text).toContain('Old text.');
    const second = await readTwice(`${url}/second`);
    expect(second.text).not.toContain('rel="next"');

    await mergeChanges(admin, space, [
      { operation: 'update_page', page: await pageId(admin, space, 'Intro'), document: { markdown: 'New text.' } },
      { operation: 'insert_page', title: 'Third', document: { markdown: 'Third text.' } },
    ]);
    const intro = await open(h.current, `${url}/intro`);
    expect(intro.status).toBe(200);
    expect(intro.text).toContain('New text.');
    expect(intro.text).not.toContain('Old text.');
    expect(hrefs(intro.text)).toContain(`${new URL(url).pathname}/guides/third`);
    const after = await open(h.current, `${url}/second`);
    expect(after.status).toBe(200);
    expect(after.text).toMatch(/rel="next">→ Third/);
    expect((await open(h.current, `${url}/third`)).text).toContain('Third text.');
  });

  it('takes the site down right after a cached read when it is unpublished, its visibility changes or it is deleted', async () => {
    const admin = await h.current.newAdmin();
    const { site, url } = await publishedSite(admin);
    const path = sitePath(admin, site.id);
    expect((await readTwice(`${url}/intro`)).status).toBe(200);

    expect((await admin.api.post(`${path}/unpublish`)).status).toBe(200);
    const down = await open(h.current, `${url}/intro`);
    expect(down.status).toBe(404);
    expect(down.text).not.toContain('Old text.');
    expect((await publish(admin, site.id)).urls.published).toBe(url);
    expect((await readTwice(`${url}/intro`)).status).toBe(200);

    // share-link: the open URL leads nowhere at once; the one with the key answers.
    const shared = await admin.api.patch(path, { visibility: 'share-link' });
    expect(shared.status).toBe(200);
    expect((await open(h.current, `${url}/intro`)).status).toBe(404);
    const withKey: string = (await admin.api.get(path)).body.urls.published;
    expect(withKey).toContain('/~s/');
    expect((await readTwice(`${withKey}/intro`)).text).toContain('Old text.');

    // visitor-auth: neither URL answers without a token.
    expect((await admin.api.patch(path, { visibility: 'visitor-auth' })).status).toBe(200);
    const keyRefused = await open(h.current, `${withKey}/intro`);
    expect(keyRefused.status).toBe(401);
    expect(keyRefused.text).not.toContain('Old text.');
    const refused = await open(h.current, `${url}/intro`);
    expect(refused.status).toBe(401);
    expect(refused.text).not.toContain('Old text.');

    expect((await admin.api.patch(path, { visibility: 'unlisted' })).status).toBe(200);
    const unlisted = await open(h.current, `${url}/intro`);
    expect(unlisted.status).toBe(200);
    expect(unlisted.text).toContain('<meta name="robots" content="noindex">');
    expect((await admin.api.delete(path)).status).toBe(204);
    expect((await open(h.current, `${url}/intro`)).status).toBe(404);
  });

  it('shows a customization, a section or a site space change and a trashed space at the next read', async () => {
    const admin = await h.current.newAdmin();
    const { site, url } = await publishedSite(admin);
    const path = sitePath(admin, site.id);
    expect((await readTwice(`${url}/intro`)).text).toContain('<title>Intro | Cached docs</title>');

    expect((await admin.api.put(`${path}/customization`, { title: 'Renamed docs' })).status).toBe(200);
    expect((await open(h.current, `${url}/intro`)).text).toContain('<title>Intro | Renamed docs</title>');

    const other = await spaceWithPages(admin, 'Other', [{ title: 'Elsewhere', markdown: 'Other text.' }]);
    const section = await admin.api.post(`${path}/sections`, { spaceId: other, title: 'Reference' });
    expect(section.status).toBe(200);
    const withSection = await readTwice(url);
    expect(withSection.text).toContain('>Reference</a>');
    expect((await admin.api.patch(`${path}/sections/${section.body.id}`, { title: 'API reference' })).status).toBe(200);
    const renamed = await open(h.current, url);
    expect(renamed.text).toContain('>API reference</a>');
    expect(renamed.text).not.toContain('>Reference</a>');

    const sectionUrl = `${url}/${section.body.path}`;
    expect((await readTwice(sectionUrl)).text).toContain('Other text.');
    expect((await admin.api.delete(`/spaces/${other}`)).status).toBe(204);
    const trashed = await open(h.current, sectionUrl);
    expect(trashed.text).not.toContain('Other text.');
  });

  it('never gives a reader a page made for other claims, and shows a page condition changed by a merge at once', async () => {
    const admin = await h.current.newAdmin();
    const space = await spaceWithPages(admin, 'Guides', [{ title: 'Intro', markdown: 'For everyone.' }]);
    await mergeChanges(admin, space, [{ operation: 'insert_page', title: 'Beta', document: { markdown: 'Beta only.' }, condition: 'visitor.claims.isBetaUser' }]);
    const site = await newSite(admin, { title: 'Adaptive', spaces: [space] });
    const path = sitePath(admin, site.id);
    await enableAdaptiveContent(admin, site.id);
    const url: string = (await publish(admin, site.id)).urls.published;
    const key: string = (await admin.api.get(`${path}/publishing/auth`)).body.privateKey;
    const entry = await open(h.current, `${url}/intro?jwt_token=${await signVisitorToken({ isBetaUser: true }, key)}`);
    expect(entry.status).toBe(302);
    const beta = entry.headers['set-cookie'] as unknown as string[];
    const base = `${new URL(url).pathname}/guides`;

    // Interleaved, each answer after the other reader's answer to the same URL was cached.
    for (let i = 0; i < 2; i++) {
      const betaIntro = await open(h.current, `${url}/intro`, beta);
      expect(betaIntro.status).toBe(200);
      expect(hrefs(betaIntro.text)).toContain(`${base}/beta`);
      const anonIntro = await open(h.current, `${url}/intro`);
      expect(anonIntro.status).toBe(200);
      expect(hrefs(anonIntro.text)).not.toContain(`${base}/beta`);
      expect(anonIntro.text).not.toContain('Beta');
      const betaPage = await open(h.current, `${url}/beta`, beta);
      expect(betaPage.status).toBe(200);
      expect(betaPage.text).toContain('Beta only.');
      const anonPage = await open(h.current, `${url}/beta`);
      expect(anonPage.status).toBe(404);
      expect(anonPage.text).not.toContain('Beta only.');
    }

    // The condition removed by a merge (`""`): every reader sees the page at the next read.
    await mergeChanges(admin, space, [{ operation: 'update_page', page: await pageId(admin, space, 'Beta'), condition: '' }]);
    const opened = await open(h.current, `${url}/beta`);
    expect(opened.status).toBe(200);
    expect(opened.text).toContain('Beta only.');

    // And a visibility switch to visitor-auth refuses the reader without a token right after their cached read.
    expect((await readTwice(`${url}/intro`)).status).toBe(200);
    expect((await admin.api.patch(path, { visibility: 'visitor-auth' })).status).toBe(200);
    expect((await open(h.current, `${url}/intro`)).status).toBe(401);
    expect((await open(h.current, `${url}/intro`, beta)).status).toBe(200);
  });

  it('adds the script of an integration installed on the site right after a cached read, and drops it once uninstalled', async () => {
    const admin = await h.current.newAdmin();
    const { site, url } = await publishedSite(admin);
    expect((await readTwice(`${url}/intro`)).text).not.toContain('<script');
    const name = `cache-script-${Date.now().toString(36)}`;
    await publishAs(admin, name, { script: 'export default { async fetch() { return new Response("ok") } }', scopes: ['site:script:inject'] });
    const installation = await admin.api.post(`/integrations/${name}/installations`, { organization: admin.organizationId });
    expect(installation.status).toBe(200);
    const onSite = await admin.api.post(`/integrations/${name}/installations/${installation.body.id}/sites`, { siteId: site.id });
    expect(onSite.status).toBe(201);
    const withScript = await readTwice(`${url}/intro`);
    const src = `https://api.test.example/integrations/${name}/installations/${installation.body.id}/sites/${site.id}/script.js`;
    expect(withScript.text).toContain(`<script src="${src}" defer></script>`);
    const profile = await admin.api.get(`${sitePath(admin, site.id)}/published`);
    expect(profile.status).toBe(200);
    expect(profile.body.scripts).toEqual([{ script: src, cookies: false }]);
    expect((await admin.api.delete(`/integrations/${name}/installations/${installation.body.id}/sites/${site.id}`)).status).toBe(204);
    expect((await open(h.current, `${url}/intro`)).text).not.toContain('<script');
  });

  it('shows a change another process made in the database at the next read (the cache is checked against it)', async () => {
    const admin = await h.current.newAdmin();
    const other = await spaceWithPages(admin, 'Other', [{ title: 'Elsewhere', markdown: 'Other text.' }]);
    const { site, url } = await publishedSite(admin);
    const section = await admin.api.post(`${sitePath(admin, site.id)}/sections`, { spaceId: other, title: 'Reference' });
    expect(section.status).toBe(200);
    expect((await readTwice(url)).text).toContain('>Reference</a>');

    await h.current.db.update(siteSections).set({ title: 'Written elsewhere' }).where(eq(siteSections.id, section.body.id));
    expect((await open(h.current, url)).text).toContain('>Written elsewhere</a>');
    await h.current.db.update(sites).set({ published: false }).where(eq(sites.id, site.id));
    expect((await open(h.current, url)).status).toBe(404);
  });
});
