// Commands on sites: created (with a space or none), spaces added, published and unpublished, deleted;
// the list of sites and their site spaces read back, and the published site opened as a reader would
// (its HTML shows a page of its first space while it is published, 404 otherwise).
import fc from 'fast-check';
import request from 'supertest';
import { expect } from 'vitest';
import { always, command, expectStatus, live, pick, word, type Cmd, type Model, type Real, type Site } from './model.js';

const hasSites = (m: Readonly<Model>) => m.sites.length > 0;
const sitePath = (r: Real, site: Site) => `/orgs/${r.admin.organizationId}/sites/${site.id}`;

async function expectSites(m: Model, r: Real): Promise<void> {
  const res = await r.admin.api.get(`/orgs/${r.admin.organizationId}/sites`, { limit: 100 });
  expectStatus(res, 200, 'listSites');
  const listed = res.body.items.map((s: { id: string; title: string; published?: boolean }) => [s.id, s.title]);
  expect(listed.sort()).toEqual(live(m.sites).map((s) => [s.id, s.title]).sort());
  expect(res.body.count).toBe(live(m.sites).length);
}

async function expectSite(m: Model, r: Real, site: Site): Promise<void> {
  const res = await r.admin.api.get(sitePath(r, site));
  if (site.deleted) return expectStatus(res, 404, `GET deleted site ${site.id}`);
  expectStatus(res, 200, 'getSiteById');
  expect(res.body.title).toBe(site.title);
  const spaces = await r.admin.api.get(`${sitePath(r, site)}/site-spaces`, { limit: 100 });
  expectStatus(spaces, 200, 'listSiteSpaces');
  expect(spaces.body.items.map((s: { space: { id: string } }) => s.space.id).sort()).toEqual([...site.spaces].sort());
  await expectPublished(m, r, site);
}

/** The published site as a reader opens it (no token, the URL's own host). */
async function expectPublished(m: Model, r: Real, site: Site): Promise<void> {
  const url = new URL(`https://api.test.example/sites/${r.admin.organizationId}/${site.id}`);
  const res = await request(r.h.app).get(url.pathname).set('Host', url.host).redirects(0);
  expect(res.status, `published site ${site.id}: ${res.status}`).toBeLessThan(500);
  if (site.deleted || !site.published || site.spaces.length === 0) return void expect(res.status).toBe(404);
  const first = m.spaces.find((s) => s.id === site.spaces[0])!;
  // A deleted space: what its site shows is not modelled (only that it is no 5xx).
  if (first.deleted) return;
  if (first.pages.length === 0) {
    expect(res.status).toBe(404);
    return void expect(res.text).toContain('This space has no pages.');
  }
  expect(res.status).toBe(200);
  const shown = /<title>(.*) \| (.*)<\/title>/.exec(res.text);
  expect(shown?.[2]).toBe(site.title);
  expect(first.pages.map((p) => p.title)).toContain(shown?.[1]);
}

export const siteCommands: fc.Arbitrary<Cmd>[] = [
  fc.tuple(word, fc.option(fc.nat(), { nil: undefined })).map(([t, n]) =>
    command(`createSite(${JSON.stringify(t)}, space #${n})`, always, async (m, r) => {
      const space = n === undefined ? undefined : pick(live(m.spaces), n);
      const res = await r.admin.api.post(`/orgs/${r.admin.organizationId}/sites`, { title: t, ...(space && { spaces: [space.id] }) });
      expectStatus(res, 201, 'createSite');
      const site: Site = { id: res.body.id, title: t, spaces: space ? [space.id] : [], published: false, deleted: false };
      m.sites.push(site);
      await expectSite(m, r, site);
      await expectSites(m, r);
    }),
  ),
  fc.tuple(fc.nat(), fc.nat()).map(([s, n]) =>
    command(`addSpaceToSite(#${s}, space #${n})`, hasSites, async (m, r) => {
      const site = pick(m.sites, s)!;
      const space = pick(live(m.spaces).filter((x) => !site.spaces.includes(x.id)), n);
      if (!space) return;
      const res = await r.admin.api.post(`${sitePath(r, site)}/site-spaces`, { spaceId: space.id });
      expectStatus(res, site.deleted ? 404 : 200, 'addSpaceToSite');
      if (res.status === 200) site.spaces.push(space.id);
      await expectSite(m, r, site);
    }),
  ),
  // Publishing and unpublishing are two commands (each as likely as any other), not one of two halves.
  ...[true, false].map((on) => fc.nat().map((s) =>
    command(`${on ? 'publishSite' : 'unpublishSite'}(#${s})`, hasSites, async (m, r) => {
      const site = pick(m.sites, s)!;
      const res = await r.admin.api.post(`${sitePath(r, site)}/${on ? 'publish' : 'unpublish'}`);
      expectStatus(res, site.deleted ? 404 : 200, on ? 'publishSite' : 'unpublishSite');
      if (res.status !== 200) return;
      site.published = on;
      expect(res.body.published).toBe(on);
      await expectSite(m, r, site);
    }),
  )),
  fc.nat().map((s) =>
    command(`deleteSite(#${s})`, hasSites, async (m, r) => {
      const site = pick(m.sites, s)!;
      const res = await r.admin.api.delete(sitePath(r, site));
      // Documented: no content also when the site no longer exists.
      expectStatus(res, 204, 'deleteSiteById');
      site.deleted = true;
      await expectSite(m, r, site);
      await expectSites(m, r);
    }),
  ),
  fc.nat().map((s) =>
    command(`openPublishedSite(#${s})`, hasSites, async (m, r) => expectPublished(m, r, pick(m.sites, s)!)),
  ),
];
