import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';
import { newSection, newSite, newSiteSpace, newSpace, sitePath } from './sites-support.js';

const h = useHarness();

const ids = (items: { id: string }[]) => items.map((i) => i.id);

describe('site spaces', () => {
  it('post /orgs/{organizationId}/sites/{siteId}/site-spaces adds a space at the root, in the default section or in a given one', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin);
    const root = await newSiteSpace(admin, site.id, 'Root space');
    expect(root).toMatchObject({ object: 'site-space', title: 'Root space', path: 'root-space', default: true, hasAdvancedCustomizationFeature: false });
    expect(root.section).toBeUndefined();
    expect(root.space.title).toBe('Root space');
    const guides = await newSection(admin, site.id, 'Guides');
    const api = await newSection(admin, site.id, 'API');
    const inDefault = await newSiteSpace(admin, site.id, 'Guides v2');
    expect(inDefault).toMatchObject({ section: guides.id, default: false });
    const inApi = await newSiteSpace(admin, site.id, 'API v2', api.id);
    expect(inApi.section).toBe(api.id);
    expect((await admin.api.get(sitePath(admin, site.id))).body.siteSpaces).toBe(5);
  });

  it('post /orgs/{organizationId}/sites/{siteId}/site-spaces returns 404 for an unknown site, space or section, 403 below admin', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const site = await newSite(admin);
    const space = await newSpace(admin);
    const path = `${sitePath(admin, site.id)}/site-spaces`;
    expect((await admin.api.post(`${sitePath(admin, 'sit_nope')}/site-spaces`, { spaceId: space })).status).toBe(404);
    const noSpace = await admin.api.post(path, { spaceId: 'spc_nope' });
    expect(noSpace.status).toBe(404);
    expect(noSpace.body.error.message).toContain('body.spaceId');
    const noSection = await admin.api.post(path, { spaceId: space, sectionId: 'sec_nope' });
    expect(noSection.status).toBe(404);
    expect(noSection.body.error.message).toContain('body.sectionId');
    expect((await admin.api.post(path, {})).status).toBe(400);
    expect((await editor.api.post(path, { spaceId: space })).status).toBe(403);
  });

  it('get /orgs/{organizationId}/sites/{siteId}/site-spaces lists in navigation order, filters by default and paginates', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin);
    const rootA = await newSiteSpace(admin, site.id, 'Root A');
    const guides = await newSection(admin, site.id, 'Guides');
    const api = await newSection(admin, site.id, 'API');
    const apiB = await newSiteSpace(admin, site.id, 'API B', api.id);
    const rootB = (await admin.api.post(`${sitePath(admin, site.id)}/site-spaces`, { spaceId: await newSpace(admin, 'x') })).body;
    // With sections, a site space without sectionId goes to the default section.
    expect(rootB.section).toBe(guides.id);
    const path = `${sitePath(admin, site.id)}/site-spaces`;
    const all = (await admin.api.get(path)).body;
    expect(ids(all.items)).toEqual([rootA.id, guides.siteSpaces[0].id, rootB.id, api.siteSpaces[0].id, apiB.id]);
    expect(all.count).toBe(5);
    expect(ids((await admin.api.get(path, { default: true })).body.items)).toEqual([rootA.id, guides.siteSpaces[0].id, api.siteSpaces[0].id]);
    expect(ids((await admin.api.get(path, { default: false })).body.items)).toEqual([rootB.id, apiB.id]);
    const first = (await admin.api.get(path, { limit: 2 })).body;
    expect(ids(first.items)).toEqual([rootA.id, guides.siteSpaces[0].id]);
    const second = (await admin.api.get(path, { limit: 2, page: first.next.page })).body;
    expect(ids(second.items)).toEqual([rootB.id, api.siteSpaces[0].id]);
    expect((await admin.api.get(path, { page: 'bm9wZQ' })).status).toBe(400);
    expect((await admin.api.get(`${sitePath(admin, 'sit_nope')}/site-spaces`)).status).toBe(404);
  });

  it('patch /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId} changes path, condition and space', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin);
    const siteSpace = await newSiteSpace(admin, site.id, 'Guide');
    const path = `${sitePath(admin, site.id)}/site-spaces/${siteSpace.id}`;
    const other = await newSpace(admin, 'Other');
    const res = await admin.api.patch(path, { path: 'guide-v2', condition: 'visitor.claims.isBetaUser', spaceId: other });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ path: 'guide-v2', condition: 'visitor.claims.isBetaUser', space: { id: other }, title: 'Other' });
    const unchanged = await admin.api.patch(path, { path: 'guide-v3' });
    expect(unchanged.body.condition).toBe('visitor.claims.isBetaUser');
    const removed = await admin.api.patch(path, { condition: null });
    expect(removed.body.condition).toBeUndefined();
    expect(removed.body.path).toBe('guide-v3');
    expect((await admin.api.patch(path, { spaceId: 'spc_nope' })).status).toBe(404);
    expect((await admin.api.patch(`${sitePath(admin, site.id)}/site-spaces/sts_nope`, { path: 'x' })).status).toBe(404);
    expect((await admin.api.patch(path, { path: '' })).status).toBe(400);
  });

  it('delete /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId} removes it, another becomes default, 204 again', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const site = await newSite(admin);
    const first = await newSiteSpace(admin, site.id, 'First');
    const second = await newSiteSpace(admin, site.id, 'Second');
    const path = `${sitePath(admin, site.id)}/site-spaces/${first.id}`;
    expect((await editor.api.delete(path)).status).toBe(403);
    expect((await admin.api.delete(path)).status).toBe(204);
    expect((await admin.api.delete(path)).status).toBe(204);
    const left = (await admin.api.get(`${sitePath(admin, site.id)}/site-spaces`)).body.items;
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ id: second.id, default: true });
    expect((await admin.api.get(`/spaces/${first.space.id}`)).status).toBe(200);
  });

  it('post /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move reorders within a section', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin);
    const a = await newSiteSpace(admin, site.id, 'A');
    const b = await newSiteSpace(admin, site.id, 'B');
    const c = await newSiteSpace(admin, site.id, 'C');
    const move = (id: string, position: object) => admin.api.post(`${sitePath(admin, site.id)}/site-spaces/${id}/move`, { position });
    const order = async () => ids((await admin.api.get(`${sitePath(admin, site.id)}/site-spaces`)).body.items);
    const moved = await move(c.id, { before: { type: 'site-space', siteSpace: a.id } });
    expect(moved.status).toBe(200);
    expect(moved.body.id).toBe(c.id);
    expect(await order()).toEqual([c.id, a.id, b.id]);
    await move(c.id, { after: { type: 'site-space', siteSpace: b.id } });
    expect(await order()).toEqual([a.id, b.id, c.id]);
    await move(a.id, { after: { type: 'site-space', siteSpace: b.id } });
    expect(await order()).toEqual([b.id, a.id, c.id]);
  });

  it('post /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move refuses an invalid position (400), unknown site space 404', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin);
    const a = await newSiteSpace(admin, site.id, 'A');
    const section = await newSection(admin, site.id, 'Guides');
    const otherSite = await newSite(admin);
    const foreign = await newSiteSpace(admin, otherSite.id, 'Foreign');
    const move = (id: string, position: object) => admin.api.post(`${sitePath(admin, site.id)}/site-spaces/${id}/move`, { position });
    for (const position of [
      { before: { type: 'site-space', siteSpace: a.id } },
      { before: { type: 'site-space', siteSpace: section.siteSpaces[0].id } },
      { after: { type: 'site-space', siteSpace: foreign.id } },
      { after: { type: 'site-space', siteSpace: 'sts_nope' } },
    ]) {
      const res = await move(a.id, position);
      expect(res.status, JSON.stringify(position)).toBe(400);
      expect(res.body.error.message).toContain('body.position');
    }
    expect((await move(a.id, {})).status).toBe(400);
    expect((await move(a.id, { before: { type: 'site-space', siteSpace: a.id }, after: { type: 'site-space', siteSpace: a.id } })).status).toBe(400);
    expect((await move('sts_nope', { before: { type: 'site-space', siteSpace: a.id } })).status).toBe(404);
  });
});
