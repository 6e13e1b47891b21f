// Who may read a published site: share-link sites only with their key in the URL, visitor-auth sites only
// with a visitor JWT signed with the site's key; adaptive content from the visitor's claims; custom
// hostnames; the API's published URLs agree with what is served.
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { siteSpaces } from '../server/db/schema/index.js';
import { useHarness, type Account } from './support/harness.js';
import { open, publish, spaceWithPages } from './published-support.js';
import { enableAdaptiveContent, newSite, signVisitorToken, sitePath } from './sites-support.js';

const h = useHarness();

async function siteWith(admin: Account, body: object) {
  const space = await spaceWithPages(admin, 'Guides', [
    { title: 'Welcome', markdown: 'Welcome, reader.' },
    { title: 'Second', markdown: 'More.' },
  ]);
  const site = await newSite(admin, { title: 'Private docs', spaces: [space], ...body });
  return { site, space };
}

describe('share-link sites', () => {
  it('are served only under their key; no key, a wrong key or an unpublished site is the same bare 404', async () => {
    const admin = await h.current.newAdmin();
    const { site, space } = await siteWith(admin, { visibility: 'share-link' });
    const published = await publish(admin, site.id);
    const url: string = published.urls.published;
    expect(url).toMatch(new RegExp(`/sites/${admin.organizationId}/${site.id}/~s/[A-Za-z0-9_-]+$`));
    const ok = await open(h.current, url);
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('Welcome, reader.');
    expect(ok.headers['x-robots-tag']).toBe('noindex');
    // Kept by the reader's browser only (reader-caching.ts), which asks again each time.
    expect(ok.headers['cache-control']).toBe('private, no-cache');
    const second = await open(h.current, `${url}/guides/second`);
    expect(second.status).toBe(200);
    expect(second.text).toContain(`href="${new URL(url).pathname}/guides/welcome"`); // links keep the key

    const bare = await open(h.current, `https://api.test.example/sites/${admin.organizationId}/sit_nope`);
    const noKey = await open(h.current, url.replace(/\/~s\/.*$/, ''));
    const wrongKey = await open(h.current, url.replace(/[^/]+$/, 'wrong-key'));
    const noKeyPage = await open(h.current, url.replace(/\/~s\/.*$/, '/guides/second'));
    for (const res of [noKey, wrongKey, noKeyPage]) {
      expect(res.status).toBe(404);
      expect(res.text).toBe(bare.text);
    }

    // The API resolves published URLs only with the key.
    const key = url.split('/').pop()!;
    const spaces = await admin.api.get(`${sitePath(admin, site.id)}/site-spaces`);
    expect(spaces.status).toBe(200);
    expect(spaces.body.items[0].urls.published).toBeUndefined();
    const withKey = await admin.api.get(`${sitePath(admin, site.id)}/site-spaces`, { shareKey: key });
    expect(withKey.body.items[0].urls.published).toBe(`${url}/guides`);
    expect((await open(h.current, withKey.body.items[0].urls.published)).status).toBe(200);
    const wrong = await admin.api.get(`${sitePath(admin, site.id)}/site-spaces`, { shareKey: 'wrong' });
    expect(wrong.body.items[0].urls.published).toBeUndefined();
    const sections = await admin.api.get(`${sitePath(admin, site.id)}/sections`, { shareKey: key });
    expect(sections.status).toBe(200);
    const got = await admin.api.get(`/spaces/${space}`);
    expect(got.status).toBe(200);
    expect(got.body.urls.published).toBeUndefined();
    const gotWithKey = await admin.api.get(`/spaces/${space}`, { shareKey: key });
    expect(gotWithKey.body.urls.published).toBe(`${url}/guides`);

    expect((await admin.api.post(`${sitePath(admin, site.id)}/unpublish`)).status).toBe(200);
    expect((await open(h.current, url)).status).toBe(404);
  });

  it('gives sections and site spaces published URLs that answer, and shows a public space\'s URL in getSpaceById', async () => {
    const admin = await h.current.newAdmin();
    const { site, space } = await siteWith(admin, {});
    const before = await admin.api.get(`/spaces/${space}`);
    expect(before.body.urls.published).toBeUndefined(); // not published yet
    const url = (await publish(admin, site.id)).urls.published;
    const got = await admin.api.get(`/spaces/${space}`);
    expect(got.body.urls.published).toBe(`${url}/guides`);
    expect((await open(h.current, got.body.urls.published)).status).toBe(200);
  });
});

