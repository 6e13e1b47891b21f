import { describe, expect, it } from 'vitest';
import { drainOpenAPIJobs, petstoreYaml } from './support/matrix/openapi.js';
import { PUBLIC_URL, useHarness, type Account } from './support/harness.js';

const h = useHarness();

async function spec(account: Account, slug: string, source: object = { text: petstoreYaml }) {
  const res = await account.api.post(`/orgs/${account.organizationId}/openapi`, { slug, source });
  expect(res.status).toBe(201);
  return res.body;
}

describe('OpenAPI specifications', () => {
  it('post /orgs/{organizationId}/openapi creates a private, pending specification', async () => {
    const admin = await h.current.newAdmin();
    const res = await admin.api.post(`/orgs/${admin.organizationId}/openapi`, { slug: 'pets-api', source: { url: 'https://example.com/pets.yaml' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'openapi-spec',
      slug: 'pets-api',
      sourceURL: 'https://example.com/pets.yaml',
      processingState: 'pending',
      visibility: 'private',
      permissions: { view: true, edit: true },
    });
    expect(res.body.lastVersion).toBeUndefined();
    expect(res.body.urls.location).toBe(`${PUBLIC_URL}/v1/orgs/${admin.organizationId}/openapi/pets-api`);
    expect(res.headers.location).toBe(res.body.urls.location);
    expect(res.body.urls.published).toBeUndefined();
  });

  it('post /orgs/{organizationId}/openapi returns 400 for a bad slug or source, 403 below create, 409 for a taken slug', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const badSlug = await admin.api.post(`/orgs/${admin.organizationId}/openapi`, { slug: 'bad--slug', source: { text: 'x' } });
    expect(badSlug.status).toBe(400);
    expect(badSlug.body.error.message).toContain('body.slug');
    const badSource = await admin.api.post(`/orgs/${admin.organizationId}/openapi`, { slug: 'ok', source: { url: 'not a url' } });
    expect(badSource.status).toBe(400);
    expect(badSource.body.error.message).toContain('body.source');
    expect((await editor.api.post(`/orgs/${admin.organizationId}/openapi`, { slug: 'ok', source: { text: 'x' } })).status).toBe(403);
    await spec(admin, 'taken');
    expect((await admin.api.post(`/orgs/${admin.organizationId}/openapi`, { slug: 'taken', source: { text: 'x' } })).status).toBe(409);
  });

  it('get /orgs/{organizationId}/openapi lists specifications in creation order with pagination', async () => {
    const admin = await h.current.newAdmin();
    const reader = await h.current.newMember(admin.organizationId, 'read');
    const a = await spec(admin, 'a');
    const b = await spec(admin, 'b');
    const c = await spec(admin, 'c');
    const first = await reader.api.get(`/orgs/${admin.organizationId}/openapi`, { limit: 2 });
    expect(first.status).toBe(200);
    expect(first.body.items.map((s: { id: string }) => s.id)).toEqual([a.id, b.id]);
    expect(first.body.items[0].permissions).toEqual({ view: true, edit: false });
    expect(first.body.count).toBe(3);
    const second = await reader.api.get(`/orgs/${admin.organizationId}/openapi`, { limit: 2, page: first.body.next.page });
    expect(second.body.items.map((s: { id: string }) => s.id)).toEqual([c.id]);
    const outsider = await h.current.newAdmin();
    expect((await outsider.api.get(`/orgs/${admin.organizationId}/openapi`)).status).toBe(404);
  });

  it('get /orgs/{organizationId}/openapi/{specSlug} returns it, and 404 for an unknown slug', async () => {
    const admin = await h.current.newAdmin();
    const s = await spec(admin, 'mine');
    const res = await admin.api.get(`/orgs/${admin.organizationId}/openapi/mine`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(s);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/openapi/unknown`)).status).toBe(404);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/openapi/bad--slug`)).status).toBe(400);
  });

  it('put /orgs/{organizationId}/openapi/{specSlug} creates (201) then updates (200) and processes again', async () => {
    const admin = await h.current.newAdmin();
    const created = await admin.api.put(`/orgs/${admin.organizationId}/openapi/via-put`, { source: { text: petstoreYaml } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ slug: 'via-put', processingState: 'pending', visibility: 'private' });
    expect(created.headers.location).toBe(created.body.urls.location);
    await drainOpenAPIJobs(h.current);
    const first = (await admin.api.get(`/orgs/${admin.organizationId}/openapi/via-put`)).body;
    expect(first.processingState).toBe('complete');
    const updated = await admin.api.put(`/orgs/${admin.organizationId}/openapi/via-put`, { source: { text: petstoreYaml.replace('1.0.0', '2.0.0') } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.body.id, processingState: 'pending', lastVersion: first.lastVersion });
    await drainOpenAPIJobs(h.current);
    const versions = await admin.api.get(`/orgs/${admin.organizationId}/openapi/via-put/versions`);
    expect(versions.body.count).toBe(2);
    const latest = await admin.api.get(`/orgs/${admin.organizationId}/openapi/via-put/versions/latest/content`);
    expect(latest.body.filesystem['openapi.yaml'].info.version).toBe('2.0.0');
  });

  it('put /orgs/{organizationId}/openapi/{specSlug} returns 400 for a bad body and 403 below create', async () => {
    const admin = await h.current.newAdmin();
    const reviewer = await h.current.newMember(admin.organizationId, 'review');
    const bad = await admin.api.put(`/orgs/${admin.organizationId}/openapi/x`, { source: { text: '' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('body.source');
    expect((await reviewer.api.put(`/orgs/${admin.organizationId}/openapi/x`, { source: { text: 'a' } })).status).toBe(403);
  });

  it('patch /orgs/{organizationId}/openapi/{specSlug} makes it public with a published link, and back', async () => {
    const admin = await h.current.newAdmin();
    await spec(admin, 'vis');
    const pub = await admin.api.patch(`/orgs/${admin.organizationId}/openapi/vis`, { visibility: 'public' });
    expect(pub.status).toBe(200);
    expect(pub.body.visibility).toBe('public');
    expect(pub.body.urls.published).toMatch(/^https:\/\//);
    const priv = await admin.api.patch(`/orgs/${admin.organizationId}/openapi/vis`, { visibility: 'private' });
    expect(priv.body.urls.published).toBeUndefined();
    expect((await admin.api.get(`/orgs/${admin.organizationId}/openapi/vis`)).body.visibility).toBe('private');
  });

  it('patch /orgs/{organizationId}/openapi/{specSlug} returns 400 for an unknown visibility, 403 below create, 404 unknown', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    await spec(admin, 'vis');
    const bad = await admin.api.patch(`/orgs/${admin.organizationId}/openapi/vis`, { visibility: 'secret' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('body.visibility');
    expect((await editor.api.patch(`/orgs/${admin.organizationId}/openapi/vis`, { visibility: 'public' })).status).toBe(403);
    expect((await admin.api.patch(`/orgs/${admin.organizationId}/openapi/nope`, { visibility: 'public' })).status).toBe(404);
  });

  it('delete /orgs/{organizationId}/openapi/{specSlug} removes it with its versions, 204 also when missing, 403 below create', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    await spec(admin, 'gone');
    await drainOpenAPIJobs(h.current);
    expect((await editor.api.delete(`/orgs/${admin.organizationId}/openapi/gone`)).status).toBe(403);
    expect((await admin.api.delete(`/orgs/${admin.organizationId}/openapi/gone`)).status).toBe(204);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/openapi/gone`)).status).toBe(404);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/openapi/gone/versions`)).status).toBe(404);
    expect((await admin.api.delete(`/orgs/${admin.organizationId}/openapi/gone`)).status).toBe(204);
  });
});

