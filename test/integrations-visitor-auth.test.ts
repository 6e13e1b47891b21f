// Visitor authentication through an integration (publishing auth `backend: integration`): a sign-in
// integration built with @gitbook/runtime as @gitbook/cli bundles it, installed on a `visitor-auth` site. A
// reader without a token is sent through the integration's fetch_visitor_authentication to an identity
// provider the test serves on loopback; coming back, the integration exchanges the code, signs a visitor
// token with the site's key (`signingSecrets.siteInstallation`) and sends the reader to the site with it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtVerify, SignJWT } from 'jose';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setScriptUrls } from '../server/runtime/script-runtime.js';
import { createUrls } from '../server/urls.js';
import { bundleIntegration } from './support/gitbook-bundle.js';
import { useHarness, type Account } from './support/harness.js';
import { publishAs } from './support/matrix/integrations.js';
import { hrefs, open, publish, spaceWithPages } from './published-support.js';
import { enableAdaptiveContent, mergeChanges, newSite, signVisitorToken, sitePath } from './sites-support.js';

const h = useHarness();
const PUBLIC_URL = 'https://api.test.example';
let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++n}`;

// The sign-in integration. fetch_visitor_authentication sends the reader to the provider's authorize URL
// (from the site installation's configuration) with where they were going as `state`; its public endpoint's
// `/callback` exchanges the code for the provider's ID token (checked with the client secret), signs a
// visitor token with the site's key carrying the provider's claims, reads the site's URL through the API
// with its installation token, and sends the reader back there with `?jwt_token=`.
const signInIntegration = `
import { createIntegration } from '@gitbook/runtime';
import { SignJWT, jwtVerify } from 'jose';

type Settings = { authorizeUrl: string; tokenUrl: string; logoutUrl: string; clientId: string; clientSecret: string };

