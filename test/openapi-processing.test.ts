// Background processing of OpenAPI specifications against a local HTTP server: fetch, parse, version,
// and the recorded failures (timeout, fetch error, parse error).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainOpenAPIJobs, petstoreYaml } from './support/matrix/openapi.js';
import { useHarness } from './support/harness.js';

const h = useHarness();
let server: Server;
let base: string;

const petstoreJson = JSON.stringify({ openapi: '3.0.3', info: { title: 'Pets JSON', version: '3' }, paths: {} });

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/pets.yaml') return void res.writeHead(200, { 'content-type': 'application/yaml' }).end(petstoreYaml);
    if (req.url === '/api') return void res.writeHead(200, { 'content-type': 'application/json' }).end(petstoreJson);
    if (req.url === '/slow.yaml') return void setTimeout(() => res.writeHead(200).end(petstoreYaml), 1500);
    if (req.url === '/broken.yaml') return void res.writeHead(200).end('openapi: [3.1\ninfo: {title');
    if (req.url === '/not-openapi.yaml') return void res.writeHead(200).end('hello: world\n');
    if (req.url === '/huge.yaml') return void res.writeHead(200).end('x'.repeat(2 * 1024 * 1024));
    res.writeHead(404).end('missing');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function processed(url: string, timeoutMs = 500) {
  const admin = await h.current.newAdmin();
  const slug = `s-${Math.random().toString(36).slice(2, 8)}`;
  expect((await admin.api.post(`/orgs/${admin.organizationId}/openapi`, { slug, source: { url } })).status).toBe(201);
  await drainOpenAPIJobs(h.current, timeoutMs);
  const spec = (await admin.api.get(`/orgs/${admin.organizationId}/openapi/${slug}`)).body;
  return { admin, slug, spec };
}

describe('OpenAPI processing', () => {
  it('fetches a URL from a local server and stores a version whose content is the document', async () => {
    const { admin, slug, spec } = await processed(`${base}/pets.yaml`);
    expect(spec).toMatchObject({ processingState: 'complete', sourceURL: `${base}/pets.yaml` });
    expect(spec.lastProcessedAt).toBeDefined();
    expect(spec.lastProcessErrorCode).toBeUndefined();
    const content = await admin.api.get(`/orgs/${admin.organizationId}/openapi/${slug}/versions/${spec.lastVersion}/content`);
    expect(content.body.filesystem).toEqual({
      'pets.yaml': {
        openapi: '3.1.0',
        info: { title: 'Pet store', version: '1.0.0' },
        paths: { '/pets': { get: { operationId: 'listPets', responses: { '200': { description: 'The pets.' } } } } },
      },
    });
  });

  it('names a JSON document without a file name openapi.json', async () => {
    const { admin, slug } = await processed(`${base}/api`);
    const content = await admin.api.get(`/orgs/${admin.organizationId}/openapi/${slug}/versions/latest/content`);
    expect(content.body.filesystem).toEqual({ 'openapi.json': JSON.parse(petstoreJson) });
  });

  it('records FETCH_TIMEOUT for a server slower than the deadline, with no version', async () => {
    const { spec } = await processed(`${base}/slow.yaml`, 300);
    expect(spec).toMatchObject({ processingState: 'complete', lastProcessErrorCode: 'FETCH_TIMEOUT' });
    expect(spec.lastProcessedErrors[0].message).toContain('did not answer');
    expect(spec.lastVersion).toBeUndefined();
  });

  it('records FETCH_ERROR for a 404, an unreachable host and a body over the size cap', async () => {
    expect((await processed(`${base}/missing.yaml`)).spec.lastProcessErrorCode).toBe('FETCH_ERROR');
    expect((await processed('http://127.0.0.1:1/none.yaml')).spec.lastProcessErrorCode).toBe('FETCH_ERROR');
    const huge = (await processed(`${base}/huge.yaml`)).spec;
    expect(huge.lastProcessErrorCode).toBe('FETCH_ERROR');
    expect(huge.lastProcessedErrors[0].message).toContain('larger than');
  });

  it('records PARSE_ERROR for a broken document and for YAML that is not OpenAPI', async () => {
    const broken = (await processed(`${base}/broken.yaml`)).spec;
    expect(broken).toMatchObject({ processingState: 'complete', lastProcessErrorCode: 'PARSE_ERROR' });
    expect(broken.lastProcessedErrors.length).toBeGreaterThan(0);
    const notOpenAPI = (await processed(`${base}/not-openapi.yaml`)).spec;
    expect(notOpenAPI.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(notOpenAPI.lastVersion).toBeUndefined();
  });

  it('keeps the last good version when a later source fails, and clears the error on the next success', async () => {
    const { admin, slug, spec } = await processed(`${base}/pets.yaml`);
    await admin.api.put(`/orgs/${admin.organizationId}/openapi/${slug}`, { source: { url: `${base}/broken.yaml` } });
    await drainOpenAPIJobs(h.current);
    const failed = (await admin.api.get(`/orgs/${admin.organizationId}/openapi/${slug}`)).body;
    expect(failed).toMatchObject({ lastProcessErrorCode: 'PARSE_ERROR', lastVersion: spec.lastVersion });
    await admin.api.put(`/orgs/${admin.organizationId}/openapi/${slug}`, { source: { text: petstoreYaml } });
    await drainOpenAPIJobs(h.current);
    const fixed = (await admin.api.get(`/orgs/${admin.organizationId}/openapi/${slug}`)).body;
    expect(fixed.lastProcessErrorCode).toBeUndefined();
    expect(fixed.lastProcessedErrors).toBeUndefined();
    expect(fixed.lastVersion).not.toBe(spec.lastVersion);

    // Each version says where its own document came from: the first the URL it was fetched from, the second
    // (given as text) this server's URL for it, which answers with that document.
    const first = await admin.api.get(`/orgs/${admin.organizationId}/openapi/${slug}/versions/${spec.lastVersion}/content`);
    expect(first.status).toBe(200);
    expect(first.body.urls).toEqual({ source: `${base}/pets.yaml`, public: null });
    const second = await admin.api.get(`/orgs/${admin.organizationId}/openapi/${slug}/versions/latest/content`);
    expect(second.status).toBe(200);
    expect(second.body.urls).toEqual({ source: second.body.url, public: null });
    expect(second.body.urls.source).toContain(`/versions/${fixed.lastVersion}/content`);
    const served = await admin.api.get(new URL(second.body.urls.source).pathname.replace(/^\/v1/, ''));
    expect(served.status).toBe(200);
    expect(served.body.filesystem['openapi.yaml'].info.title).toBe('Pet store');
  });

  it('processes only the newest source when the source changes before the job runs', async () => {
    const admin = await h.current.newAdmin();
    await admin.api.post(`/orgs/${admin.organizationId}/openapi`, { slug: 'twice', source: { url: `${base}/broken.yaml` } });
    await admin.api.put(`/orgs/${admin.organizationId}/openapi/twice`, { source: { url: `${base}/pets.yaml` } });
    await drainOpenAPIJobs(h.current);
    const versions = await admin.api.get(`/orgs/${admin.organizationId}/openapi/twice/versions`);
    expect(versions.body.count).toBe(1);
    const spec = (await admin.api.get(`/orgs/${admin.organizationId}/openapi/twice`)).body;
    expect(spec.lastProcessErrorCode).toBeUndefined();
  });
});
