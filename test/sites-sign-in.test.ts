// Signing visitors in and out of a published site: publishing-auth `logoutURL` (as the public API has it),
// the site's `urls.login` and `urls.logout`, and what the served site does at them.
import { describe, expect, it } from 'vitest';
import { useHarness, type Account } from './support/harness.js';
import { hrefs, open, publish, spaceWithPages } from './published-support.js';
import { newSite, signVisitorToken, sitePath } from './sites-support.js';

const h = useHarness();

async function gatedSite(admin: Account, body: object = { visibility: 'visitor-auth' }, adaptive = false) {
  const space = await spaceWithPages(admin, 'Guides', [
    { title: 'Welcome', markdown: 'Welcome, reader.' },
    { title: 'Second', markdown: 'More.' },
  ]);
  const site = await newSite(admin, { title: 'Partner docs', spaces: [space], ...body });
  if (adaptive) expect((await admin.api.patch(sitePath(admin, site.id), { adaptiveContent: { enabled: true } })).status).toBe(200);
  const published = await publish(admin, site.id);
  const key: string = (await admin.api.get(`${sitePath(admin, site.id)}/publishing/auth`)).body.privateKey;
  return { site, published, key };
}

/** The cookies of a visitor who arrived with a token signed with `key`. */
async function signedIn(url: string, key: string): Promise<string[]> {
  const entry = await open(h.current, `${url}?jwt_token=${await signVisitorToken({ sub: 'reader' }, key)}`);
  expect(entry.status).toBe(302);
  return entry.headers['set-cookie'] as unknown as string[];
}

describe('publishing-auth logoutURL', () => {
  it('is stored, returned, kept when omitted and removed with null; fallbackURL is kept beside it', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin, { visibility: 'visitor-auth' });
    const path = `${sitePath(admin, site.id)}/publishing/auth`;
    expect((await admin.api.get(path)).body.logoutURL).toBeUndefined();
    const set = await admin.api.patch(path, { backend: 'custom', fallbackURL: 'https://auth.example.com/login', logoutURL: 'https://auth.example.com/logout' });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ fallbackURL: 'https://auth.example.com/login', logoutURL: 'https://auth.example.com/logout' });
    const onlyFallback = await admin.api.patch(path, { backend: 'custom', fallbackURL: 'https://auth.example.com/sign-in' });
    expect(onlyFallback.status).toBe(200);
    expect(onlyFallback.body.logoutURL).toBe('https://auth.example.com/logout');
    const read = await admin.api.get(path);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ fallbackURL: 'https://auth.example.com/sign-in', logoutURL: 'https://auth.example.com/logout' });
    const removed = await admin.api.patch(path, { backend: 'custom', logoutURL: null });
    expect(removed.status).toBe(200);
    expect(removed.body.logoutURL).toBeUndefined();
    expect(removed.body.fallbackURL).toBe('https://auth.example.com/sign-in');
    expect((await admin.api.post(`${path}/regenerate`)).body.fallbackURL).toBe('https://auth.example.com/sign-in');
  });

  it('refuses a logoutURL that is not an http(s) URL, naming it, and keeps it from members below admin', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const site = await newSite(admin, { visibility: 'visitor-auth' });
    const path = `${sitePath(admin, site.id)}/publishing/auth`;
    for (const logoutURL of ['javascript:alert(1)', 'not a url', 5]) {
      const res = await admin.api.patch(path, { backend: 'custom', logoutURL });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('body.logoutURL');
    }
    expect((await editor.api.patch(path, { backend: 'custom', logoutURL: 'https://auth.example.com/logout' })).status).toBe(403);
    expect((await admin.api.get(path)).body.logoutURL).toBeUndefined();
  });
});

describe('urls.login and urls.logout', () => {
  it('are given for a published site whose visitors carry a token, under its published URL, and not otherwise', async () => {
    const admin = await h.current.newAdmin();
    const { site, published } = await gatedSite(admin);
    expect(published.urls.login).toBe(`${published.urls.published}/~auth/login`);
    expect(published.urls.logout).toBe(`${published.urls.published}/~auth/logout`);
    const listed = await admin.api.get(`/orgs/${admin.organizationId}/sites`);
    expect(listed.status).toBe(200);
    expect(listed.body.items.find((s: { id: string }) => s.id === site.id).urls.logout).toBe(published.urls.logout);

    const open1 = await newSite(admin, { title: 'Open' });
    const openPublished = await publish(admin, open1.id);
    expect(openPublished.urls.login).toBeUndefined();
    expect(openPublished.urls.logout).toBeUndefined();
    // Adaptive content gives visitors a token on any visibility.
    const adaptive = await admin.api.patch(sitePath(admin, open1.id), { adaptiveContent: { enabled: true } });
    expect(adaptive.status).toBe(200);
    expect(adaptive.body.urls.login).toBe(`${openPublished.urls.published}/~auth/login`);

    const off = await admin.api.post(`${sitePath(admin, site.id)}/unpublish`);
    expect(off.status).toBe(200);
    expect(off.body.urls.login).toBeUndefined();
    expect(off.body.urls.logout).toBeUndefined();
  });
});