export default createIntegration({
  // A site script (used when the integration has site:script:inject): which site and client it was made for.
  fetch_published_script: async (event, context) => {
    const site = context.environment.siteInstallation!;
    const made = { site: site.site, clientId: (site.configuration as Settings).clientId };
    return new Response('window.signIn = ' + JSON.stringify(made), { headers: { 'content-type': 'application/javascript', 'cache-control': 'no-store' } });
  },
  fetch_visitor_authentication: async (event, context) => {
    const site = context.environment.siteInstallation!;
    const settings = site.configuration as Settings;
    if (event.action === 'logout') return Response.redirect(settings.logoutUrl, 302);
    const to = new URL(settings.authorizeUrl);
    to.searchParams.set('client_id', settings.clientId);
    to.searchParams.set('redirect_uri', site.urls.publicEndpoint + '/callback');
    to.searchParams.set('state', event.location ?? '/');
    console.log('sending the visitor to sign in, then back to', event.location, JSON.stringify(event.searchParams));
    return Response.redirect(to.toString(), 302);
  },
  fetch: async (request, context) => {
    const site = context.environment.siteInstallation!;
    const settings = site.configuration as Settings;
    const url = new URL(request.url);
    if (!url.pathname.endsWith('/callback')) return new Response('No such page', { status: 404 });
    const exchanged = await fetch(settings.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: url.searchParams.get('code') ?? '', client_id: settings.clientId }),
    });
    if (!exchanged.ok) return new Response('The provider refused the code', { status: 401 });
    const { id_token } = (await exchanged.json()) as { id_token: string };
    const { payload } = await jwtVerify(id_token, new TextEncoder().encode(settings.clientSecret), { algorithms: ['HS256'] });
    const key = context.environment.signingSecrets.siteInstallation;
    if (!key) return new Response('No visitor key for this site', { status: 500 });
    const token = await new SignJWT({ sub: payload.sub, isBetaUser: payload.isBetaUser === true })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(key));
    const { data } = await context.api.orgs.getSiteById(context.environment.installation!.target.organization, site.site);
    const back = new URL(data.urls.published + (url.searchParams.get('state') ?? '/'));
    back.searchParams.set('jwt_token', token);
    return Response.redirect(back.toString(), 302);
  },
});
`;

const CLIENT_SECRET = 'provider-client-secret';

/** A fake identity provider: `/authorize` signs in `?user=` at once, `/token` trades the code for an ID token. */
async function startProvider() {
  const users: Record<string, { isBetaUser: boolean }> = { ada: { isBetaUser: true }, bob: { isBetaUser: false } };
  const codes = new Map<string, string>();
  const tokenRequests: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://provider');
    if (req.method === 'GET' && url.pathname === '/authorize') {
      const user = url.searchParams.get('user') ?? 'ada';
      const code = `code-${codes.size + 1}`;
      codes.set(code, user);
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', async () => {
        tokenRequests.push(body);
        const user = codes.get(new URLSearchParams(body).get('code') ?? '');
        if (!user) return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_grant"}');
        codes.delete(new URLSearchParams(body).get('code')!);
        const idToken = await new SignJWT({ sub: user, ...users[user] }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('5m').sign(new TextEncoder().encode(CLIENT_SECRET));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id_token: idToken, token_type: 'Bearer', expires_in: 300 }));
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, tokenRequests, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('visitor authentication through an integration', () => {
  let server: Server;
  let provider: Awaited<ReturnType<typeof startProvider>>;
  let owner: Account;
  let script: string;
  beforeAll(async () => {
    // The script calls the API back over the network: the app listens, and is the API it is told about.
    server = h.current.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    setScriptUrls(createUrls(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
    provider = await startProvider();
    owner = await h.current.newAdmin();
    script = await bundleIntegration(signInIntegration);
  });
  afterAll(async () => {
    setScriptUrls(createUrls(PUBLIC_URL));
    await new Promise((resolve) => server.close(resolve));
    await new Promise((resolve) => provider.server.close(resolve));
  });

  /** A published visitor-auth site with adaptive content (Intro for all, Beta for `isBetaUser`) and the integration installed and configured on it. */
  async function signInSite(published: { runtime: 'v1' | 'v2'; script?: string } = { runtime: 'v2' }) {
    const space = await spaceWithPages(owner, 'Guides', [{ title: 'Intro', markdown: 'Signed-in readers only.' }]);
    await mergeChanges(owner, space, [{ operation: 'insert_page', title: 'Beta', document: { markdown: 'Beta launch codes.' }, condition: 'visitor.claims.isBetaUser' }]);
    const site = await newSite(owner, { title: 'Private docs', spaces: [space], visibility: 'visitor-auth' });
    await enableAdaptiveContent(owner, site.id);
    const url: string = (await publish(owner, site.id)).urls.published;

    const name = unique('va-oidc');
    await publishAs(owner, name, {
      runtime: published.runtime,
      script: published.script ?? script,
      scopes: ['site:visitor:auth', 'site:metadata:read'],
      configurations: { site: { componentId: 'config' } },
      contentSecurityPolicy: { 'form-action': provider.url },
    });
    // Not installed yet: the backend cannot be the integration.
    const early = await owner.api.patch(`${sitePath(owner, site.id)}/publishing/auth`, { backend: 'integration' });
    expect(early.status).toBe(400);
    expect(early.body.error.message).toContain('body.backend');
    expect(early.body.error.message).toContain('site:visitor:auth');

    const installation = await owner.api.post(`/integrations/${name}/installations`, { organization: owner.organizationId });
    expect(installation.status).toBe(200);
    const installationId = installation.body.id as string;
    expect((await owner.api.post(`/integrations/${name}/installations/${installationId}/sites`, { siteId: site.id })).status).toBe(201);
    const configured = await owner.api.patch(`/integrations/${name}/installations/${installationId}/sites/${site.id}`, {
      configuration: { authorizeUrl: `${provider.url}/authorize`, tokenUrl: `${provider.url}/token`, logoutUrl: `${provider.url}/logout`, clientId: 'docs', clientSecret: CLIENT_SECRET },
    });
    expect(configured.status).toBe(200);

    const custom = await owner.api.get(`${sitePath(owner, site.id)}/publishing/auth`);
    expect(custom.status).toBe(200);
    expect(custom.body).toMatchObject({ backend: 'custom', integration: name });
    const auth = await owner.api.patch(`${sitePath(owner, site.id)}/publishing/auth`, { backend: 'integration' });
    expect(auth.status).toBe(200);
    expect(auth.body).toMatchObject({ object: 'publishing-auth', backend: 'integration', integration: name });
    const read = await owner.api.get(`${sitePath(owner, site.id)}/publishing/auth`);
    expect(read.body).toMatchObject({ backend: 'integration', integration: name, privateKey: auth.body.privateKey });
    return { site, url, name, installationId, key: auth.body.privateKey as string };
  }

  /** Follows the sign-in from a page of the site without a token: the cookies the site sets for the reader, and the requests made. */
  async function signIn(s: { site: { id: string }; url: string; name: string; installationId: string }, page: string, user: string) {
    // 1. The site sends the reader to the integration's visitor-auth URL, with where they were going.
    const first = await open(h.current, `${s.url}${page}`);
    expect(first.status).toBe(302);
    const start = new URL(first.headers.location);
    expect(`${start.origin}${start.pathname}`).toBe(`${PUBLIC_URL}/integrations/${s.name}/installations/${s.installationId}/sites/${s.site.id}/visitor-auth`);
    expect(start.searchParams.get('location')).toBe(page);
    // 2. That URL runs fetch_visitor_authentication: a redirect to the provider, naming the callback.
    const toProvider = await request(h.current.app).get(start.pathname + start.search).redirects(0);
    expect(toProvider.status, toProvider.text).toBe(302);
    const authorize = new URL(toProvider.headers.location);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${provider.url}/authorize`);
    expect(authorize.searchParams.get('state')).toBe(page);
    // 3. The provider signs the user in and sends them to the integration's public endpoint.
    authorize.searchParams.set('user', user);
    const fromProvider = await fetch(authorize, { redirect: 'manual' });
    expect(fromProvider.status).toBe(302);
    const callback = new URL(fromProvider.headers.get('location')!);
    expect(callback.pathname).toBe(`/integrations/${s.name}/installations/${s.installationId}/sites/${s.site.id}/integration/callback`);
    // 4. The integration signs the visitor token and sends the reader to the site with it.
    const toSite = await request(h.current.app).get(callback.pathname + callback.search).redirects(0);
    expect(toSite.status, toSite.text).toBe(302);
    const back = new URL(toSite.headers.location);
    expect(`${back.origin}${back.pathname}`).toBe(`${s.url}${page.split('?')[0]}`);
    const token = back.searchParams.get('jwt_token');
    expect(token).toBeTruthy();
    // 5. The site keeps the token in its cookie and sends the reader to the page without it.
    const kept = await open(h.current, back.toString());
    expect(kept.status).toBe(302);
    expect(kept.headers.location).not.toContain('jwt_token');
    return { cookies: kept.headers['set-cookie'] as unknown as string[], token: token! };
  }

  it('sends a reader without a token through the integration and its provider, and admits them with the token it signs', async () => {
    const s = await signInSite();
    const { cookies } = await signIn(s, '/guides/intro', 'bob');
    const page = await open(h.current, `${s.url}/guides/intro`, cookies);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Signed-in readers only.');
    // The provider was asked for the token once, by the integration, with the code it gave.
    expect(provider.tokenRequests.at(-1)).toContain('code=code-');

    // The event reached the script with the location and its query.
    const withQuery = await open(h.current, `${s.url}/guides/intro?tab=api`);
    expect(withQuery.status).toBe(302);
    expect(new URL(withQuery.headers.location).searchParams.get('location')).toBe('/guides/intro?tab=api');

    // urls.login goes the same way; urls.logout forgets the token and lets the integration sign the reader out.
    const login = await open(h.current, `${s.url}/~auth/login?location=${encodeURIComponent(`${new URL(s.url).pathname}/guides/intro`)}`);
    expect(login.status).toBe(302);
    expect(new URL(login.headers.location).searchParams.get('location')).toBe('/guides/intro');
    const logout = await open(h.current, `${s.url}/~auth/logout`, cookies);
    expect(logout.status).toBe(302);
    expect(String(logout.headers['set-cookie'])).toContain(`dw_visitor_${s.site.id}=;`);
    const out = new URL(logout.headers.location);
    expect(out.searchParams.get('action')).toBe('logout');
    const toProviderLogout = await request(h.current.app).get(out.pathname + out.search).redirects(0);
    expect(toProviderLogout.status).toBe(302);
    expect(toProviderLogout.headers.location).toBe(`${provider.url}/logout`);
  });

  it('refuses a forged token: the reader is sent to sign in again and sees no content', async () => {
    const s = await signInSite();
    const forged = await signVisitorToken({ sub: 'mallory', isBetaUser: true }, 'not-the-site-key');
    const entry = await open(h.current, `${s.url}/guides/beta?jwt_token=${forged}`);
    expect(entry.status).toBe(302);
    const refused = await open(h.current, `${s.url}/guides/beta`, entry.headers['set-cookie'] as unknown as string[]);
    expect(refused.status).toBe(302);
    expect(refused.headers.location).toContain(`/integrations/${s.name}/installations/${s.installationId}/sites/${s.site.id}/visitor-auth`);
    expect(refused.text).not.toContain('Beta launch codes.');
    expect(String(refused.headers['set-cookie'])).toContain(`dw_visitor_${s.site.id}=;`);
    // A token signed with the site's key, as the integration signs them, is admitted.
    const genuine = await signVisitorToken({ sub: 'carol', isBetaUser: true }, s.key);
    const kept = await open(h.current, `${s.url}/guides/beta?jwt_token=${genuine}`);
    expect((await open(h.current, `${s.url}/guides/beta`, kept.headers['set-cookie'] as unknown as string[])).status).toBe(200);
  });

  it("drives adaptive content with the claims the integration put in the token, from the provider's answer", async () => {
    const s = await signInSite();
    const base = `${new URL(s.url).pathname}/guides`;
    const ada = await signIn(s, '/guides/intro', 'ada');
    const adaPage = await open(h.current, `${s.url}/guides/intro`, ada.cookies);
    expect(adaPage.status).toBe(200);
    expect(hrefs(adaPage.text)).toContain(`${base}/beta`);
    const beta = await open(h.current, `${s.url}/guides/beta`, ada.cookies);
    expect(beta.status).toBe(200);
    expect(beta.text).toContain('Beta launch codes.');

    const bob = await signIn(s, '/guides/intro', 'bob');
    const bobPage = await open(h.current, `${s.url}/guides/intro`, bob.cookies);
    expect(bobPage.status).toBe(200);
    expect(hrefs(bobPage.text)).not.toContain(`${base}/beta`);
    expect((await open(h.current, `${s.url}/guides/beta`, bob.cookies)).status).toBe(404);
  });

  it('gives the site key only to the signing integration, and serves its visitor-auth URL only while the site uses it', async () => {
    const s = await signInSite();
    const start = `/integrations/${s.name}/installations/${s.installationId}/sites/${s.site.id}/visitor-auth`;
    expect((await request(h.current.app).get(`${start}?location=//evil.example/x`)).status).toBe(400);
    expect((await request(h.current.app).get(`${start}?action=delete`)).status).toBe(400);
    // A code from the provider, then the site goes back to its own backend before the reader returns.
    const authorize = new URL(`${provider.url}/authorize`);
    authorize.searchParams.set('redirect_uri', `${PUBLIC_URL}/callback`);
    const code = new URL((await fetch(authorize, { redirect: 'manual' })).headers.get('location')!).searchParams.get('code')!;
    expect((await owner.api.patch(`${sitePath(owner, s.site.id)}/publishing/auth`, { backend: 'custom' })).status).toBe(200);
    expect((await request(h.current.app).get(start)).status).toBe(404);
    // The integration's callback now gets its site installation's own signing secret, not the site's key:
    // the token it signs with it is refused by the site.
    const noKey = await request(h.current.app).get(`/integrations/${s.name}/installations/${s.installationId}/sites/${s.site.id}/integration/callback?code=${code}`);
    expect(noKey.status).toBe(302);
    const unsigned = new URL(noKey.headers.location).searchParams.get('jwt_token')!;
    await expect(jwtVerify(unsigned, new TextEncoder().encode(s.key))).rejects.toThrow('signature verification failed');
    const regenerated = await owner.api.post(`${sitePath(owner, s.site.id)}/publishing/auth/regenerate`);
    expect(regenerated.status).toBe(200);
    expect(regenerated.body).toMatchObject({ backend: 'custom', integration: s.name });
    expect(regenerated.body.privateKey).not.toBe(s.key);
    // The reader of a custom-backend site without a fallback URL gets the sign-in page, not the integration.
    const page = await open(h.current, `${s.url}/guides/intro`);
    expect(page.status).toBe(401);
  });

  it('development mode: the tunnel receives the fetch_visitor_authentication form, with the site key, and its answer is relayed', async () => {
    const s = await signInSite();
    const got: { headers: Record<string, unknown>; body: Buffer }[] = [];
    const tunnel = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got.push({ headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(302, { location: `${provider.url}/authorize?from=tunnel` }).end();
      });
    });
    await new Promise<void>((resolve) => tunnel.listen(0, '127.0.0.1', resolve));
    try {
      const tunnelUrl = `http://127.0.0.1:${(tunnel.address() as AddressInfo).port}/dev`;
      expect((await owner.api.put(`/integrations/${s.name}/dev`, { tunnelUrl })).status).toBe(204);
      const entry = await open(h.current, `${s.url}/guides/intro`);
      expect(entry.status).toBe(302);
      const start = new URL(entry.headers.location);
      const answer = await request(h.current.app).get(start.pathname + start.search).redirects(0);
      expect(answer.status).toBe(302);
      expect(answer.headers.location).toBe(`${provider.url}/authorize?from=tunnel`);
      expect(got).toHaveLength(1);
      const form = await new Request('http://tunnel.invalid/', { method: 'POST', headers: { 'content-type': String(got[0].headers['content-type']) }, body: new Uint8Array(got[0].body) }).formData();
      const event = JSON.parse(String(form.get('event')));
      const environment = JSON.parse(String(form.get('environment')));
      expect(event).toMatchObject({ type: 'fetch_visitor_authentication', installationId: s.installationId, siteId: s.site.id, location: '/guides/intro', searchParams: {} });
      expect(environment.signingSecrets.siteInstallation).toBe(s.key);
      expect(environment.siteInstallation).toMatchObject({ site: s.site.id, configuration: { clientId: 'docs' } });
    } finally {
      expect((await owner.api.delete(`/integrations/${s.name}/dev`)).status).toBe(204);
      await new Promise((resolve) => tunnel.close(resolve));
    }
  });

  it('with the integration uninstalled, a reader without a token gets the sign-in page', async () => {
    const s = await signInSite();
    expect((await owner.api.delete(`/integrations/${s.name}/installations/${s.installationId}/sites/${s.site.id}`)).status).toBe(204);
    const auth = await owner.api.get(`${sitePath(owner, s.site.id)}/publishing/auth`);
    expect(auth.status).toBe(200);
    expect(auth.body.backend).toBe('integration');
    expect(auth.body.integration).toBeUndefined();
    const page = await open(h.current, `${s.url}/guides/intro`);
    expect(page.status).toBe(401);
    expect(page.text).toContain('Sign-in required');
    expect((await request(h.current.app).get(`/integrations/${s.name}/installations/${s.installationId}/sites/${s.site.id}/visitor-auth`)).status).toBe(404);
  });

  it('an installation on every site of the organization (site_selection: all) signs the readers of each site in, and its script is on each', async () => {
    const settings = { authorizeUrl: `${provider.url}/authorize`, tokenUrl: `${provider.url}/token`, logoutUrl: `${provider.url}/logout`, clientId: 'org-wide', clientSecret: CLIENT_SECRET };
    const name = unique('va-all');
    await publishAs(owner, name, {
      runtime: 'v2',
      script,
      scopes: ['site:visitor:auth', 'site:metadata:read', 'site:script:inject'],
      configurations: { site: { componentId: 'config' } },
      contentSecurityPolicy: { 'form-action': provider.url },
    });
    const installation = await owner.api.post(`/integrations/${name}/installations`, { organization: owner.organizationId });
    expect(installation.status).toBe(200);
    const installationId = installation.body.id as string;
    // Installed on no site: it does not sign in yet.
    const early = await newSite(owner, { title: 'Early', visibility: 'visitor-auth' });
    expect((await owner.api.patch(`${sitePath(owner, early.id)}/publishing/auth`, { backend: 'integration' })).status).toBe(400);
    // On every site, configured once, on the installation.
    const everySite = await owner.api.patch(`/integrations/${name}/installations/${installationId}`, { site_selection: 'all', configuration: settings });
    expect(everySite.status).toBe(200);
    expect(everySite.body).toMatchObject({ site_selection: 'all', configuration: settings });

    const sites = [];
    for (const title of ['Handbook', 'Runbooks']) {
      const space = await spaceWithPages(owner, title, [{ title: 'Intro', markdown: `${title} for signed-in readers.` }]);
      const site = await newSite(owner, { title, spaces: [space], visibility: 'visitor-auth' });
      const url: string = (await publish(owner, site.id)).urls.published;
      const auth = await owner.api.patch(`${sitePath(owner, site.id)}/publishing/auth`, { backend: 'integration' });
      expect(auth.status).toBe(200);
      expect(auth.body).toMatchObject({ backend: 'integration', integration: name });
      sites.push({ site, url, name, installationId, key: auth.body.privateKey as string, title });
    }
    for (const s of sites) {
      // The reader goes through the organization's installation, with its configuration, and is admitted.
      const { cookies } = await signIn(s, '/intro', 'bob');
      const page = await open(h.current, `${s.url}/intro`, cookies);
      expect(page.status).toBe(200);
      expect(page.text).toContain(`${s.title} for signed-in readers.`);
      // The page loads the integration's script for this site, made by fetch_published_script.
      const src = `${PUBLIC_URL}/integrations/${name}/installations/${installationId}/sites/${s.site.id}/script.js`;
      expect(page.text).toContain(`<script src="${src}" defer></script>`);
      const made = await request(h.current.app).get(new URL(src).pathname);
      expect(made.status, made.text).toBe(200);
      expect(made.text).toBe(`window.signIn = ${JSON.stringify({ site: s.site.id, clientId: 'org-wide' })}`);
    }
    // An installation on the site itself, with its own configuration, is what that site's requests get.
    expect((await owner.api.post(`/integrations/${name}/installations/${installationId}/sites`, { siteId: sites[0].site.id })).status).toBe(201);
    const own = await owner.api.patch(`/integrations/${name}/installations/${installationId}/sites/${sites[0].site.id}`, { configuration: { ...settings, clientId: 'site-own' } });
    expect(own.status).toBe(200);
    const ownScript = await request(h.current.app).get(`/integrations/${name}/installations/${installationId}/sites/${sites[0].site.id}/script.js`);
    expect(ownScript.status).toBe(200);
    expect(ownScript.text).toBe(`window.signIn = ${JSON.stringify({ site: sites[0].site.id, clientId: 'site-own' })}`);
    expect((await owner.api.delete(`/integrations/${name}/installations/${installationId}/sites/${sites[0].site.id}`)).status).toBe(204);

    // Each site's token is signed with its own key: the first site's does not open the second.
    const first = await signIn(sites[0], '/intro', 'ada');
    const elsewhere = await open(h.current, `${sites[1].url}/intro?jwt_token=${first.token}`);
    expect(elsewhere.status).toBe(302);
    const refused = await open(h.current, `${sites[1].url}/intro`, elsewhere.headers['set-cookie'] as unknown as string[]);
    expect(refused.status).toBe(302);
    expect(refused.headers.location).toContain(`/integrations/${name}/installations/${installationId}/sites/${sites[1].site.id}/visitor-auth`);

    // A site of another organization is not covered: no sign-in, no script, no public endpoint there.
    const stranger = await h.current.newAdmin();
    const theirs = await newSite(stranger, { title: 'Theirs', visibility: 'visitor-auth' });
    for (const path of ['visitor-auth', 'script.js', 'integration/callback']) {
      expect((await request(h.current.app).get(`/integrations/${name}/installations/${installationId}/sites/${theirs.id}/${path}`)).status).toBe(404);
    }

    // Back to selected sites (installed on none): the sites send readers to the sign-in page.
    expect((await owner.api.patch(`/integrations/${name}/installations/${installationId}`, { site_selection: 'selected' })).status).toBe(200);
    expect((await open(h.current, `${sites[0].url}/intro`)).status).toBe(401);
    expect((await request(h.current.app).get(`/integrations/${name}/installations/${installationId}/sites/${sites[0].site.id}/visitor-auth`)).status).toBe(404);
  });

  it('a plain Workers script (runtime v1) gets the event as JSON and the site key in env.signingSecrets', async () => {
    const plain = `export default {
      async fetch(request, env) {
        if (request.headers.get('x-integration-event') !== 'fetch_visitor_authentication') return new Response('no', { status: 404 });
        const event = await request.json();
        const to = new URL(env.siteConfiguration.authorizeUrl);
        to.searchParams.set('state', event.location);
        to.searchParams.set('site', event.siteId);
        to.searchParams.set('key', env.signingSecrets && env.signingSecrets.siteInstallation ? 'given' : 'missing');
        return Response.redirect(to.toString(), 302);
      },
    };`;
    const s = await signInSite({ runtime: 'v1', script: plain });
    const entry = await open(h.current, `${s.url}/guides/intro`);
    expect(entry.status).toBe(302);
    const start = new URL(entry.headers.location);
    const answer = await request(h.current.app).get(start.pathname + start.search).redirects(0);
    expect(answer.status, answer.text).toBe(302);
    const to = new URL(answer.headers.location);
    expect(`${to.origin}${to.pathname}`).toBe(`${provider.url}/authorize`);
    expect(Object.fromEntries(to.searchParams)).toEqual({ state: '/guides/intro', site: s.site.id, key: 'given' });
  });
});
