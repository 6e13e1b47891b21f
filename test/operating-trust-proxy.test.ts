// TRUST_PROXY (server/http/proxy-trust.ts): off by default, forwarded headers are ignored; set (a hop count
// or an address list, as Express's `trust proxy` takes it), the client's address, protocol and host come
// from the trusted proxies' X-Forwarded-For, -Proto and -Host. They decide the rate limit of requests
// without a token, the Secure flag of a published site's visitor cookies, and the host a custom-hostname
// site is found by. supertest connects from 127.0.0.1 (loopback). On the suite's storage.
import type { IncomingMessage } from 'node:http';
import { pino } from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { clientAddress, compileTrust, isSecure, requestHost, trustProxies } from '../server/http/proxy-trust.js';
import { createRateLimiter } from '../server/operating/rate-limit.js';
import { PUBLIC_URL, useHarness } from './support/harness.js';
import { open, publish, spaceWithPages } from './published-support.js';
import { enableAdaptiveContent, newSite, signVisitorToken, sitePath } from './sites-support.js';

const h = useHarness();

/** A request from `peer` with `headers`, as the app would see it, under `setting`. */
function fakeRequest(peer: string, headers: Record<string, string>, setting?: string | number): IncomingMessage {
  const req = { socket: { remoteAddress: peer }, headers, connection: { remoteAddress: peer } } as unknown as IncomingMessage;
  trustProxies(req, compileTrust(setting));
  return req;
}

describe('TRUST_PROXY', () => {
  it('is read as Express takes it: off, true, a hop count or an address list; a bad list stops the start naming it', () => {
    expect(loadConfig({}).trustProxy).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toBe('loopback, 10.0.0.0/8');
    expect(() => loadConfig({ TRUST_PROXY: 'the-balancer' })).toThrow(/TRUST_PROXY/);
  });

  it('decides the client address, protocol and host only when the peer is trusted', () => {
    const forwarded = { 'x-forwarded-for': '198.51.100.9, 203.0.113.5', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'docs.example.com', host: 'internal:3000' };
    // Off: the connection's own.
    const off = fakeRequest('10.0.0.2', forwarded);
    expect([clientAddress(off), isSecure(off), requestHost(off)]).toEqual(['10.0.0.2', false, 'internal:3000']);
    // One hop trusted: the balancer's word on the client, protocol and host.
    const oneHop = fakeRequest('10.0.0.2', forwarded, 1);
    expect([clientAddress(oneHop), isSecure(oneHop), requestHost(oneHop)]).toEqual(['203.0.113.5', true, 'docs.example.com']);
    // Two hops: the address one proxy further.
    expect(clientAddress(fakeRequest('10.0.0.2', forwarded, 2))).toBe('198.51.100.9');
    // An address list: trusted from 10.0.0.0/8, not from elsewhere.
    const listed = fakeRequest('10.0.0.2', forwarded, '10.0.0.0/8');
    expect([clientAddress(listed), isSecure(listed)]).toEqual(['203.0.113.5', true]);
    const stranger = fakeRequest('192.0.2.1', forwarded, '10.0.0.0/8');
    expect([clientAddress(stranger), isSecure(stranger), requestHost(stranger)]).toEqual(['192.0.2.1', false, 'internal:3000']);
  });

  it('rate-limits requests without a token by the forwarded client address when the proxy is trusted, by the peer otherwise', async () => {
    const appWith = (trustProxy?: string) => {
      const limiter = createRateLimiter({ perMinute: 2 });
      return { limiter, app: createApp({ db: h.current.db, logger: pino({ level: 'silent' }), publicUrl: PUBLIC_URL, rateLimiter: limiter, trustProxy }) };
    };
    const get = (app: ReturnType<typeof createApp>, client: string) => request(app).get('/v1/user').set('X-Forwarded-For', client);

    const trusted = appWith('loopback');
    expect((await get(trusted.app, '203.0.113.1')).status).toBe(401);
    expect((await get(trusted.app, '203.0.113.1')).status).toBe(401);
    expect((await get(trusted.app, '203.0.113.1')).status).toBe(429);
    // Another client behind the same balancer has its own budget.
    const other = await get(trusted.app, '203.0.113.2');
    expect(other.status).toBe(401);
    expect(other.headers['x-ratelimit-remaining']).toBe('1');
    await trusted.limiter.close();

    // Off (the default): the header is the client's to write, so it changes nothing; every request is the peer's.
    const untrusted = appWith(undefined);
    expect((await get(untrusted.app, '203.0.113.1')).status).toBe(401);
    expect((await get(untrusted.app, '203.0.113.2')).status).toBe(401);
    expect((await get(untrusted.app, '203.0.113.3')).status).toBe(429);
    await untrusted.limiter.close();
  });

  it("marks a published site's visitor cookies Secure when a trusted proxy says the client used https", async () => {
    const admin = await h.current.newAdmin();
    const space = await spaceWithPages(admin, 'Guides', [{ title: 'Intro', markdown: 'For everyone.' }]);
    const site = await newSite(admin, { title: 'Behind a balancer', spaces: [space] });
    await enableAdaptiveContent(admin, site.id);
    const url: string = (await publish(admin, site.id)).urls.published;
    const key: string = (await admin.api.get(`${sitePath(admin, site.id)}/publishing/auth`)).body.privateKey;
    const entry = new URL(`${url}/guides/intro?jwt_token=${await signVisitorToken({ plan: 'pro' }, key)}`);
    const visit = async (trustProxy?: string) => {
      const app = createApp({ db: h.current.db, logger: pino({ level: 'silent' }), publicUrl: PUBLIC_URL, trustProxy });
      const res = await request(app).get(entry.pathname + entry.search).set('Host', entry.host).set('X-Forwarded-Proto', 'https').redirects(0);
      expect(res.status).toBe(302);
      const cookies = res.headers['set-cookie'] as unknown as string[];
      expect(cookies.length).toBeGreaterThan(0);
      return cookies;
    };
    for (const cookie of await visit('loopback')) expect(cookie).toMatch(/;\s*Secure/i);
    for (const cookie of await visit(undefined)) expect(cookie).not.toMatch(/;\s*Secure/i);
    // The harness's app (no TRUST_PROXY) agrees with the default.
    const plain = await open(h.current, entry.toString());
    expect(plain.status).toBe(302);
  });
});