describe('signing in and out of a served site', () => {
  it('links "Sign out" from every page; signing out forgets the token and sends the visitor to the logoutURL', async () => {
    const admin = await h.current.newAdmin();
    const { site, published, key } = await gatedSite(admin);
    const url: string = published.urls.published;
    const cookies = await signedIn(url, key);
    const page = await open(h.current, `${url}/guides/second`, cookies);
    expect(page.status).toBe(200);
    expect(hrefs(page.text)).toContain(new URL(published.urls.logout).pathname);
    expect(page.text).toContain('>Sign out</a>');

    const auth = await admin.api.patch(`${sitePath(admin, site.id)}/publishing/auth`, { backend: 'custom', logoutURL: 'https://auth.example.com/logout' });
    expect(auth.status).toBe(200);
    const out = await open(h.current, published.urls.logout, cookies);
    expect(out.status).toBe(302);
    expect(out.headers.location).toBe('https://auth.example.com/logout');
    expect(out.headers['cache-control']).toBe('no-store');
    const cleared = (out.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith(`dw_visitor_${site.id}=`))!;
    expect(cleared).toMatch(/Max-Age=0/);
    expect(cleared).toContain(`Path=${new URL(url).pathname}`);
    // The browser drops the cookie: the next read is refused.
    const after = await open(h.current, `${url}/guides/second`, [cleared]);
    expect(after.status).toBe(401);
    expect(after.text).not.toContain('More.');

    // Without a logoutURL the visitor lands on the site's home (which asks them to sign in).
    expect((await admin.api.patch(`${sitePath(admin, site.id)}/publishing/auth`, { backend: 'custom', logoutURL: null })).status).toBe(200);
    const home = await open(h.current, published.urls.logout, await signedIn(url, key));
    expect(home.status).toBe(302);
    expect(home.headers.location).toBe(new URL(url).pathname);
  });

  it('sends a visitor who signs in to the fallbackURL with the page to come back to, never another site\'s', async () => {
    const admin = await h.current.newAdmin();
    const { site, published } = await gatedSite(admin);
    const base = new URL(published.urls.published).pathname;
    const none = await open(h.current, published.urls.login);
    expect(none.status).toBe(401); // no backend to send the visitor to: the sign-in page
    expect(none.text).toContain('Sign-in required');

    const auth = await admin.api.patch(`${sitePath(admin, site.id)}/publishing/auth`, { backend: 'custom', fallbackURL: 'https://auth.example.com/login?app=docs' });
    expect(auth.status).toBe(200);
    const toHome = await open(h.current, published.urls.login);
    expect(toHome.status).toBe(302);
    expect(toHome.headers.location).toBe(`https://auth.example.com/login?app=docs&location=${encodeURIComponent(base)}`);
    const back = await open(h.current, `${published.urls.login}?location=${encodeURIComponent(`${base}/guides/second`)}`);
    expect(back.headers.location).toBe(`https://auth.example.com/login?app=docs&location=${encodeURIComponent(`${base}/guides/second`)}`);
    for (const elsewhere of ['https://evil.example.com/', '/sites/other/site', `${base}-other/page`, '//evil.example.com/x', `${base}/\\evil`]) {
      const res = await open(h.current, `${published.urls.login}?location=${encodeURIComponent(elsewhere)}`);
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe(`https://auth.example.com/login?app=docs&location=${encodeURIComponent(base)}`);
    }
  });

  it('answers sign-in and sign-out under a share-link site\'s key only, and a public site without adaptive content has neither', async () => {
    const admin = await h.current.newAdmin();
    const { published } = await gatedSite(admin, { visibility: 'share-link' });
    expect(published.urls.logout).toBeUndefined(); // no tokens on a share-link site without adaptive content
    const plain = await open(h.current, `${published.urls.published}/~auth/logout`);
    expect(plain.status).toBe(404); // an ordinary path there: no such page
    const adaptive = await gatedSite(admin, { visibility: 'share-link' }, true);
    const withKey: string = adaptive.published.urls.logout;
    expect(withKey).toMatch(/\/~s\/[^/]+\/~auth\/logout$/);
    const out = await open(h.current, withKey);
    expect(out.status).toBe(302);
    expect(out.headers.location).toBe(new URL(adaptive.published.urls.published).pathname);
    const withoutKey = withKey.replace(/\/~s\/[^/]+/, '');
    expect((await open(h.current, withoutKey)).status).toBe(404);
  });
});