describe('OpenAPI specification versions', () => {
  it('get /orgs/{organizationId}/openapi/{specSlug}/versions lists versions newest first with pagination', async () => {
    const admin = await h.current.newAdmin();
    await spec(admin, 'multi');
    await drainOpenAPIJobs(h.current);
    await admin.api.put(`/orgs/${admin.organizationId}/openapi/multi`, { source: { text: petstoreYaml } });
    await drainOpenAPIJobs(h.current);
    await admin.api.put(`/orgs/${admin.organizationId}/openapi/multi`, { source: { text: petstoreYaml } });
    await drainOpenAPIJobs(h.current);
    const first = await admin.api.get(`/orgs/${admin.organizationId}/openapi/multi/versions`, { limit: 2 });
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(3);
    const second = await admin.api.get(`/orgs/${admin.organizationId}/openapi/multi/versions`, { limit: 2, page: first.body.next.page });
    const ids = [...first.body.items, ...second.body.items].map((v: { id: string }) => v.id);
    expect(ids).toEqual([...ids].sort().reverse());
    const latest = (await admin.api.get(`/orgs/${admin.organizationId}/openapi/multi`)).body.lastVersion;
    expect(ids[0]).toBe(latest);
  });

  it('get /orgs/{organizationId}/openapi/{specSlug}/versions returns 404 for an unknown specification', async () => {
    const admin = await h.current.newAdmin();
    expect((await admin.api.get(`/orgs/${admin.organizationId}/openapi/nope/versions`)).status).toBe(404);
  });

  it('get /orgs/{organizationId}/openapi/{specSlug}/versions/latest returns the latest version, 404 before any', async () => {
    const admin = await h.current.newAdmin();
    await spec(admin, 'fresh');
    expect((await admin.api.get(`/orgs/${admin.organizationId}/openapi/fresh/versions/latest`)).status).toBe(404);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/openapi/fresh/versions/latest/content`)).status).toBe(404);
    await drainOpenAPIJobs(h.current);
    const res = await admin.api.get(`/orgs/${admin.organizationId}/openapi/fresh/versions/latest`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'openapi-spec-version' });
    expect(res.body.urls.location).toBe(`${PUBLIC_URL}/v1/orgs/${admin.organizationId}/openapi/fresh/versions/${res.body.id}`);
    expect(res.body.url).toBe(`${res.body.urls.location}/content`);
  });

  it('get /orgs/{organizationId}/openapi/{specSlug}/versions/latest/content returns the parsed document', async () => {
    const admin = await h.current.newAdmin();
    await spec(admin, 'content');
    await drainOpenAPIJobs(h.current);
    const res = await admin.api.get(`/orgs/${admin.organizationId}/openapi/content/versions/latest/content`);
    expect(res.status).toBe(200);
    expect(res.body.filesystem['openapi.yaml']).toMatchObject({ openapi: '3.1.0', info: { title: 'Pet store' } });
    expect(res.body.url).toMatch(/\/versions\/ver_[0-9A-Z]+\/content$/);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/openapi/nope/versions/latest/content`)).status).toBe(404);
  });

  it('get /orgs/{organizationId}/openapi/{specSlug}/versions/{versionId} returns the version, 404 for unknown ones', async () => {
    const admin = await h.current.newAdmin();
    await spec(admin, 'one');
    await drainOpenAPIJobs(h.current);
    const latest = (await admin.api.get(`/orgs/${admin.organizationId}/openapi/one/versions/latest`)).body;
    const res = await admin.api.get(`/orgs/${admin.organizationId}/openapi/one/versions/${latest.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(latest);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/openapi/one/versions/ver_unknown`)).status).toBe(404);
    await spec(admin, 'two');
    expect((await admin.api.get(`/orgs/${admin.organizationId}/openapi/two/versions/${latest.id}`)).status).toBe(404);
  });

  it('get /orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content returns that version\'s files, 404 for unknown ones', async () => {
    const admin = await h.current.newAdmin();
    await spec(admin, 'files');
    await drainOpenAPIJobs(h.current);
    const latest = (await admin.api.get(`/orgs/${admin.organizationId}/openapi/files/versions/latest`)).body;
    const res = await admin.api.get(`/orgs/${admin.organizationId}/openapi/files/versions/${latest.id}/content`);
    expect(res.status).toBe(200);
    expect(res.body.filesystem['openapi.yaml'].paths['/pets'].get.operationId).toBe('listPets');
    expect(res.body.url).toBe(latest.url);
    expect((await admin.api.get(`/orgs/${admin.organizationId}/openapi/files/versions/ver_unknown/content`)).status).toBe(404);
  });
});
