// The page cache of published sites (server/published/page-cache.ts) never serves a stale page: every test
// reads a page twice (the second answer comes from the cache), changes something through the API or
// straight in the database (as another server process sharing it would), and reads again at once.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { integrationInstallations, integrations, integrationScripts, integrationSiteInstallations, organizations, siteRedirects, siteSections, sites, siteSpaces, spaces } from '../server/db/schema/index.js';
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
    // The site's own script (~assets) only: no integration's.
    const integrationScript = /<script src="(?![^"]*\/~assets\/)/;
    expect((await readTwice(`${url}/intro`)).text).not.toMatch(integrationScript);
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
    expect((await open(h.current, `${url}/intro`)).text).not.toMatch(integrationScript);
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
    // A site space's path, and a live redirect, changed straight in the database.
    const siteSpace = (await admin.api.get(`${sitePath(admin, site.id)}/site-spaces`)).body.items.find((s: { path: string }) => s.path === 'guides');
    expect(siteSpace).toBeDefined();
    expect((await readTwice(`${url}/guides/intro`)).text).toContain('Old text.');
    await h.current.db.update(siteSpaces).set({ path: 'manual' }).where(eq(siteSpaces.id, siteSpace.id));
    expect((await open(h.current, `${url}/guides/intro`)).status).toBe(404);
    expect((await readTwice(`${url}/manual/intro`)).text).toContain('Old text.');
    const redirect = await admin.api.post(`${sitePath(admin, site.id)}/redirects`, { source: '/gone', draft: true, destination: { kind: 'external', url: 'https://example.com/moved' } });
    expect(redirect.status).toBe(201);
    expect((await readTwice(`${url}/gone`)).status).toBe(404);
    await h.current.db.update(siteRedirects).set({ draft: false }).where(eq(siteRedirects.id, redirect.body.id));
    const followed = await open(h.current, `${url}/gone`);
    expect(followed.status).toBe(307);
    expect(followed.headers.location).toBe('https://example.com/moved');

    await h.current.db.update(sites).set({ published: false }).where(eq(sites.id, site.id));
    expect((await open(h.current, url)).status).toBe(404);
  });

  it('gives the site a new stamp at every change of what its pages are made of, whoever writes it, and none for what they are not', async () => {
    const admin = await h.current.newAdmin();
    const { space, site } = await publishedSite(admin);
    const elsewhere = await spaceWithPages(admin, 'Elsewhere', [{ title: 'Aside', markdown: 'Aside.' }]);
    const path = sitePath(admin, site.id);
    const db = h.current.db;
    const stamp = async () => (await db.select({ stamp: sites.servedStamp }).from(sites).where(eq(sites.id, site.id)))[0]!.stamp;
    const renews = async (what: string, write: () => Promise<unknown>) => {
      const before = await stamp();
      await write();
      expect(await stamp(), what).not.toBe(before);
    };
    const keeps = async (what: string, write: () => Promise<unknown>) => {
      const before = await stamp();
      await write();
      expect(await stamp(), what).toBe(before);
    };

    await renews('the site row', () => db.update(sites).set({ title: 'Renamed' }).where(eq(sites.id, site.id)));
    await renews('the organization hostname', () => db.update(organizations).set({ hostname: `docs-${Date.now().toString(36)}.example.com` }).where(eq(organizations.id, admin.organizationId)));
    const section = await admin.api.post(`${path}/sections`, { spaceId: elsewhere, title: 'Reference' });
    expect(section.status).toBe(200);
    await renews('a section', () => db.update(siteSections).set({ title: 'API' }).where(eq(siteSections.id, section.body.id)));
    const [siteSpace] = await db.select().from(siteSpaces).where(and(eq(siteSpaces.siteId, site.id), eq(siteSpaces.spaceId, space)));
    await renews('a site space', () => db.update(siteSpaces).set({ path: 'manual' }).where(eq(siteSpaces.id, siteSpace!.id)));
    await renews("a site space's space title", () => db.update(spaces).set({ title: 'Handbook' }).where(eq(spaces.id, space)));
    await renews("a site space's space put in the trash", () => db.update(spaces).set({ deletedAt: new Date() }).where(eq(spaces.id, space)));
    await renews("a site space's space restored", () => db.update(spaces).set({ deletedAt: null }).where(eq(spaces.id, space)));
    await renews('a merge', () => mergeChanges(admin, space, [{ operation: 'insert_page', title: 'Third', document: { markdown: 'Third text.' } }]));
    await keeps("a space's column the site does not show", () => db.update(spaces).set({ emoji: '📘' }).where(eq(spaces.id, space)));
    const other = await spaceWithPages(admin, 'Not on the site', [{ title: 'Aside', markdown: 'Aside.' }]);
    await keeps('a space on no site space of the site', () => db.update(spaces).set({ title: 'Renamed aside' }).where(eq(spaces.id, other)));
    await renews('a section deleted', () => db.delete(siteSections).where(eq(siteSections.id, section.body.id)));

    const draft = await admin.api.post(`${path}/redirects`, { source: '/draft', draft: true, destination: { kind: 'external', url: 'https://example.com/' } });
    expect(draft.status).toBe(201);
    await keeps('a draft redirect changed', () => db.update(siteRedirects).set({ permanent: true }).where(eq(siteRedirects.id, draft.body.id)));
    await renews('a draft redirect made live', () => db.update(siteRedirects).set({ draft: false }).where(eq(siteRedirects.id, draft.body.id)));
    await renews('a live redirect deleted', () => db.delete(siteRedirects).where(eq(siteRedirects.id, draft.body.id)));

    const name = `stamp-script-${Date.now().toString(36)}`;
    await publishAs(admin, name, { script: 'export default { async fetch() { return new Response("ok") } }', scopes: ['site:script:inject'] });
    const installation = await admin.api.post(`/integrations/${name}/installations`, { organization: admin.organizationId });
    expect(installation.status).toBe(200);
    await renews('an installation on the site', async () => {
      expect((await admin.api.post(`/integrations/${name}/installations/${installation.body.id}/sites`, { siteId: site.id })).status).toBe(201);
    });
    await renews('the site installation changed', () => db.update(integrationSiteInstallations).set({ status: 'paused' }).where(eq(integrationSiteInstallations.siteId, site.id)));
    await renews('the installation changed', () => db.update(integrationInstallations).set({ siteSelection: 'all' }).where(eq(integrationInstallations.id, installation.body.id)));
    await keeps("the installation's configuration", () => db.update(integrationInstallations).set({ configuration: { any: 'thing' } }).where(eq(integrationInstallations.id, installation.body.id)));
    await renews("the integration's scopes", () => db.update(integrations).set({ scopes: ['site:script:inject', 'site:script:cookies'] }).where(eq(integrations.name, name)));
    await renews("the integration's script removed", () => db.delete(integrationScripts).where(eq(integrationScripts.integrationName, name)));
    await renews('the installation removed', () => db.delete(integrationInstallations).where(eq(integrationInstallations.id, installation.body.id)));
  });
});
