// Site redirects: the six operations, and the published site following a live redirect (a draft is not).
import { describe, expect, it } from 'vitest';
import { apiClient } from './support/api.js';
import { useHarness, type Account } from './support/harness.js';
import { open, publish, spaceWithPages } from './published-support.js';
import { newSite, sitePath } from './sites-support.js';

const h = useHarness();

async function publishedSite(admin: Account) {
  const space = await spaceWithPages(admin, 'Guides', [
    { title: 'Welcome', markdown: 'Welcome, reader.' },
    { title: 'Install', markdown: 'Install it.' },
  ]);
  const site = await newSite(admin, { title: 'Docs', spaces: [space] });
  const url: string = (await publish(admin, site.id)).urls.published;
  const siteSpaces = await admin.api.get(`${sitePath(admin, site.id)}/site-spaces`);
  expect(siteSpaces.status).toBe(200);
  const pages = await admin.api.get(`/spaces/${space}/content/pages`);
  expect(pages.status).toBe(200);
  const install = pages.body.pages.find((p: { title: string }) => p.title === 'Install');
  return { site, space, url, siteSpace: siteSpaces.body.items[0], install };
}

describe('site redirects', () => {
  it('are created, listed, updated, found by source and deleted; the site follows the live ones', async () => {
    const admin = await h.current.newAdmin();
    const { site, space, url, siteSpace, install } = await publishedSite(admin);
    const base = `${sitePath(admin, site.id)}/redirects`;

    const created = await admin.api.post(base, { source: '/old/install', permanent: true, destination: { kind: 'path', spaceId: space, path: 'install' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ object: 'site-redirect', source: '/old/install', draft: false, permanent: true, destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: install.id } });
    expect(created.body.updatedAt).toBeUndefined();
    const again = await admin.api.post(base, { source: '/old/install', destination: { kind: 'external', url: 'https://example.com/' } });
    expect(again.status).toBe(409);
    const wrong = await admin.api.post(base, { source: '/x', destination: { kind: 'site-space', siteSpaceId: 'sts_nope' } });
    expect(wrong.status).toBe(404);
    expect(wrong.body.error.message).toContain('body.destination.siteSpaceId');
    const badSource = await admin.api.post(base, { source: 'no-slash', destination: { kind: 'external', url: 'https://example.com/' } });
    expect(badSource.status).toBe(400);
    expect(badSource.body.error.message).toContain('source');

    // The published site follows it: 308, to the page at its current path (a public site).
    const followed = await open(h.current, `${url}/old/install`);
    expect(followed.status).toBe(308);
    expect(followed.headers.location).toBe(`${new URL(url).pathname}/guides/install`);
    expect((await open(h.current, new URL(followed.headers.location, url).toString())).text).toContain('Install it.');

    // A wildcard source capturing what follows; a draft is not followed until published.
    const wild = await admin.api.post(base, { source: '/legacy/*', captureWildcard: true, destination: { kind: 'external', url: 'https://example.com/docs' } });
    expect(wild.status).toBe(201);
    const external = await open(h.current, `${url}/legacy/a/b`);
    expect(external.status).toBe(307);
    expect(external.headers.location).toBe('https://example.com/docs/a/b');
    const draft = await admin.api.post(base, { source: '/drafted', draft: true, destination: { kind: 'site-space', siteSpaceId: siteSpace.id } });
    expect(draft.status).toBe(201);
    expect((await open(h.current, `${url}/drafted`)).status).toBe(404);

    const live = await admin.api.get(base);
    expect(live.status).toBe(200);
    expect(live.body.items.map((r: { source: string }) => r.source)).toEqual(['/legacy/*', '/old/install']);
    expect(live.body.count).toBe(2);
    const drafts = await admin.api.get(base, { draft: 'true' });
    expect(drafts.body.items.map((r: { source: string }) => r.source)).toEqual(['/drafted']);
    const bySource = await admin.api.get(base, { orderBy: 'source', limit: '1' });
    expect(bySource.body.items.map((r: { source: string }) => r.source)).toEqual(['/legacy/*']);
    const next = await admin.api.get(base, { orderBy: 'source', limit: '1', page: bySource.body.next.page });
    expect(next.body.items.map((r: { source: string }) => r.source)).toEqual(['/old/install']);
    const searched = await admin.api.get(base, { search: 'LEGACY' });
    expect(searched.body.items).toHaveLength(1);

    const found = await admin.api.get(`${sitePath(admin, site.id)}/redirect`, { source: '/old/install' });
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ redirect: { id: created.body.id }, target: `${url}/guides/install` });
    const underWild = await admin.api.get(`${sitePath(admin, site.id)}/redirect`, { source: '/legacy/x' });
    expect(underWild.body.target).toBe('https://example.com/docs/x');
    // The site's own API token (what resolving its URL hands the renderer) reads it too: its grant carries the lookup's reads.
    const resolved = await admin.api.get('/urls/published', { url });
    const renderer = apiClient(h.current.app, resolved.body.apiToken);
    const viaSiteToken = await renderer.get(`${sitePath(admin, site.id)}/redirect`, { source: '/old/install' });
    expect(viaSiteToken.status).toBe(200);
    expect(viaSiteToken.body).toEqual(found.body);
    expect((await admin.api.get(`${sitePath(admin, site.id)}/redirect`, { source: '/nothing' })).status).toBe(404);

    const updated = await admin.api.patch(`${base}/${draft.body.id}`, { draft: false, permanent: false });
    expect(updated.status).toBe(200);
    expect(updated.body.draft).toBe(false);
    expect(updated.body.updatedAt).toBeDefined();
    const nowLive = await open(h.current, `${url}/drafted`);
    expect(nowLive.status).toBe(307);
    expect(nowLive.headers.location).toBe(`${new URL(url).pathname}/guides`);

    expect((await admin.api.delete(`${base}/${created.body.id}`)).status).toBe(205);
    expect((await admin.api.delete(`${base}/${created.body.id}`)).status).toBe(204);
    expect((await open(h.current, `${url}/old/install`)).status).toBe(404);
    expect((await admin.api.patch(`${base}/${created.body.id}`, { permanent: true })).status).toBe(404);
  });

  it('are upserted, deleted and published in bulk, each item on its own', async () => {
    const admin = await h.current.newAdmin();
    const { site, url, siteSpace } = await publishedSite(admin);
    const base = `${sitePath(admin, site.id)}/redirects`;
    const first = await admin.api.put(base, {
      redirects: [
        { source: '/a', destination: { kind: 'site-space', siteSpaceId: siteSpace.id } },
        { source: '/b', intent: 'draft', destination: { kind: 'external', url: 'https://example.com/b' } },
        { source: '/c', destination: { kind: 'site-section', siteSectionId: 'sec_nope' } },
        { source: '/d', intent: 'publish' },
      ],
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.results.map((r: { status: string }) => r.status)).toEqual(['created', 'created', 'error', 'error']);
    const second = await admin.api.put(base, {
      redirects: [
        { source: '/a', destination: { kind: 'external', url: 'https://example.com/a' }, permanent: true },
        { source: '/b', intent: 'publish' },
        { source: '/a', intent: 'draft', destination: null },
      ],
    });
    expect(second.body.results).toMatchObject([
      { status: 'updated', source: '/a', draft: false, id: first.body.results[0].id },
      { status: 'published', source: '/b', draft: false, id: first.body.results[1].id },
      { status: 'deleted', source: '/a', draft: true },
    ]);
    const a = await open(h.current, `${url}/a`);
    expect(a.status).toBe(308);
    expect(a.headers.location).toBe('https://example.com/a');
    expect((await open(h.current, `${url}/b`)).headers.location).toBe('https://example.com/b');
    const removed = await admin.api.put(base, { redirects: [{ source: '/a', destination: null }] });
    expect(removed.body.results[0].status).toBe('deleted');
    expect((await open(h.current, `${url}/a`)).status).toBe(404);
    // Items see what the items before them in the same request did: a draft published over the live redirect
    // it was made beside replaces it, a redirect created and deleted in one request leaves nothing.
    const third = await admin.api.put(base, {
      redirects: [
        { source: '/e', destination: { kind: 'external', url: 'https://example.com/e1' } },
        { source: '/e', intent: 'draft', destination: { kind: 'external', url: 'https://example.com/e2' } },
        { source: '/e', intent: 'publish' },
        { source: '/f', destination: { kind: 'external', url: 'https://example.com/f' } },
        { source: '/f', destination: null },
      ],
    });
    expect(third.status, JSON.stringify(third.body)).toBe(200);
    expect(third.body.results.map((r: { status: string }) => r.status)).toEqual(['created', 'created', 'published', 'created', 'deleted']);
    expect(third.body.results[2].id).toBe(third.body.results[1].id);
    const listed = await admin.api.get(base);
    expect(listed.status).toBe(200);
    const bySource = listed.body.items.filter((r: { source: string }) => r.source === '/e' || r.source === '/f');
    expect(bySource).toMatchObject([{ source: '/e', draft: false, id: third.body.results[1].id, destination: { kind: 'external', url: 'https://example.com/e2' } }]);
    expect(bySource[0].updatedAt).toBeDefined();
    expect((await open(h.current, `${url}/e`)).headers.location).toBe('https://example.com/e2');
    const member = await h.current.newMember(admin.organizationId, 'read');
    expect((await member.api.put(base, { redirects: [{ source: '/z', destination: null }] })).status).toBe(403);
    expect((await member.api.get(base)).status).toBe(200);
  });
});
