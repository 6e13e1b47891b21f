// An OIDC visitor-authentication integration with PKCE on, end to end (test/fixtures/integrations/oidc-pkce.ts:
// the platform calls of GitbookIO/integrations' `oidc`), built as @gitbook/cli builds it and installed on a
// `visitor-auth` site. The identity provider is a stand-in served over https (a certificate of
// test/fixtures/tls this process trusts): it checks the PKCE verifier against the challenge it was given, so
// the flow passes only if the verifier went out in an AES-GCM cookie and came back decrypted.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import * as tls from 'node:tls';
import { jwtVerify, SignJWT } from 'jose';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUrls } from '../server/urls.js';
import { setScriptUrls } from '../server/runtime/script-runtime.js';
import { bundleIntegration } from './support/gitbook-bundle.js';
import { useHarness, type Account } from './support/harness.js';
import { publishAs } from './support/matrix/integrations.js';
import { open, publish, spaceWithPages } from './published-support.js';
import { newSite, sitePath } from './sites-support.js';

const h = useHarness();
const PUBLIC_URL = 'https://api.test.example';
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const CLIENT_SECRET = 'oidc-client-secret';
const base64url = (bytes: Buffer) => bytes.toString('base64url');

/** The stand-in provider: /authorize remembers the challenge of the code it gives; /token wants its verifier. */
async function startProvider() {
  const codes = new Map<string, { challenge: string | null; redirectUri: string }>();
  const tokenRequests: URLSearchParams[] = [];
  const server = createServer({ cert: fixture('tls/provider-cert.pem'), key: fixture('tls/provider-key.pem') }, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://provider');
    if (req.method === 'GET' && url.pathname === '/authorize') {
      const code = `code-${codes.size + 1}`;
      codes.set(code, { challenge: url.searchParams.get('code_challenge'), redirectUri: url.searchParams.get('redirect_uri')! });
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      return void res.writeHead(302, { location: back.toString() }).end();
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', async () => {
        const form = new URLSearchParams(body);
        tokenRequests.push(form);
        const given = codes.get(form.get('code') ?? '');
        const verifier = form.get('code_verifier');
        const proven = given && (given.challenge === null || (verifier !== null && base64url(createHash('sha256').update(verifier).digest()) === given.challenge));
        if (!given || !proven || form.get('client_secret') !== CLIENT_SECRET || form.get('redirect_uri') !== given.redirectUri) {
          return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_grant"}');
        }
        codes.delete(form.get('code')!);
        const idToken = await new SignJWT({ sub: 'ada', email: 'ada@example.com' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('5m').sign(new TextEncoder().encode(CLIENT_SECRET));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id_token: idToken, token_type: 'Bearer', expires_in: 300 }));
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, tokenRequests, url: `https://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('an OIDC integration with PKCE (AES-GCM cookie) against an https provider', () => {
  let server: Server;
  let provider: Awaited<ReturnType<typeof startProvider>>;
  let owner: Account;
  let script: string;
  let trusted: string[];
  beforeAll(async () => {
    // The provider's certificate is trusted by this process's TLS clients (the server's outbound fetch).
    trusted = tls.getCACertificates('default');
    tls.setDefaultCACertificates([...trusted, fixture('tls/provider-cert.pem')]);
    server = h.current.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    setScriptUrls(createUrls(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
    provider = await startProvider();
    owner = await h.current.newAdmin();
    script = await bundleIntegration(fixture('integrations/oidc-pkce.ts'));
  });
  afterAll(async () => {
    tls.setDefaultCACertificates(trusted);
    setScriptUrls(createUrls(PUBLIC_URL));
    await new Promise((resolve) => server.close(resolve));
    provider.server.closeAllConnections();
    await new Promise((resolve) => provider.server.close(resolve));
  });

  it('sends the reader to the provider with a challenge, exchanges the code with the verifier from its cookie, and admits them', async () => {
    const space = await spaceWithPages(owner, 'Guides', [{ title: 'Intro', markdown: 'Signed-in readers only.' }]);
    const site = await newSite(owner, { title: 'Private docs', spaces: [space], visibility: 'visitor-auth' });
    const url: string = (await publish(owner, site.id)).urls.published;
    const name = `oidc-${Date.now().toString(36)}`;
    // publishAs checks the answer (200) itself.
    await publishAs(owner, name, { runtime: 'v2', script, scopes: ['site:visitor:auth', 'site:metadata:read'], configurations: { site: { componentId: 'config' } } });
    const installation = await owner.api.post(`/integrations/${name}/installations`, { organization: owner.organizationId });
    expect(installation.status).toBe(200);
    const installationId = installation.body.id as string;
    expect((await owner.api.post(`/integrations/${name}/installations/${installationId}/sites`, { siteId: site.id })).status).toBe(201);
    const configured = await owner.api.patch(`/integrations/${name}/installations/${installationId}/sites/${site.id}`, {
      configuration: { client_id: 'docs', client_secret: CLIENT_SECRET, authorization_endpoint: `${provider.url}/authorize`, access_token_endpoint: `${provider.url}/token`, scope: 'openid', use_pkce: true },
    });
    expect(configured.status).toBe(200);
    const auth = await owner.api.patch(`${sitePath(owner, site.id)}/publishing/auth`, { backend: 'integration' });
    expect(auth.status).toBe(200);
    const siteKey = auth.body.privateKey as string;

    // 1. The site sends the reader to the integration, which sends them to the provider with a challenge
    // and sets its two cookies, apart, on its own path.
    const first = await open(h.current, `${url}/guides/intro`);
    expect(first.status).toBe(302);
    const start = new URL(first.headers.location);
    const toProvider = await request(h.current.app).get(start.pathname + start.search).redirects(0);
    expect(toProvider.status, toProvider.text).toBe(302);
    const authorize = new URL(toProvider.headers.location);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${provider.url}/authorize`);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    const cookies = toProvider.headers['set-cookie'] as unknown as string[];
    expect(cookies).toHaveLength(2);
    const endpointPath = `/integrations/${name}/installations/${installationId}/sites/${site.id}/integration`;
    expect(cookies[0]).toMatch(new RegExp(`^oidc-pkce-verifier=[A-Za-z0-9_-]{60,}; Path=${endpointPath}; Max-Age=600; HttpOnly; Secure; SameSite=Lax$`));
    expect(cookies[1]).toBe(`oidc-started=1; Path=${endpointPath}; Max-Age=600`);

    // 2. The provider sends the reader back to the callback with a code.
    const fromProvider = await fetch(authorize, { redirect: 'manual' });
    expect(fromProvider.status).toBe(302);
    const callback = new URL(fromProvider.headers.get('location')!);
    expect(callback.pathname).toBe(`${endpointPath}/visitor-auth/response`);

    // Without the cookie, or with one that was changed, the verifier cannot be read: no token is asked for.
    const withoutCookie = await request(h.current.app).get(callback.pathname + callback.search).redirects(0);
    expect(withoutCookie.status).toBe(400);
    expect(withoutCookie.text).toBe('Missing or invalid PKCE verifier cookie');
    const sealed = cookies[0].split(';')[0];
    const flipped = sealed.slice(0, -2) + (sealed.endsWith('AA') ? 'AB' : 'AA');
    const tampered = await request(h.current.app).get(callback.pathname + callback.search).set('Cookie', flipped).redirects(0);
    expect(tampered.status).toBe(400);
    expect(provider.tokenRequests).toHaveLength(0);

    // 3. With it, the integration decrypts the verifier, the provider checks it, and the reader is sent
    // to the page with a visitor token signed with the site's key; both cookies are cleared.
    const done = await request(h.current.app).get(callback.pathname + callback.search).set('Cookie', `${sealed}; oidc-started=1`).redirects(0);
    expect(done.status, done.text).toBe(302);
    expect(provider.tokenRequests).toHaveLength(1);
    expect(provider.tokenRequests[0].get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(done.headers['set-cookie']).toEqual([
      `oidc-pkce-verifier=; Path=${endpointPath}; Max-Age=0; HttpOnly; Secure; SameSite=Lax`,
      `oidc-started=; Path=${endpointPath}; Max-Age=0`,
    ]);
    const back = new URL(done.headers.location);
    expect(`${back.origin}${back.pathname}`).toBe(`${url}/guides/intro`);
    const token = back.searchParams.get('jwt_token')!;
    const { payload } = await jwtVerify(token, new TextEncoder().encode(siteKey), { algorithms: ['HS256'] });
    expect(payload).toMatchObject({ sub: 'ada', email: 'ada@example.com' });

    // 4. The site admits the reader with it.
    const kept = await open(h.current, back.toString());
    expect(kept.status).toBe(302);
    const page = await open(h.current, `${url}/guides/intro`, kept.headers['set-cookie'] as unknown as string[]);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Signed-in readers only.');

    // A code is used once: the provider refuses it again, and the integration says so.
    const again = await request(h.current.app).get(callback.pathname + callback.search).set('Cookie', sealed).redirects(0);
    expect(again.status).toBe(401);
    expect(again.text).toContain('The provider answered 400');
  });
});