describe('visitor-auth sites', () => {
  it('refuse a token once it expires, though it was accepted (and its verification remembered) before', async () => {
    const admin = await h.current.newAdmin();
    const { site } = await siteWith(admin, { visibility: 'visitor-auth' });
    const url = (await publish(admin, site.id)).urls.published;
    const auth = await admin.api.get(`${sitePath(admin, site.id)}/publishing/auth`);
    expect(auth.status).toBe(200);
    const expiresAt = Math.floor(Date.now() / 1000) + 60;
    const entry = await open(h.current, `${url}?jwt_token=${await signVisitorToken({ sub: 'reader-2' }, auth.body.privateKey, expiresAt)}`);
    expect(entry.status).toBe(302);
    const cookies = entry.headers['set-cookie'] as unknown as string[];
    for (let i = 0; i < 2; i++) expect((await open(h.current, `${url}/guides/second`, cookies)).status).toBe(200);
    // The clock past the token's expiry (Date only: the server runs in this process).
    vi.useFakeTimers({ toFake: ['Date'], now: (expiresAt + 1) * 1000 });
    try {
      const late = await open(h.current, `${url}/guides/second`, cookies);
      expect(late.status).toBe(401);
      expect(late.text).not.toContain('More.');
    } finally {
      vi.useRealTimers();
    }
  });

  it('are served only with a visitor JWT signed with the site key; expired, wrongly signed or missing tokens are refused', async () => {
    const admin = await h.current.newAdmin();
    const { site } = await siteWith(admin, { visibility: 'visitor-auth' });
    const url = (await publish(admin, site.id)).urls.published;
    const auth = await admin.api.get(`${sitePath(admin, site.id)}/publishing/auth`);
    expect(auth.status).toBe(200);
    expect(auth.body).toMatchObject({ object: 'publishing-auth', backend: 'custom' });
    const key: string = auth.body.privateKey;
    expect(key.length).toBeGreaterThanOrEqual(32);

    const none = await open(h.current, url);
    expect(none.status).toBe(401);
    expect(none.text).not.toContain('Welcome, reader.');

    // The token comes once in the URL, is kept in a cookie, and the reader is sent to the clean URL.
    const entry = await open(h.current, `${url}/guides/second?jwt_token=${await signVisitorToken({ sub: 'reader-1' }, key)}`);
    expect(entry.status).toBe(302);
    expect(entry.headers.location).toBe(`${new URL(url).pathname}/guides/second`);
    const cookies = entry.headers['set-cookie'] as unknown as string[];
    expect(cookies[0]).toMatch(/HttpOnly/i);
    const page = await open(h.current, `${url}/guides/second`, cookies);
    expect(page.status).toBe(200);
    expect(page.text).toContain('More.');

    const refused = async (token: string) => {
      const step = await open(h.current, `${url}?jwt_token=${token}`);
      expect(step.status).toBe(302);
      const res = await open(h.current, url, step.headers['set-cookie'] as unknown as string[]);
      expect(res.status).toBe(401);
      expect(res.text).not.toContain('Welcome, reader.');
    };
    await refused(await signVisitorToken({ sub: 'late' }, key, '-1m')); // expired
    await refused(await signVisitorToken({ sub: 'forger' }, 'another-key-of-the-same-length-xxxxxxxxxx')); // wrongly signed
    await refused('not.a.jwt');

    // Regenerating the key refuses tokens signed with the old one at once.
    const regenerated = await admin.api.post(`${sitePath(admin, site.id)}/publishing/auth/regenerate`);
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.privateKey).not.toBe(key);
    expect((await open(h.current, `${url}/guides/second`, cookies)).status).toBe(401);
    const fresh = await open(h.current, `${url}?jwt_token=${await signVisitorToken({}, regenerated.body.privateKey)}`);
    expect((await open(h.current, url, fresh.headers['set-cookie'] as unknown as string[])).status).toBe(200);

    // A fallback URL sends visitors without a valid token to sign in.
    const patched = await admin.api.patch(`${sitePath(admin, site.id)}/publishing/auth`, { backend: 'custom', fallbackURL: 'https://login.example.com/docs' });
    expect(patched.status).toBe(200);
    expect(patched.body.fallbackURL).toBe('https://login.example.com/docs');
    const redirected = await open(h.current, url);
    expect(redirected.status).toBe(302);
    expect(redirected.headers.location).toMatch(/^https:\/\/login\.example\.com\/docs\?location=/);
    const bad = await admin.api.patch(`${sitePath(admin, site.id)}/publishing/auth`, { backend: 'custom', fallbackURL: 'javascript:alert(1)' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('body.fallbackURL');
    expect((await admin.api.get(`${sitePath(admin, 'sit_nope')}/publishing/auth`)).status).toBe(404);
  });

  it('keeps the key from members below admin', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const site = await newSite(admin, { visibility: 'visitor-auth' });
    expect((await editor.api.get(`${sitePath(admin, site.id)}/publishing/auth`)).status).toBe(403);
    expect((await editor.api.post(`${sitePath(admin, site.id)}/publishing/auth/regenerate`)).status).toBe(403);
  });
});

