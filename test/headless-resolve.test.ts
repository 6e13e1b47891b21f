// URL resolution (getPublishedContentByUrl, resolvePublishedContentByUrl) agrees with what the published site
// serves for the same URL, and the API token it hands out reads that site's published content and nothing else.
import { eq } from 'drizzle-orm';
import { decodeJwt, SignJWT } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { SITE_TOKEN_LIFETIME_MS } from '../server/auth/site-tokens.js';
import { sites, siteSpaces } from '../server/db/schema/index.js';
import { apiClient } from './support/api.js';
import { useHarness, type Account } from './support/harness.js';
import { open, publish, spaceWithPages } from './published-support.js';
import { enableAdaptiveContent, mergeChanges, newSite, signVisitorToken, sitePath } from './sites-support.js';

const h = useHarness();

type Page = { id: string; title: string; pages?: Page[] };

async function pagesOf(admin: Account, space: string): Promise<Page[]> {
  const res = await admin.api.get(`/spaces/${space}/content/pages`);
  expect(res.status).toBe(200);
  const flat: Page[] = [];
  const visit = (pages: Page[]) => pages.forEach((p) => (flat.push(p), visit(p.pages ?? [])));
  visit(res.body.pages);
  return flat;
}

/** A published adaptive site over a space with Welcome, Setup, Beta (shown to beta users) and Unlisted (hidden from the sidebar). */
async function docsSite(admin: Account, body: object = {}) {
  const space = await spaceWithPages(admin, 'Guides', [
    { title: 'Welcome', markdown: 'Welcome, reader.' },
    { title: 'Setup', markdown: 'Setup text.' },
  ]);
  await mergeChanges(admin, space, [
    { operation: 'insert_page', ref: 'beta', title: 'Beta', document: { markdown: 'Beta launch codes.' }, condition: 'visitor.claims.isBetaUser' },
    { operation: 'insert_page', title: 'Unlisted', document: { markdown: 'Off the sidebar.' }, hidden: true },
  ]);
  const site = await newSite(admin, { title: 'Docs', spaces: [space], ...body });
  await enableAdaptiveContent(admin, site.id);
  const url: string = (await publish(admin, site.id)).urls.published;
  const key: string = (await admin.api.get(`${sitePath(admin, site.id)}/publishing/auth`)).body.privateKey;
  const siteSpace = (await admin.api.get(`${sitePath(admin, site.id)}/site-spaces`, { shareKey: url.split('/').pop()! })).body.items[0];
  return { space, site, url, key, siteSpace, pages: await pagesOf(admin, space) };
}

/** What our own site answers for `url` (a reader holding `cookies`): its status and where it redirects. */
async function served(url: string, cookies?: string[]) {
  const res = await open(h.current, url, cookies);
  return { status: res.status, location: res.headers.location as string | undefined, text: res.text };
}

/** The reader's cookies after entering the site with a visitor token. */
async function enter(url: string, token: string): Promise<string[]> {
  const entry = await open(h.current, `${url}?jwt_token=${token}`);
  expect(entry.status).toBe(302);
  return entry.headers['set-cookie'] as unknown as string[];
}

