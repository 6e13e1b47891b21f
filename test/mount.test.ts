// createDocsApi (the package's main entry) mounted in a host's own Express app under /api/v1, its published
// sites under /docs, with routes of the host before and after it and a body parser of the host in front:
// the API serves its operations, its other paths and the routes beside it (SAML sign-in, invitation join
// links, integration public endpoints) relative to the mount, builds every URL it hands out from it (and
// follows each: Location, a file, a site page, SAML metadata, start and ACS, a join link, an integration
// endpoint whose script is told the API's URL under the mount), leaves the host's paths to the host, keeps
// its own body limits, and logs and measures into the host's logger and registry. Every API answer is
// checked against the published document. On the suite's storage: a fresh DATA_DIR (PGlite) or a database
// cloned from the migrated template (PostgreSQL).
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import express from 'express';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../server/db/scratch-database.js';
import { createDocsApi, type DocsApi } from '../server/index.js';
import { findOperation, responseProblems } from './support/spec.js';
import { idpCertificate } from './support/matrix/sso-certificate.js';
import { publishBody } from './support/matrix/integrations.js';

const HOST_URL = 'https://host.example';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe('createDocsApi mounted at /api/v1 in a host Express app', () => {
  const { logger, lines } = capturingLogger();
  const registry = new Registry();
  let api: DocsApi;
  let host: express.Express;
  let token: string;
  let organizationId: string;
  let scratch: ScratchDatabase | undefined;
  let dataDir: string | undefined;

  /** A request to the host, and, when it is the API's, its answer checked against the document. */
  async function call(method: 'get' | 'post' | 'put' | 'patch', url: string, body?: unknown) {
    let req = request(host)[method](url).set('Authorization', `Bearer ${token}`);
    if (body !== undefined) req = req.send(body as object);
    const res = await req;
    const underApi = url.startsWith('/api/v1/') ? `/v1${url.slice('/api/v1'.length).split('?')[0]}` : undefined;
    const op = underApi && findOperation(method, underApi);
    if (op) expect(responseProblems(op, res.status, res.text === '' ? undefined : res.body, res.headers), `${method} ${url} -> ${res.status} ${res.text.slice(0, 200)}`).toEqual([]);
    return res;
  }

  beforeAll(async () => {
    const adminUrl = process.env.DATABASE_URL;
    const template = inject('postgresTemplate');
    let storage;
    if (adminUrl && template) {
      scratch = await createScratchDatabase(adminUrl, { prefix: 'dwapi_mount', template });
      storage = { kind: 'postgres' as const, url: scratch.url };
    } else {
      dataDir = mkdtempSync(path.join(tmpdir(), 'dwapi-mount-'));
      storage = { kind: 'pglite' as const, dataDir, thread: false };
    }
    api = createDocsApi({ env: { PUBLIC_URL: HOST_URL, PUBLISHED_URL: `${HOST_URL}/docs`, ALLOW_PRIVATE_FETCH: 'true' }, config: { storage }, logger, registry });
    const started = await api.start();
    expect(started.bootstrap).toBeDefined();
    token = started.bootstrap!.token!;
    organizationId = started.bootstrap!.organizationId;

    host = express();
    host.get('/before', (_req, res) => {
      res.json({ from: 'host, before' });
    });
    // A host's parser in front of the API, with a larger limit than the API's own 1 MiB.
    host.use(express.json({ limit: '10mb' }));
    host.use('/api/v1', api.handler);
    host.get('/api/v1/host-status', (_req, res) => {
      res.json({ from: 'host, after, under the same prefix' });
    });
    host.use('/docs', api.sites);
    host.use((_req, res) => {
      res.status(404).json({ from: 'host 404' });
    });
  }, 120_000);

  afterAll(async () => {
    await api?.stop();
    await scratch?.dispose();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves operations relative to the mount, with every URL under it', async () => {
    const user = await call('get', '/api/v1/user');
    expect(user.status).toBe(200);
    expect(user.body.id).toBe((await call('get', `/api/v1/orgs/${organizationId}/members`)).body.items[0].user.id);

    const org = await call('get', `/api/v1/orgs/${organizationId}`);
    expect(org.status).toBe(200);
    expect(org.body.urls.location).toBe(`${HOST_URL}/api/v1/orgs/${organizationId}`);

    const created = await call('post', `/api/v1/orgs/${organizationId}/collections`, { title: 'Mounted' });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(`${HOST_URL}/api/v1/collections/${created.body.id}`);
    expect(created.body.urls.location).toBe(created.headers.location);
    // The URL it handed out answers, through the host.
    const read = await call('get', new URL(created.headers.location).pathname);
    expect(read.status).toBe(200);
    expect(read.body.title).toBe('Mounted');
  });

  /** The path of an absolute URL the API handed out, which must be under the host's origin and `prefix`. */
  const pathUnder = (url: string, prefix: string) => {
    expect(url.startsWith(`${HOST_URL}${prefix}/`), url).toBe(true);
    return url.slice(HOST_URL.length);
  };

  it('hands out file and site URLs under the mount and under /docs, and both answer', async () => {
    const space = await call('post', `/api/v1/orgs/${organizationId}/spaces`, { title: 'Mounted docs' });
    expect(space.status).toBe(201);
    const cr = await call('post', `/api/v1/spaces/${space.body.id}/change-requests`, { subject: 'Content' });
    expect(cr.status).toBe(201);
    const changes = [
      { operation: 'insert_page', title: 'Welcome', document: { markdown: 'Served under the host.' } },
      { operation: 'insert_files', files: [{ name: 'pixel.png', contentType: 'image/png', base64: PNG }] },
    ];
    const content = await call('post', `/api/v1/spaces/${space.body.id}/change-requests/${cr.body.id}/content?compat=false`, { changes });
    expect(content.status, JSON.stringify(content.body)).toBe(200);
    const file = await request(host).get(pathUnder(content.body.insertedFiles[0].downloadURL, '/api/v1/files')).buffer(true);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect((await call('post', `/api/v1/spaces/${space.body.id}/change-requests/${cr.body.id}/merge`)).status).toBe(200);

    const site = await call('post', `/api/v1/orgs/${organizationId}/sites`, { title: 'Mounted site', spaces: [space.body.id] });
    expect(site.status, JSON.stringify(site.body)).toBe(201);
    const published = await call('post', `/api/v1/orgs/${organizationId}/sites/${site.body.id}/publish`);
    expect(published.status).toBe(200);
    const home = await request(host).get(pathUnder(published.body.urls.published, '/docs')).set('Host', 'host.example').redirects(3);
    expect(home.status, home.text.slice(0, 300)).toBe(200);
    expect(home.text).toContain('Served under the host.');
  });

  it('serves SAML sign-in at the URLs a provider is given: metadata, start and the assertion consumer', async () => {
    const created = await call('post', `/api/v1/orgs/${organizationId}/saml`, {
      label: 'Mounted IdP',
      ssoURL: 'https://idp.test.example/sso',
      entityID: 'https://idp.test.example/entity',
      certificate: idpCertificate,
    });
    expect(created.status).toBe(201);
    const { acsURL, startURL, entityID } = created.body.service;
    const base = `/api/v1/auth/saml/${created.body.id}`;
    expect([pathUnder(acsURL, '/api/v1'), pathUnder(startURL, '/api/v1'), pathUnder(entityID, '/api/v1')]).toEqual([`${base}/acs`, `${base}/start`, `${base}/metadata`]);
    const metadata = await request(host).get(pathUnder(entityID, '/api/v1'));
    expect(metadata.status).toBe(200);
    expect(metadata.text).toContain(`entityID="${entityID}"`);
    expect(metadata.text).toContain(`Location="${acsURL}"`);
    const start = await request(host).get(pathUnder(startURL, '/api/v1')).redirects(0);
    expect(start.status).toBe(302);
    expect(start.headers.location).toMatch(/^https:\/\/idp\.test\.example\/sso\?SAMLRequest=/);
    const refused = await request(host).post(pathUnder(acsURL, '/api/v1')).type('form').send({ SAMLResponse: 'bm90IGEgcmVzcG9uc2U=' });
    expect(refused.status).toBe(401); // refused by the sign-in (not a response it can verify), not the host's 404
    expect(refused.body.error.code).toBe(401);
  });

  it('gives join links under the mount that show and use the invitation', async () => {
    const invited = await call('post', `/api/v1/orgs/${organizationId}/invites`, { emails: ['mounted@example.com'], role: 'read' });
    expect(invited.status).toBe(200);
    const link: string = invited.body.invitations[0].url;
    expect(link).toMatch(/^https:\/\/host\.example\/api\/v1\/auth\/invite\?token=eit_/);
    const shown = await request(host).get(pathUnder(link, '/api/v1'));
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('Accept');
    // Sent as JSON, which the host's parser reads first: the route takes the parsed body.
    const joined = await request(host).post('/api/v1/auth/invite').send({ token: new URL(link).searchParams.get('token') });
    expect(joined.status).toBe(200);
    expect(joined.body).toMatchObject({ object: 'invite-token', organizationId });
    const me = await request(host).get('/api/v1/user').set('Authorization', `Bearer ${joined.body.token}`);
    expect(me.status).toBe(200);
    expect(me.body.email).toBe('mounted@example.com');
  });

  it("serves an integration's public endpoint under the mount, its script told the API's URL there", async () => {
    const name = `mounted-${Date.now().toString(36)}`;
    const script = 'export default { async fetch(request, env) { return Response.json({ path: new URL(request.url).pathname, apiEndpoint: env.apiEndpoint }); } }';
    expect((await call('post', `/api/v1/integrations/${name}`, { ...publishBody(organizationId), script })).status).toBe(200);
    const installed = await call('post', `/api/v1/integrations/${name}/installations`, { organization: organizationId });
    expect(installed.status).toBe(200);
    const endpoint = pathUnder(installed.body.urls.publicEndpoint, '/api/v1/integrations');
    const answer = await request(host).get(`${endpoint}/hello`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ path: `${endpoint}/hello`, apiEndpoint: `${HOST_URL}/api/v1` });
  }, 60_000);

  it('answers its own errors (401, 405, 400) and serves its document under the mount', async () => {
    const anonymous = await request(host).get('/api/v1/user');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe(401);
    const wrongMethod = await call('put', '/api/v1/user');
    expect(wrongMethod.status).toBe(405);
    const invalid = await call('post', `/api/v1/orgs/${organizationId}/collections`, { title: 42 });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.message).toMatch(/title/);
    const document = await request(host).get('/api/v1/openapi.json');
    expect(document.status).toBe(200);
    expect(document.body.openapi).toMatch(/^3\.1/);
  });

  it("leaves the host's paths to the host: before it, after it under the same prefix, and unknown ones", async () => {
    const before = await request(host).get('/before');
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ from: 'host, before' });
    const after = await request(host).get('/api/v1/host-status');
    expect(after.status).toBe(200);
    expect(after.body).toEqual({ from: 'host, after, under the same prefix' });
    const unknown = await request(host).get('/api/v1/no-such-thing');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ from: 'host 404' });
    const outside = await request(host).get('/v1/user').set('Authorization', `Bearer ${token}`);
    expect(outside.status).toBe(404);
    expect(outside.body).toEqual({ from: 'host 404' });
  });

  it("keeps its own body limit when the host's parser read the body first", async () => {
    const big = { title: 'x', parent: 'p'.repeat(1024 * 1024 + 10) };
    const tooLarge = await call('post', `/api/v1/orgs/${organizationId}/collections`, big);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error.code).toBe(413);
    // Chunked (no Content-Length): the parsed body's size is held against the limit.
    const server = host.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: `/api/v1/orgs/${organizationId}/collections`, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        const text = JSON.stringify(big);
        req.write(text.slice(0, 1000)); // written in parts: Node sends it chunked
        req.end(text.slice(1000));
      });
      expect(status).toBe(413);
    } finally {
      server.close();
    }
  });

  it("logs into the host's logger with the path from the root, and measures into the host's registry", async () => {
    const res = await call('get', '/api/v1/user');
    expect(res.status).toBe(200);
    const requestId = res.headers['x-request-id'];
    await expect.poll(() => lines.find((l) => l.reqId === requestId)).toMatchObject({ path: '/api/v1/user', operationId: 'getAuthenticatedUser', status: 200 });
    const page = await registry.metrics();
    expect(page).toMatch(/http_request_duration_seconds_count\{[^}]*operation="getAuthenticatedUser"[^}]*\} [1-9]/);
  });
});
