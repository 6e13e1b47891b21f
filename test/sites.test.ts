import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';
import { newSection, newSite, newSiteSpace, newSpace, sitePath } from './sites-support.js';

const h = useHarness();

describe('sites', () => {
  it('post /orgs/{organizationId}/sites creates an unpublished site with its spaces at the root', async () => {
    const admin = await h.current.newAdmin();
    const a = await newSpace(admin, 'Alpha');
    const b = await newSpace(admin, 'Beta');
    const site = await newSite(admin, { title: 'Docs', visibility: 'unlisted', spaces: [a, b] });
    expect(site).toMatchObject({ object: 'site', type: 'basic', title: 'Docs', visibility: 'unlisted', published: false, siteSpaces: 2 });
    expect(site.urls.published).toBeUndefined();
    expect(site.urls.location).toBe(`https://api.test.example/v1/orgs/${admin.organizationId}/sites/${site.id}`);
    const spaces = (await admin.api.get(`${sitePath(admin, site.id)}/site-spaces`)).body;
    expect(spaces.items.map((s: { space: { id: string } }) => s.space.id)).toEqual([a, b]);
    expect(spaces.items.map((s: { default: boolean }) => s.default)).toEqual([true, false]);
    const empty = await admin.api.post(`/orgs/${admin.organizationId}/sites`);
    expect(empty.status).toBe(201);
    expect(empty.body).toMatchObject({ title: 'Untitled site', visibility: 'public', siteSpaces: 0 });
    expect((await newSite(admin, { type: 'premium' })).type).toBe('premium');
  });

  it('post /orgs/{organizationId}/sites returns 400 for a bad visibility, 403 below admin, 404 for an unknown or foreign space', async () => {
    const admin = await h.current.newAdmin();
    const other = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const bad = await admin.api.post(`/orgs/${admin.organizationId}/sites`, { visibility: 'secret' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('body.visibility');
    expect((await editor.api.post(`/orgs/${admin.organizationId}/sites`, {})).status).toBe(403);
    const unknown = await admin.api.post(`/orgs/${admin.organizationId}/sites`, { spaces: ['spc_nope'] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('body.spaces[0]');
    expect((await admin.api.post(`/orgs/${admin.organizationId}/sites`, { spaces: [await newSpace(other)] })).status).toBe(404);
  });

  it('get /orgs/{organizationId}/sites filters by space, title and published state and paginates', async () => {
    const admin = await h.current.newAdmin();
    const space = await newSpace(admin);
    const one = await newSite(admin, { title: 'Developer docs', spaces: [space] });
    const two = await newSite(admin, { title: 'Help center' });
    const three = await newSite(admin, { title: 'API 100%_ docs' });
    await admin.api.post(`${sitePath(admin, two.id)}/publish`);
    const ids = async (query: Record<string, string | boolean>) =>
      (await admin.api.get(`/orgs/${admin.organizationId}/sites`, query)).body.items.map((s: { id: string }) => s.id);
    expect(await ids({})).toEqual([one.id, two.id, three.id]);
    expect(await ids({ space })).toEqual([one.id]);
    expect(await ids({ title: 'DOCS' })).toEqual([one.id, three.id]);
    expect(await ids({ title: '%_' })).toEqual([three.id]);
    expect(await ids({ published: true })).toEqual([two.id]);
    expect(await ids({ published: false })).toEqual([one.id, three.id]);
    const first = (await admin.api.get(`/orgs/${admin.organizationId}/sites`, { limit: 2 })).body;
    expect(first.count).toBe(3);
    expect(first.items[0].siteSpaces).toBe(1);
    const second = (await admin.api.get(`/orgs/${admin.organizationId}/sites`, { limit: 2, page: first.next.page })).body;
    expect(second.items.map((s: { id: string }) => s.id)).toEqual([three.id]);
    expect(second.next).toBeUndefined();
    const bad = await admin.api.get(`/orgs/${admin.organizationId}/sites`, { published: 'maybe' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('query.published');
  });

  it('get /orgs/{organizationId}/sites/{siteId} returns the site, 404 for an unknown or foreign one', async () => {
    const admin = await h.current.newAdmin();
    const reader = await h.current.newMember(admin.organizationId, 'read');
    const other = await h.current.newAdmin();
    const site = await newSite(admin, { title: 'Docs' });
    const res = await reader.api.get(sitePath(admin, site.id));
    expect(res.status).toBe(200);
    // The same site, with the permissions of a reader (the creator, an admin, may do everything).
    const readerPermissions = { view: true, access: true, edit: false, create: false, admin: false, installIntegration: false, viewAdaptiveSchema: true, editAdaptiveSchema: false };
    expect(res.body).toEqual({ ...site, permissions: readerPermissions });
    expect(Object.values(site.permissions).every(Boolean)).toBe(true);
    expect(res.body.defaultLevel).toBe('inherit');
    expect(res.body.appliedType).toBe(site.type);
    expect(res.body.features.map((f: { id: string }) => f.id)).toEqual(['sites-public-visibility', 'sites-basic-customization', 'sites-full-text-search']);
    expect((await admin.api.get(sitePath(admin, 'sit_nope'))).status).toBe(404);
    expect((await other.api.get(sitePath(other, site.id))).status).toBe(404);
  });

  it('delete /orgs/{organizationId}/sites/{siteId} deletes the site and its structure, 204 again, 403 below admin', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const space = await newSpace(admin);
    const site = await newSite(admin, { spaces: [space] });
    await newSection(admin, site.id, 'Guides');
    expect((await editor.api.delete(sitePath(admin, site.id))).status).toBe(403);
    expect((await admin.api.delete(sitePath(admin, site.id))).status).toBe(204);
    expect((await admin.api.get(sitePath(admin, site.id))).status).toBe(404);
    expect((await admin.api.delete(sitePath(admin, site.id))).status).toBe(204);
    // The spaces themselves are kept.
    expect((await admin.api.get(`/spaces/${space}`)).status).toBe(200);
  });

  it('post /orgs/{organizationId}/sites/{siteId}/publish publishes the site, 404 for an unknown one, 403 below admin', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const site = await newSite(admin, { title: 'Docs' });
    expect((await editor.api.post(`${sitePath(admin, site.id)}/publish`)).status).toBe(403);
    const res = await admin.api.post(`${sitePath(admin, site.id)}/publish`);
    expect(res.status).toBe(200);
    expect(res.body.published).toBe(true);
    expect(res.body.urls.published).toBe(`https://api.test.example/sites/${admin.organizationId}/${site.id}`);
    const again = await admin.api.post(`${sitePath(admin, site.id)}/publish`);
    expect(again.body).toEqual(res.body);
    expect((await admin.api.post(`${sitePath(admin, 'sit_nope')}/publish`)).status).toBe(404);
  });
});

describe('site settings', () => {
  it('patch /orgs/{organizationId}/sites/{siteId} changes the given settings and leaves the others', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin, { title: 'Docs' });
    const res = await admin.api.patch(sitePath(admin, site.id), {
      title: 'Developer docs',
      visibility: 'visitor-auth',
      basename: 'developers',
      agentsContext: 'excluded',
      adaptiveContent: { enabled: true },
      hostname: 'docs.acme.example.com',
      proxy: 'acme.example.com/docs',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      title: 'Developer docs',
      visibility: 'visitor-auth',
      basename: 'developers',
      agentsContext: 'excluded',
      adaptiveContent: { enabled: true },
      hostname: 'docs.acme.example.com',
      proxy: { origin: 'https://acme.example.com/docs', target: `https://api.test.example/sites/${admin.organizationId}/developers` },
    });
    const unchanged = await admin.api.patch(sitePath(admin, site.id), {});
    expect(unchanged.body).toEqual(res.body);
    const removed = await admin.api.patch(sitePath(admin, site.id), { proxy: null, hostname: null });
    expect(removed.body.proxy).toBeUndefined();
    expect(removed.body.hostname).toBeUndefined();
    expect(removed.body.title).toBe('Developer docs');
  });

  it('patch /orgs/{organizationId}/sites/{siteId} checks the proxy and hostname patterns and refuses a hostname in use', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin);
    const other = await newSite(admin);
    for (const proxy of ['acme.example.com', 'https://acme.example.com/docs', 'acme/docs']) {
      const res = await admin.api.patch(sitePath(admin, site.id), { proxy });
      expect(res.status, proxy).toBe(400);
      expect(res.body.error.message).toContain('body.proxy');
    }
    for (const hostname of ['acme.com', 'Docs.Acme.com', 'docs..acme.com', '-docs.acme.com']) {
      const res = await admin.api.patch(sitePath(admin, site.id), { hostname });
      expect(res.status, hostname).toBe(400);
      expect(res.body.error.message).toContain('body.hostname');
    }
    expect((await admin.api.patch(sitePath(admin, site.id), { hostname: 'docs.acme.com' })).status).toBe(200);
    const taken = await admin.api.patch(sitePath(admin, other.id), { hostname: 'docs.acme.com' });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toContain('body.hostname');
    expect((await admin.api.patch(sitePath(admin, 'sit_nope'), { title: 'x' })).status).toBe(404);
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    expect((await editor.api.patch(sitePath(admin, site.id), { title: 'x' })).status).toBe(403);
  });

  it('patch /orgs/{organizationId}/sites/{siteId} sets the default section and the default site space', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin);
    const guides = await newSection(admin, site.id, 'Guides');
    const api = await newSection(admin, site.id, 'API');
    expect(guides.default).toBe(true);
    const res = await admin.api.patch(sitePath(admin, site.id), { defaultSiteSection: api.id });
    expect(res.status).toBe(200);
    const sections = (await admin.api.get(`${sitePath(admin, site.id)}/sections`)).body.items;
    expect(sections.map((s: { default: boolean }) => s.default)).toEqual([false, true]);
    // New site spaces go to the default section; one of them can become its default.
    const v2 = await newSiteSpace(admin, site.id, 'API v2');
    expect(v2).toMatchObject({ section: api.id, default: false });
    expect((await admin.api.patch(sitePath(admin, site.id), { defaultSiteSpace: v2.id })).status).toBe(200);
    const listed = (await admin.api.get(`${sitePath(admin, site.id)}/site-spaces`, { default: true })).body.items;
    expect(listed.map((s: { id: string }) => s.id)).toContain(v2.id);
    // A site space of another section is not at the root nor in the default section.
    const wrong = await admin.api.patch(sitePath(admin, site.id), { defaultSiteSpace: guides.siteSpaces[0].id });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toContain('body.defaultSiteSpace');
    expect((await admin.api.patch(sitePath(admin, site.id), { defaultSiteSpace: 'sts_nope' })).status).toBe(404);
    expect((await admin.api.patch(sitePath(admin, site.id), { defaultSiteSection: 'sec_nope' })).status).toBe(404);
  });
});

describe('organization default content', () => {
  it('patch /orgs/{organizationId} sets defaultContent to a site of the organization, 400 for another', async () => {
    const admin = await h.current.newAdmin();
    const other = await h.current.newAdmin();
    const site = await newSite(admin);
    const foreign = await newSite(other);
    const res = await admin.api.patch(`/orgs/${admin.organizationId}`, { defaultContent: { type: 'site', site: site.id } });
    expect(res.status).toBe(200);
    expect(res.body.defaultContent).toEqual({ type: 'site', site: site.id });
    const bad = await admin.api.patch(`/orgs/${admin.organizationId}`, { defaultContent: { type: 'site', site: foreign.id } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('body.defaultContent.site');
    // Deleting the site clears the default content.
    await admin.api.delete(sitePath(admin, site.id));
    expect((await admin.api.get(`/orgs/${admin.organizationId}`)).body.defaultContent).toBeUndefined();
  });
});
