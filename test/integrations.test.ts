// Publishing, reading, listing and unpublishing integrations; their images.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';
import { publishAs, publishBody } from './support/matrix/integrations.js';

const h = useHarness();

const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1').toString('base64');
const svg = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>').toString('base64');
const notAnImage = Buffer.from('just some text, not pixels').toString('base64');
let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++n}`;

describe('integrations', () => {
  it('post /integrations/{integrationName} publishes an integration, then a new version of it', async () => {
    const admin = await h.current.newAdmin();
    const name = unique('acme.analytics_v');
    const first = await publishAs(admin, name, {
      summary: '# Acme',
      visibility: 'unlisted',
      target: 'site',
      scopes: ['site:views:read', 'site:script:inject'],
      categories: ['analytics'],
      blocks: [{ id: 'chart', title: 'Chart', urlUnfurl: ['https://charts.acme.example.com/d/'] }],
      contentSources: [{ id: 'dash', title: 'Dashboards', configuration: { componentId: 'picker' } }],
      externalLinks: [{ url: 'https://acme.example.com/docs', label: 'Docs' }],
      configurations: { account: { properties: { trackingId: { type: 'string', title: 'Tracking id' } }, required: ['trackingId'] } },
      secrets: { API_KEY: 'sk_live_secret' },
      contentSecurityPolicy: { 'script-src': "'self'" },
      runtime: 'v1',
    });
    expect(first).toMatchObject({
      object: 'integration',
      name,
      version: 1,
      title: 'Matrix',
      summary: '# Acme',
      visibility: 'unlisted',
      target: 'site',
      verified: false,
      scopes: ['site:views:read', 'site:script:inject'],
      categories: ['analytics'],
      contentSecurityPolicy: { 'script-src': "'self'" },
      permissions: { admin: true },
      owner: { id: admin.organizationId },
      previewImages: [],
    });
    expect(first.blocks[0].urlUnfurl).toEqual(['https://charts.acme.example.com/d/']);
    expect(first.urls.location).toBe(`https://api.test.example/v1/integrations/${name}`);
    expect(first.urls.icon).toBeUndefined();
    expect(JSON.stringify(first)).not.toContain('sk_live_secret');
    expect(JSON.stringify(first)).not.toContain('export default');

    const second = await publishAs(admin, name, { title: 'Acme v2' });
    expect(second).toMatchObject({ version: 2, title: 'Acme v2', target: 'all', visibility: 'public', scopes: [], categories: [], blocks: [] });
    const read = await admin.api.get(`/integrations/${name}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(second);
  });

  it('post /integrations/{integrationName} names the organization by hostname', async () => {
    const admin = await h.current.newAdmin();
    const hostname = unique('acme');
    expect((await admin.api.patch(`/orgs/${admin.organizationId}`, { hostname })).status).toBe(200);
    const res = await admin.api.post(`/integrations/${unique('by-host')}`, publishBody(hostname.toUpperCase()));
    expect(res.status).toBe(200);
    expect(res.body.owner.id).toBe(admin.organizationId);
    const unknown = await admin.api.post(`/integrations/${unique('by-host')}`, publishBody('no-such-hostname'));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('body.organization');
  });

  it('post /integrations/{integrationName} stores icon and preview images and serves them by their detected type', async () => {
    const admin = await h.current.newAdmin();
    const name = unique('images');
    const published = await publishAs(admin, name, { icon: png, previewImages: [gif, svg] });
    expect(published.urls.icon).toBe(`https://api.test.example/v1/integrations/${name}/assets/icon.png`);
    expect(published.previewImages).toEqual([
      `https://api.test.example/v1/integrations/${name}/assets/preview-1.gif`,
      `https://api.test.example/v1/integrations/${name}/assets/preview-2.svg`,
    ]);
    const icon = await request(h.current.app).get(`/v1/integrations/${name}/assets/icon.png`).buffer(true);
    expect(icon.status).toBe(200);
    expect(icon.headers['content-type']).toBe('image/png');
    expect(Buffer.from(icon.body).equals(Buffer.from(png, 'base64'))).toBe(true);
    const preview = await request(h.current.app).get(`/v1/integrations/${name}/assets/preview-2.svg`);
    expect(preview.headers['content-type']).toContain('image/svg+xml');
    expect(preview.headers['content-security-policy']).toContain("default-src 'none'");
    expect((await request(h.current.app).get(`/v1/integrations/${name}/assets/preview-9.png`)).status).toBe(404);
    // A new version without images drops them.
    const bare = await publishAs(admin, name);
    expect(bare.urls.icon).toBeUndefined();
    expect((await request(h.current.app).get(`/v1/integrations/${name}/assets/icon.png`)).status).toBe(404);
  });

  it('post /integrations/{integrationName} returns 400 for a bad name, a non-image, unknown fields; 403 and 404 for access', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const outsider = await h.current.newAdmin();
    const badName = await admin.api.post('/integrations/bad name!', publishBody(admin.organizationId));
    expect(badName.status).toBe(400);
    expect(badName.body.error.message).toContain('integrationName');
    const noImage = await admin.api.post(`/integrations/${unique('x')}`, { ...publishBody(admin.organizationId), icon: notAnImage });
    expect(noImage.status).toBe(400);
    expect(noImage.body.error.message).toContain('body.icon');
    const noPreview = await admin.api.post(`/integrations/${unique('x')}`, { ...publishBody(admin.organizationId), previewImages: [png, notAnImage] });
    expect(noPreview.status).toBe(400);
    expect(noPreview.body.error.message).toContain('body.previewImages.1');
    const unknownField = await admin.api.post(`/integrations/${unique('x')}`, { ...publishBody(admin.organizationId), price: 3 });
    expect(unknownField.status).toBe(400);
    const { script: _script, ...noScript } = publishBody(admin.organizationId);
    const missing = await admin.api.post(`/integrations/${unique('x')}`, noScript);
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('body.script');
    expect((await editor.api.post(`/integrations/${unique('x')}`, publishBody(admin.organizationId))).status).toBe(403);
    expect((await outsider.api.post(`/integrations/${unique('x')}`, publishBody(admin.organizationId))).status).toBe(404);
    // The name belongs to the organization that published it first.
    const taken = unique('taken');
    await publishAs(admin, taken);
    const refused = await outsider.api.post(`/integrations/${taken}`, publishBody(outsider.organizationId));
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(`body.organization: the integration name ${taken} belongs to another organization`);
  });

  it('get /integrations/{integrationName} shows private integrations to members of the owner only, and 404 for unknown ones', async () => {
    const admin = await h.current.newAdmin();
    const guest = await h.current.newMember(admin.organizationId, null);
    const reader = await h.current.newMember(admin.organizationId, 'read');
    const outsider = await h.current.newAdmin();
    const name = unique('private');
    await publishAs(admin, name, { visibility: 'private' });
    const asReader = await reader.api.get(`/integrations/${name}`);
    expect(asReader.status).toBe(200);
    expect(asReader.body.permissions.admin).toBe(false);
    expect((await guest.api.get(`/integrations/${name}`)).status).toBe(200);
    expect((await outsider.api.get(`/integrations/${name}`)).status).toBe(404);
    const unlisted = unique('unlisted');
    await publishAs(admin, unlisted, { visibility: 'unlisted' });
    const seen = await outsider.api.get(`/integrations/${unlisted}`);
    expect(seen.status).toBe(200);
    expect(seen.body.owner.permissions.view).toBe(false);
    expect((await admin.api.get('/integrations/never-published')).status).toBe(404);
  });

  it('delete /integrations/{integrationName} unpublishes it, idempotently; 403 for non-admins', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const outsider = await h.current.newAdmin();
    const name = unique('gone');
    await publishAs(admin, name, { icon: png });
    await admin.api.post(`/integrations/${name}/installations`, { organization: admin.organizationId });
    expect((await editor.api.delete(`/integrations/${name}`)).status).toBe(403);
    expect((await outsider.api.delete(`/integrations/${name}`)).status).toBe(403);
    expect((await admin.api.delete(`/integrations/${name}`)).status).toBe(204);
    expect((await admin.api.get(`/integrations/${name}`)).status).toBe(404);
    expect((await admin.api.delete(`/integrations/${name}`)).status).toBe(204);
    // The name is free again, for anyone.
    expect((await outsider.api.post(`/integrations/${name}`, publishBody(outsider.organizationId))).body.version).toBe(1);
    const hidden = unique('hidden');
    await publishAs(admin, hidden, { visibility: 'private' });
    expect((await outsider.api.delete(`/integrations/${hidden}`)).status).toBe(204);
    expect((await admin.api.get(`/integrations/${hidden}`)).status).toBe(200);
  });
});