describe('adaptive content', () => {
  it('shows sections and site spaces whose conditions the visitor\'s claims meet, signed or unsigned as the schema allows', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin, { title: 'Adaptive' });
    const everyone = await spaceWithPages(admin, 'Everyone', [{ title: 'Hello', markdown: 'For all.' }]);
    const beta = await spaceWithPages(admin, 'Beta', [{ title: 'Beta page', markdown: 'Beta only.' }]);
    const dark = await spaceWithPages(admin, 'Dark', [{ title: 'Dark page', markdown: 'Dark only.' }]);
    const s1 = await admin.api.post(`${sitePath(admin, site.id)}/sections`, { spaceId: everyone, title: 'Everyone' });
    const s2 = await admin.api.post(`${sitePath(admin, site.id)}/sections`, { spaceId: beta, title: 'Beta' });
    const s3 = await admin.api.post(`${sitePath(admin, site.id)}/sections`, { spaceId: dark, title: 'Dark' });
    expect([s1.status, s2.status, s3.status]).toEqual([200, 200, 200]);
    expect((await admin.api.patch(`${sitePath(admin, site.id)}/sections/${s2.body.id}`, { condition: 'visitor.claims.isBetaUser' })).status).toBe(200);
    expect((await admin.api.patch(`${sitePath(admin, site.id)}/sections/${s3.body.id}`, { condition: 'visitor.claims.unsigned.prefersDark && !visitor.claims.isBetaUser' })).status).toBe(200);
    await enableAdaptiveContent(admin, site.id);
    const url = (await publish(admin, site.id)).urls.published;
    const key = (await admin.api.get(`${sitePath(admin, site.id)}/publishing/auth`)).body.privateKey;

    const anonymous = await open(h.current, url);
    expect(anonymous.status).toBe(200);
    expect(anonymous.text).toContain('>Everyone</a>');
    expect(anonymous.text).not.toContain('>Beta</a>');
    expect(anonymous.text).not.toContain('>Dark</a>');
    expect((await open(h.current, `${url}/beta`)).text).not.toContain('Beta only.');

    const betaEntry = await open(h.current, `${url}/beta?jwt_token=${await signVisitorToken({ isBetaUser: true }, key)}`);
    const betaCookies = betaEntry.headers['set-cookie'] as unknown as string[];
    const betaPage = await open(h.current, `${url}/beta`, betaCookies);
    expect(betaPage.text).toContain('Beta only.');
    expect(betaPage.text).toContain('>Beta</a>');

    // A signed claim cannot be forged: a wrongly signed token gives no claims.
    const forged = await open(h.current, `${url}/beta?jwt_token=${await signVisitorToken({ isBetaUser: true }, 'another-key-of-the-same-length-xxxxxxxxxx')}`);
    expect((await open(h.current, `${url}/beta`, forged.headers['set-cookie'] as unknown as string[])).text).not.toContain('Beta only.');
    // An unsigned claim the schema allows works; one it does not allow (isBetaUser unsigned) is ignored.
    const darkEntry = await open(h.current, `${url}/dark?visitor.prefersDark=true&visitor.isBetaUser=true`);
    expect(darkEntry.status).toBe(302);
    const darkCookies = darkEntry.headers['set-cookie'] as unknown as string[];
    const darkPage = await open(h.current, `${url}/dark`, darkCookies);
    expect(darkPage.text).toContain('Dark only.');
    expect(darkPage.text).not.toContain('>Beta</a>');
    // Claims of the wrong type are dropped.
    const wrongType = await open(h.current, `${url}/dark?visitor.prefersDark=yes`);
    expect((await open(h.current, `${url}/dark`, wrongType.headers['set-cookie'] as unknown as string[])).text).not.toContain('Dark only.');
  });

  it('refuses a site space condition outside the grammar, and one stored before conditions were checked hides its item', async () => {
    const admin = await h.current.newAdmin();
    const first = await spaceWithPages(admin, 'Visible', [{ title: 'Seen', markdown: 'Seen.' }]);
    const second = await spaceWithPages(admin, 'Broken', [{ title: 'Unseen', markdown: 'Unseen.' }]);
    const site = await newSite(admin, { spaces: [first, second] });
    expect((await admin.api.put(`${sitePath(admin, site.id)}/adaptive-schema`, { jsonSchema: { type: 'object', properties: {}, additionalProperties: false } })).status).toBe(200);
    expect((await admin.api.patch(sitePath(admin, site.id), { adaptiveContent: { enabled: true } })).status).toBe(200);
    const spaces = (await admin.api.get(`${sitePath(admin, site.id)}/site-spaces`)).body.items;
    const refused = await admin.api.patch(`${sitePath(admin, site.id)}/site-spaces/${spaces[1].id}`, { condition: 'process.exit()' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('body.condition: at character 13: function calls are not in the grammar');
    await h.current.db.update(siteSpaces).set({ condition: 'process.exit()' }).where(eq(siteSpaces.id, spaces[1].id));
    const url = (await publish(admin, site.id)).urls.published;
    expect((await open(h.current, `${url}/visible`)).text).toContain('Seen.');
    const hidden = await open(h.current, `${url}/broken`);
    expect(hidden.text).not.toContain('Unseen.');
  });
});

