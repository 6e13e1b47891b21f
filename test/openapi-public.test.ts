// Public specifications are public: a spec with visibility `public` is served without a token at its
// `urls.published` (a rendered reference, and the document at `<published>/openapi.json`), and its
// versions' `url` downloads the document without a token. A private one has no public link: its old public
// URLs answer 404 and its versions' `url` needs the token.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { drainOpenAPIJobs, petstoreYaml } from './support/matrix/openapi.js';
import { PUBLIC_URL, useHarness, type Harness } from './support/harness.js';

const h = useHarness();

/** A GET of an absolute URL of this server, without a token unless one is given. */
function fetchUrl(harness: Harness, url: string, token?: string) {
  const u = new URL(url);
  const req = request(harness.app).get(u.pathname + u.search).set('Host', u.host);
  return token ? req.set('Authorization', `Bearer ${token}`) : req;
}

describe('public OpenAPI specifications', () => {
  it('serve the reference, the document and each version without a token; private ones stay behind it', async () => {
    const admin = await h.current.newAdmin();
    const created = await admin.api.post(`/orgs/${admin.organizationId}/openapi`, { slug: 'pets', source: { text: petstoreYaml } });
    expect(created.status).toBe(201);
    await drainOpenAPIJobs(h.current);
    const base = `/orgs/${admin.organizationId}/openapi/pets`;

    const privateSpec = await admin.api.get(base);
    expect(privateSpec.body.urls.published).toBeUndefined();
    const privateVersion = await admin.api.get(`${base}/versions/latest`);
    expect(privateVersion.status).toBe(200);
    expect(privateVersion.body.url).toBe(`${PUBLIC_URL}/v1${base}/versions/${privateVersion.body.id}/content`);
    expect((await fetchUrl(h.current, privateVersion.body.url)).status).toBe(401);
    expect((await fetchUrl(h.current, privateVersion.body.url, admin.token)).status).toBe(200);
    // A private version's content: no public URL; its source (given as text) is this server's, behind the token.
    const privateContent = await admin.api.get(`${base}/versions/latest/content`);
    expect(privateContent.status).toBe(200);
    expect(privateContent.body.urls).toEqual({ source: privateVersion.body.url, public: null });
    const guessed = `${PUBLIC_URL}/sites/~openapi/${admin.organizationId}/pets`;
    expect((await fetchUrl(h.current, guessed)).status).toBe(404);

    const made = await admin.api.patch(base, { visibility: 'public' });
    expect(made.status).toBe(200);
    const published: string = made.body.urls.published;
    expect(published).toBe(guessed);
    const reference = await fetchUrl(h.current, published);
    expect(reference.status).toBe(200);
    expect(reference.headers['content-type']).toContain('text/html');
    expect(reference.text).toContain('<h1>Pet store</h1>');
    expect(reference.text).toMatch(/<span class="method get">GET<\/span> <code>\/pets<\/code>/);
    const document = await fetchUrl(h.current, `${published}/openapi.json`);
    expect(document.status).toBe(200);
    expect(document.body).toMatchObject({ openapi: '3.1.0', info: { title: 'Pet store' } });

    const version = await admin.api.get(`${base}/versions/latest`);
    expect(version.body.url).toBe(`${published}/versions/${version.body.id}/openapi.json`);
    const download = await fetchUrl(h.current, version.body.url);
    expect(download.status).toBe(200);
    expect(download.body).toEqual(document.body);
    const content = await admin.api.get(`${base}/versions/latest/content`);
    expect(content.status).toBe(200);
    expect(content.body.url).toBe(version.body.url);
    // Public: both URLs are the token-free document of this version, readable from any origin.
    expect(content.body.urls).toEqual({ source: version.body.url, public: version.body.url });
    const viaPublic = await fetchUrl(h.current, content.body.urls.public);
    expect(viaPublic.status).toBe(200);
    expect(viaPublic.headers['access-control-allow-origin']).toBe('*');
    expect(viaPublic.body).toEqual(privateContent.body.filesystem['openapi.yaml']);
    expect((await fetchUrl(h.current, `${published}/versions/ver_unknown/openapi.json`)).status).toBe(404);

    // Private again: nothing public answers.
    expect((await admin.api.patch(base, { visibility: 'private' })).status).toBe(200);
    for (const url of [published, `${published}/openapi.json`, version.body.url]) expect((await fetchUrl(h.current, url)).status, url).toBe(404);
    expect((await admin.api.get(`${base}/versions/latest`)).body.url).toContain('/v1/');
    expect((await admin.api.get(`${base}/versions/latest/content`)).body.urls.public).toBeNull();
  });
});