describe('URL resolution', () => {
  it('resolves the URLs of a public site as the site serves them: site, site space, page, pages hidden or refused by their condition, unknown paths', async () => {
    const admin = await h.current.newAdmin();
    const renderer = await h.current.newAdmin(); // a front end with a token of its own, of another organization
    const { space, site, url, siteSpace, pages } = await docsSite(admin);
    const setup = pages.find((p) => p.title === 'Setup')!;

    const page = await renderer.api.get('/urls/published', { url: `${url}/guides/setup` });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    const base = new URL(url).pathname;
    expect(page.body).toMatchObject({
      site: site.id,
      organization: admin.organizationId,
      siteSpace: siteSpace.id,
      space,
      pathname: 'setup',
      basePath: `${base}/guides/`,
      siteBasePath: `${base}/`,
      complete: true,
      canonicalUrl: `${url}/guides/setup`,
      page: setup.id,
    });
    expect(page.body.revision).toBe((await admin.api.get(`/spaces/${space}/content`)).body.id);
    // The token is a JWT with the claims of GitBook's SiteAPIToken, which a renderer decodes (expiry, visitor claims).
    const claims = decodeJwt(page.body.apiToken);
    expect(claims).toMatchObject({ kind: 'site', site: site.id, organization: admin.organizationId, siteSpace: siteSpace.id, space, spaces: [space], claims: {} });
    expect(claims.exp! * 1000 - Date.now()).toBeGreaterThan(SITE_TOKEN_LIFETIME_MS - 60_000);
    expect((await served(`${url}/guides/setup`)).status).toBe(200);

    // The site's home: the first page, with an empty pathname.
    const home = await renderer.api.get('/urls/published', { url });
    expect(home.body).toMatchObject({ pathname: '', page: pages[0].id, siteSpace: siteSpace.id });

    // A page hidden from the sidebar is still served at its URL, and resolved.
    const unlisted = await renderer.api.get('/urls/published', { url: `${url}/guides/unlisted` });
    expect(unlisted.status).toBe(200);
    expect(unlisted.body.page).toBe(pages.find((p) => p.title === 'Unlisted')!.id);
    expect((await served(`${url}/guides/unlisted`)).text).toContain('Off the sidebar.');

    // A page whose condition the visitor does not meet, a path of nothing, a path of the renderer's own: the site
    // with that pathname and no page, the same for each (as GitBook answers: the renderer shows its 404 page, its
    // search); the site itself answers 404.
    for (const path of ['beta', 'nothing-here', '~gitbook/search']) {
      const missing = await renderer.api.get('/urls/published', { url: `${url}/guides/${path}` });
      expect(missing.status, path).toBe(200);
      expect(missing.body).toMatchObject({ site: site.id, siteSpace: siteSpace.id, space, pathname: path, basePath: `${base}/guides/`, complete: true, canonicalUrl: `${url}/guides/${path}` });
      expect(missing.body.page).toBeUndefined();
      expect((await served(`${url}/guides/${path}`)).status).toBe(404);
    }
    // Adaptive claims: unsigned ones in the body; the signed ones of a visitor token.
    const schemaAllowsUnsigned = await renderer.api.post('/urls/published', { url: `${url}/guides/beta`, visitor: { unsignedClaims: { isBetaUser: true } } });
    expect(schemaAllowsUnsigned.status).toBe(200);
    expect(schemaAllowsUnsigned.body.page).toBeUndefined(); // isBetaUser is a signed claim: unsigned it is dropped
    const key: string = (await admin.api.get(`${sitePath(admin, site.id)}/publishing/auth`)).body.privateKey;
    const beta = await signVisitorToken({ isBetaUser: true }, key);
    const asBeta = await renderer.api.post('/urls/published', { url: `${url}/guides/beta`, visitor: { jwtToken: beta } });
    expect(asBeta.status).toBe(200);
    expect(asBeta.body.page).toBe(pages.find((p) => p.title === 'Beta')!.id);
    expect(decodeJwt(asBeta.body.apiToken).claims).toMatchObject({ isBetaUser: true });
    const byQuery = await renderer.api.get('/urls/published', { url: `${url}/guides/beta`, visitorAuthToken: beta });
    expect(byQuery.body.page).toBe(asBeta.body.page);
    expect((await served(`${url}/guides/beta`, await enter(url, beta))).status).toBe(200);

    // URLs of nothing: another host, an unknown site, an unpublished one (the same 404).
    expect((await renderer.api.get('/urls/published', { url: 'https://elsewhere.example.org/docs' })).status).toBe(404);
    expect((await renderer.api.get('/urls/published', { url: url.replace(site.id, 'sit_nope') })).status).toBe(404);
    expect((await admin.api.post(`${sitePath(admin, site.id)}/unpublish`)).status).toBe(200);
    const gone = await renderer.api.get('/urls/published', { url: `${url}/guides/setup` });
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toBe('query.url: no published content found at this URL');
    expect((await served(`${url}/guides/setup`)).status).toBe(404);
    expect((await renderer.api.get('/urls/published', { url: 'not a url' })).status).toBe(400);
  });

  it('answers the redirects the site answers: a site redirect, a page that moved, an external redirect', async () => {
    const admin = await h.current.newAdmin();
    const space = await spaceWithPages(admin, 'Guides', [
      { title: 'Welcome', markdown: 'Welcome.' },
      { title: 'Setup', markdown: 'Setup text.' },
    ]);
    const site = await newSite(admin, { title: 'Docs', spaces: [space] });
    const url: string = (await publish(admin, site.id)).urls.published;
    const base = new URL(url).pathname;
    const pages = await pagesOf(admin, space);
    const redirect = await admin.api.post(`${sitePath(admin, site.id)}/redirects`, { source: '/start', destination: { kind: 'path', spaceId: space, path: 'setup' } });
    expect(redirect.status).toBe(201);
    const viaRedirect = await admin.api.get('/urls/published', { url: `${url}/start` });
    expect(viaRedirect.body).toEqual({ target: 'content', redirect: `${url}/guides/setup` });
    expect(await served(`${url}/start`)).toMatchObject({ status: 307, location: `${base}/guides/setup` });

    // Setup moves under Welcome: its old path leads to the new one, on the site and in resolution.
    await mergeChanges(admin, space, [{ operation: 'update_page', page: pages.find((p) => p.title === 'Setup')!.id, into: pages[0].id }]);
    const moved = await admin.api.get('/urls/published', { url: `${url}/guides/setup` });
    expect(moved.body).toEqual({ target: 'content', redirect: `${url}/guides/welcome/setup` });
    expect(await served(`${url}/guides/setup`)).toMatchObject({ status: 308, location: `${base}/guides/welcome/setup` });
    expect((await served(`${url}/guides/welcome/setup`)).text).toContain('Setup text.');

    // An external redirect names the site.
    expect((await admin.api.post(`${sitePath(admin, site.id)}/redirects`, { source: '/out', destination: { kind: 'external', url: 'https://example.com/' } })).status).toBe(201);
    expect((await admin.api.get('/urls/published', { url: `${url}/out` })).body).toEqual({ target: 'external', site: site.id, redirect: 'https://example.com/' });
  });

  it('resolves a share-link URL only with its key, and returns the key', async () => {
    const admin = await h.current.newAdmin();
    const { site, url, siteSpace } = await docsSite(admin, { visibility: 'share-link' });
    const shareKey = url.split('/').pop()!;
    const found = await admin.api.get('/urls/published', { url: `${url}/guides/setup` });
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ site: site.id, siteSpace: siteSpace.id, shareKey, siteBasePath: `${new URL(url).pathname}/`, pathname: 'setup' });
    for (const wrong of [url.replace(/\/~s\/.*$/, '/guides/setup'), url.replace(/[^/]+$/, 'wrong-key/guides/setup')]) {
      expect((await admin.api.get('/urls/published', { url: wrong })).status).toBe(404);
      expect((await served(wrong)).status).toBe(404);
    }
  });

  it('resolves a visitor-auth URL only with a valid visitor token; redirectOnError sends to the sign-in', async () => {
    const admin = await h.current.newAdmin();
    const { url, key, site } = await docsSite(admin, { visibility: 'visitor-auth' });
    const token = await signVisitorToken({ sub: 'reader' }, key);
    const ok = await admin.api.get('/urls/published', { url: `${url}/guides/setup`, visitorAuthToken: token });
    expect(ok.status).toBe(200);
    expect(ok.body.pathname).toBe('setup');
    expect((await served(`${url}/guides/setup`, await enter(url, token))).status).toBe(200);
    const wrongKey = await signVisitorToken({ sub: 'reader' }, 'x'.repeat(43));
    for (const visitorAuthToken of [undefined, wrongKey]) {
      const refused = await admin.api.get('/urls/published', { url: `${url}/guides/setup`, ...(visitorAuthToken && { visitorAuthToken }) });
      expect(refused.status).toBe(404);
    }
    expect((await served(`${url}/guides/setup`)).status).toBe(401);
    expect((await admin.api.patch(`${sitePath(admin, site.id)}/publishing/auth`, { backend: 'custom', fallbackURL: 'https://login.example.com/sso' })).status).toBe(200);
    const toSignIn = await admin.api.get('/urls/published', { url: `${url}/guides/setup`, redirectOnError: 'true' });
    expect(toSignIn.status).toBe(200);
    expect(toSignIn.body.target).toBe('application');
    expect(new URL(toSignIn.body.redirect).origin).toBe('https://login.example.com');
  });

  it('resolves a URL of the site on its custom hostname', async () => {
    const admin = await h.current.newAdmin();
    const { site, url } = await docsSite(admin);
    const hostname = `docs${Date.now()}.headless.example.com`;
    expect((await admin.api.patch(sitePath(admin, site.id), { hostname })).status).toBe(200);
    const found = await admin.api.get('/urls/published', { url: `https://${hostname}/guides/setup` });
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ site: site.id, siteBasePath: '/', basePath: '/guides/', pathname: 'setup', canonicalUrl: `https://${hostname}/guides/setup` });
    expect((await served(`https://${hostname}/guides/setup`)).status).toBe(200);
    expect(url).toBeTruthy();
  });

  it('answers the site as it is after each change: a site space moved, a hostname taken to another site (the site found is kept by its stamp)', async () => {
    const admin = await h.current.newAdmin();
    const { site, url, siteSpace } = await docsSite(admin);
    const first = await admin.api.get('/urls/published', { url: `${url}/guides/setup` });
    expect(first.status).toBe(200);
    expect(first.body.basePath).toMatch(/\/guides\/$/);
    // The site space's path changes: the next resolution (and the site) answer the new path.
    expect((await admin.api.patch(`${sitePath(admin, site.id)}/site-spaces/${siteSpace.id}`, { path: 'manual' })).status).toBe(200);
    const moved = await admin.api.get('/urls/published', { url: `${url}/manual/setup` });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ site: site.id, siteSpace: siteSpace.id, page: first.body.page, pathname: 'setup' });
    expect(moved.body.basePath).toMatch(/\/manual\/$/);
    expect((await served(`${url}/manual/setup`)).status).toBe(200);
    // A hostname resolved once, then taken by another site: the URL is the other site's.
    const hostname = `moving${Date.now()}.headless.example.com`;
    expect((await admin.api.patch(sitePath(admin, site.id), { hostname })).status).toBe(200);
    expect((await admin.api.get('/urls/published', { url: `https://${hostname}/manual/setup` })).body.site).toBe(site.id);
    const other = await docsSite(admin);
    expect((await admin.api.patch(sitePath(admin, site.id), { hostname: null })).status).toBe(200);
    expect((await admin.api.patch(sitePath(admin, other.site.id), { hostname })).status).toBe(200);
    const taken = await admin.api.get('/urls/published', { url: `https://${hostname}/guides/setup` });
    expect(taken.status).toBe(200);
    expect(taken.body).toMatchObject({ site: other.site.id, page: other.pages.find((p) => p.title === 'Setup')!.id });
    // The other site has no `manual` site space: the path is a page path of its only one, and no page.
    const gone = await admin.api.get('/urls/published', { url: `https://${hostname}/manual/setup` });
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ site: other.site.id, pathname: 'manual/setup' });
    expect(gone.body.page).toBeUndefined();
  });

  it('answers a change another process made in the database at the next resolution, and its token reads nothing once the site is unpublished', async () => {
    const admin = await h.current.newAdmin();
    const { space, site, url, siteSpace } = await docsSite(admin);
    const first = await admin.api.get('/urls/published', { url: `${url}/guides/setup` });
    expect(first.status).toBe(200);
    const reader = apiClient(h.current.app, first.body.apiToken);
    const document = `/spaces/${space}/revisions/${first.body.revision}/page/${first.body.page}/document`;
    expect((await reader.get(document)).status).toBe(200);

    // Written straight in the database, as another server process sharing it would.
    await h.current.db.update(siteSpaces).set({ path: 'manual' }).where(eq(siteSpaces.id, siteSpace.id));
    const moved = await admin.api.get('/urls/published', { url: `${url}/manual/setup` });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ site: site.id, siteSpace: siteSpace.id, page: first.body.page, pathname: 'setup' });
    expect(moved.body.basePath).toMatch(/\/manual\/$/);
    await h.current.db.update(sites).set({ published: false }).where(eq(sites.id, site.id));
    expect((await admin.api.get('/urls/published', { url: `${url}/manual/setup` })).status).toBe(404);
    expect((await reader.get(document)).status).toBe(404);
  });
});