describe('served URLs', () => {
  it('serves a site on its custom hostname, and the organization hostname names its path', async () => {
    const admin = await h.current.newAdmin();
    const { site } = await siteWith(admin, {});
    const slug = `acme${Date.now()}`;
    expect((await admin.api.patch(`/orgs/${admin.organizationId}`, { hostname: slug })).status).toBe(200);
    expect((await admin.api.patch(sitePath(admin, site.id), { basename: 'developers' })).status).toBe(200);
    const byOrgName = (await publish(admin, site.id)).urls.published;
    expect(byOrgName).toBe(`https://api.test.example/sites/${slug}/developers`);
    expect((await open(h.current, byOrgName)).status).toBe(200);
    const hostname = `docs${Date.now()}.acme.example.com`;
    const patched = await admin.api.patch(sitePath(admin, site.id), { hostname });
    expect(patched.body.urls.published).toBe(`https://${hostname}`);
    const res = await open(h.current, `https://${hostname}/guides/second`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('More.');
    expect((await open(h.current, `https://${hostname}/sitemap.xml`)).text).toContain(`<loc>https://${hostname}/guides/welcome</loc>`);
    // The API is not a site's, whatever the host.
    expect((await open(h.current, `https://${hostname}/v1/user`)).status).toBe(401);
  });

  it('answers urls.app under this server with a page saying where the web app is', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin);
    const res = await open(h.current, site.urls.app);
    expect(res.status).toBe(200);
    expect(res.text).toContain('APP_URL');
  });

  it('leaves site spaces of trashed spaces out of the published site and its profile', async () => {
    const admin = await h.current.newAdmin();
    const kept = await spaceWithPages(admin, 'Kept', [{ title: 'Kept page', markdown: 'Kept.' }]);
    const trashed = await spaceWithPages(admin, 'Trashed', [{ title: 'Trashed page', markdown: 'Trashed.' }]);
    const site = await newSite(admin, { spaces: [kept, trashed] });
    const url = (await publish(admin, site.id)).urls.published;
    expect((await open(h.current, `${url}/trashed`)).text).toContain('Trashed.');
    expect((await admin.api.delete(`/spaces/${trashed}`)).status).toBe(204);
    const gone = await open(h.current, `${url}/trashed/trashed-page`);
    expect(gone.text).not.toContain('Trashed.');
    const profile = await admin.api.get(`${sitePath(admin, site.id)}/published`);
    expect(profile.status).toBe(200);
    expect(Object.keys(profile.body.customizations.siteSpaces)).toHaveLength(1);
    const listed = (await admin.api.get(`${sitePath(admin, site.id)}/site-spaces`)).body.items;
    expect(listed.find((s: { space: { id: string } }) => s.space.id === trashed).urls.published).toBeUndefined();
  });
});