describe('the API token of a resolution', () => {
  it('reads the site\'s published content and its customization; nothing of another site, no write, no other revision; expires', async () => {
    const admin = await h.current.newAdmin();
    const { space, site, url, pages } = await docsSite(admin);
    const other = await docsSite(admin);
    const resolved = await admin.api.get('/urls/published', { url: `${url}/guides/setup` });
    expect(resolved.status).toBe(200);
    const reader = apiClient(h.current.app, resolved.body.apiToken);

    const revision = await reader.get(`/spaces/${space}/content`);
    expect(revision.status).toBe(200);
    expect(revision.body.id).toBe(resolved.body.revision);
    expect((await reader.get(`/spaces/${space}/content/pages`)).status).toBe(200);
    const setup = await reader.get(`/spaces/${space}/content/page/${resolved.body.page}`);
    expect(setup.status).toBe(200);
    expect(setup.body.title).toBe('Setup');
    expect((await reader.get(`/spaces/${space}/content/files`)).status).toBe(200);
    const customization = await reader.get(`${sitePath(admin, site.id)}/customization`);
    expect(customization.status).toBe(200);
    expect((await reader.get(`${sitePath(admin, site.id)}/published`)).status).toBe(200);

    // Another site's space and customization: not found. Writes and other reads: refused.
    expect((await reader.get(`/spaces/${other.space}/content`)).status).toBe(404);
    expect((await reader.get(`${sitePath(admin, other.site.id)}/customization`)).status).toBe(404);
    expect((await reader.patch(`/spaces/${space}`, { title: 'Taken over' })).status).toBe(403);
    expect((await reader.post(`/spaces/${space}/change-requests`)).status).toBe(403);
    // The space itself is the renderer's to read (GitBook's reads it for every page); another site's is not found.
    expect((await reader.get(`/spaces/${space}`)).status).toBe(200);
    expect((await reader.get(`/spaces/${other.space}`)).status).toBe(404);
    expect((await reader.get(`/spaces/${space}/change-requests`)).status).toBe(403);
    expect((await reader.get(`/orgs/${admin.organizationId}/spaces`)).status).toBe(403);
    expect((await reader.put(`${sitePath(admin, site.id)}/customization`, {})).status).toBe(403);
    expect((await reader.get('/user')).status).toBe(403);
    expect(pages.length).toBeGreaterThan(0);

    // A change request's revision is not the published content.
    const cr = await admin.api.post(`/spaces/${space}/change-requests`);
    expect(cr.status).toBe(201);
    expect((await reader.get(`/spaces/${space}/change-requests/${cr.body.id}/content`)).status).toBe(403);

    // Unpublished, the site's content is gone for the token too.
    expect((await admin.api.post(`${sitePath(admin, site.id)}/unpublish`)).status).toBe(200);
    expect((await reader.get(`/spaces/${space}/content`)).status).toBe(404);
    expect((await admin.api.post(`${sitePath(admin, site.id)}/publish`)).status).toBe(200);
    expect((await reader.get(`/spaces/${space}/content`)).status).toBe(200);

    // Past its lifetime (by the server's clock), refused.
    h.current.advanceClock(SITE_TOKEN_LIFETIME_MS + 1000);
    const expired = await reader.get(`/spaces/${space}/content`);
    expect(expired.status).toBe(401);
    expect(expired.body.error.message).toContain('expired');

    // A forged token (its payload changed) is not one.
    const [header, payload, signature] = resolved.body.apiToken.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, site: other.site.id, spaces: [other.space], exp: claims.exp + 3600 })).toString('base64url');
    expect((await apiClient(h.current.app, `${header}.${forgedPayload}.${signature}`).get(`/spaces/${other.space}/content`)).status).toBe(401);
    // Nor is the payload of the token accepted before, with another signature, nor the same claims signed with another key.
    const resigned = await apiClient(h.current.app, `${header}.${payload}.${Buffer.alloc(32, 7).toString('base64url')}`).get(`/spaces/${space}/content`);
    expect(resigned.status).toBe(401);
    expect(resigned.body.error.message).toBe('Invalid access token');
    const otherKey = await new SignJWT({ ...claims, exp: undefined }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('10m').sign(new Uint8Array(32));
    expect((await apiClient(h.current.app, otherKey).get(`/spaces/${space}/content`)).status).toBe(401);
    // An unsigned token (`alg: none`) is refused.
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.x`;
    expect((await apiClient(h.current.app, none).get(`/spaces/${space}/content`)).status).toBe(401);
  });

  it('hands the resolutions of one second for the same reader one token, and a new one after', async () => {
    const admin = await h.current.newAdmin();
    const { url, key } = await docsSite(admin);
    const resolve = async (query: Record<string, string>) => {
      const res = await admin.api.get('/urls/published', { url: `${url}/guides/setup`, ...query });
      expect(res.status).toBe(200);
      return res.body.apiToken as string;
    };
    // The clock stands still for the first two, so they are within one second however slow the machine.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    let first: string;
    try {
      first = await resolve({});
      expect(await resolve({})).toBe(first);
    } finally {
      vi.useRealTimers();
    }
    // Another reader (other claims) has a token of their own.
    const beta = await resolve({ visitorAuthToken: await signVisitorToken({ isBetaUser: true }, key) });
    expect(beta).not.toBe(first);
    h.current.advanceClock(1000);
    const later = await resolve({});
    expect(later).not.toBe(first);
    const expiry = (token: string) => decodeJwt(token).exp!;
    expect(expiry(later) - expiry(first)).toBeGreaterThanOrEqual(1);
  });

  it('reads only the spaces of the site spaces the visitor may see', async () => {
    const admin = await h.current.newAdmin();
    const { site, url, space } = await docsSite(admin);
    const betaSpace = await spaceWithPages(admin, 'Beta guides', [{ title: 'Secret', markdown: 'Secret.' }]);
    const added = await admin.api.post(`${sitePath(admin, site.id)}/site-spaces`, { spaceId: betaSpace });
    expect(added.status).toBe(200);
    expect((await admin.api.patch(`${sitePath(admin, site.id)}/site-spaces/${added.body.id}`, { condition: 'visitor.claims.isBetaUser' })).status).toBe(200);
    const key: string = (await admin.api.get(`${sitePath(admin, site.id)}/publishing/auth`)).body.privateKey;

    const anonymous = await admin.api.get('/urls/published', { url: `${url}/guides/setup` });
    const anonymousReader = apiClient(h.current.app, anonymous.body.apiToken);
    expect((await anonymousReader.get(`/spaces/${space}/content`)).status).toBe(200);
    expect((await anonymousReader.get(`/spaces/${betaSpace}/content`)).status).toBe(404);
    // Without the claim the beta site space is not there: its path is a page path of the default one, and no page.
    const hiddenPlace = await admin.api.get('/urls/published', { url: `${url}/${added.body.path}` });
    expect(hiddenPlace.status).toBe(200);
    expect(hiddenPlace.body).toMatchObject({ space, pathname: added.body.path });
    expect(hiddenPlace.body.page).toBeUndefined();
    expect((await served(`${url}/${added.body.path}/secret`)).status).toBe(404);

    const beta = await signVisitorToken({ isBetaUser: true }, key);
    const asBeta = await admin.api.get('/urls/published', { url: `${url}/${added.body.path}/secret`, visitorAuthToken: beta });
    expect(asBeta.status).toBe(200);
    expect(asBeta.body).toMatchObject({ siteSpace: added.body.id, space: betaSpace, pathname: 'secret' });
    expect((await apiClient(h.current.app, asBeta.body.apiToken).get(`/spaces/${betaSpace}/content`)).status).toBe(200);
    expect((await served(`${url}/${added.body.path}/secret`, await enter(url, beta))).status).toBe(200);
  });
});
