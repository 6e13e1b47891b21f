import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';
import { newSection, newSite, newSiteSpace, newSpace, sitePath } from './sites-support.js';

const h = useHarness();

const ids = (items: { id: string }[]) => items.map((i) => i.id);

describe('site sections', () => {
  it('post /orgs/{organizationId}/sites/{siteId}/sections creates a section with its first site space', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin);
    const space = await newSpace(admin, 'Getting Started');
    const res = await admin.api.post(`${sitePath(admin, site.id)}/sections`, { spaceId: space, icon: 'book-open' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'site-section', title: 'Getting Started', path: 'getting-started', default: true, icon: 'book-open' });
    expect(res.body.siteSpaces).toHaveLength(1);
    expect(res.body.siteSpaces[0]).toMatchObject({ section: res.body.id, default: true, space: { id: space } });
    const second = await newSection(admin, site.id, 'API Reference');
    expect(second).toMatchObject({ title: 'API Reference', path: 'api-reference', default: false });
  });

  it('post /orgs/{organizationId}/sites/{siteId}/sections returns 404 for an unknown site or space, 400 without spaceId, 403 below admin', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const site = await newSite(admin);
    const space = await newSpace(admin);
    expect((await admin.api.post(`${sitePath(admin, 'sit_nope')}/sections`, { spaceId: space })).status).toBe(404);
    const unknown = await admin.api.post(`${sitePath(admin, site.id)}/sections`, { spaceId: 'spc_nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('body.spaceId');
    const missing = await admin.api.post(`${sitePath(admin, site.id)}/sections`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('body.spaceId');
    expect((await editor.api.post(`${sitePath(admin, site.id)}/sections`, { spaceId: space })).status).toBe(403);
  });

  it('get /orgs/{organizationId}/sites/{siteId}/sections lists sections in navigation order with their site spaces, paginated', async () => {
    const admin = await h.current.newAdmin();
    const reader = await h.current.newMember(admin.organizationId, 'read');
    const site = await newSite(admin);
    const a = await newSection(admin, site.id, 'A');
    const b = await newSection(admin, site.id, 'B');
    const c = await newSection(admin, site.id, 'C');
    const variant = await newSiteSpace(admin, site.id, 'B v2', b.id);
    // Sections of a group come where the group is.
    await admin.api.post(`${sitePath(admin, site.id)}/section-groups`, { title: 'Group', sections: [c.id] });
    const path = `${sitePath(admin, site.id)}/sections`;
    const all = (await reader.api.get(path)).body;
    expect(ids(all.items)).toEqual([a.id, b.id, c.id]);
    expect(ids(all.items[1].siteSpaces)).toEqual([b.siteSpaces[0].id, variant.id]);
    await admin.api.post(`${path}/${a.id}/move`, { position: { after: { type: 'site-section', siteSection: c.id } } });
    expect(ids((await reader.api.get(path)).body.items)).toEqual([b.id, c.id, a.id]);
    const first = (await reader.api.get(path, { limit: 1 })).body;
    expect(first.count).toBe(3);
    const second = (await reader.api.get(path, { limit: 1, page: first.next.page })).body;
    expect(ids(second.items)).toEqual([c.id]);
    expect((await reader.api.get(`${sitePath(admin, 'sit_nope')}/sections`)).status).toBe(404);
  });

  it('patch /orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId} changes settings; condition null removes it', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin);
    const section = await newSection(admin, site.id, 'Guides');
    const variant = await newSiteSpace(admin, site.id, 'Guides v2', section.id);
    const path = `${sitePath(admin, site.id)}/sections/${section.id}`;
    const res = await admin.api.patch(path, {
      title: 'Tutorials',
      path: 'tutorials',
      condition: 'visitor.claims.isBetaUser',
      icon: 'star',
      description: 'Step by step',
      defaultSiteSpace: variant.id,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Tutorials', path: 'tutorials', condition: 'visitor.claims.isBetaUser', icon: 'star', description: 'Step by step' });
    expect(res.body.siteSpaces.map((s: { default: boolean }) => s.default)).toEqual([false, true]);
    const unchanged = await admin.api.patch(path, { title: 'Guides' });
    expect(unchanged.body.condition).toBe('visitor.claims.isBetaUser');
    const removed = await admin.api.patch(path, { condition: null });
    expect(removed.body.condition).toBeUndefined();
    expect((await admin.api.patch(path, { defaultSiteSpace: 'sts_nope' })).status).toBe(404);
    expect((await admin.api.patch(`${sitePath(admin, site.id)}/sections/sec_nope`, { title: 'x' })).status).toBe(404);
    expect((await admin.api.patch(path, { title: '  ' })).status).toBe(400);
  });

  it('delete /orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId} removes it with its site spaces, 204 again', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const site = await newSite(admin);
    const first = await newSection(admin, site.id, 'First');
    const second = await newSection(admin, site.id, 'Second');
    const path = `${sitePath(admin, site.id)}/sections/${first.id}`;
    expect((await editor.api.delete(path)).status).toBe(403);
    expect((await admin.api.delete(path)).status).toBe(204);
    expect((await admin.api.delete(path)).status).toBe(204);
    const left = (await admin.api.get(`${sitePath(admin, site.id)}/sections`)).body.items;
    expect(left).toHaveLength(1);
    // The remaining section becomes the default.
    expect(left[0]).toMatchObject({ id: second.id, default: true });
    expect((await admin.api.get(sitePath(admin, site.id))).body.siteSpaces).toBe(1);
  });

  it('post /orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move refuses an invalid position (400), unknown section 404', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin);
    const a = await newSection(admin, site.id, 'A');
    const other = await newSection(admin, (await newSite(admin)).id, 'Other');
    const group = (await admin.api.post(`${sitePath(admin, site.id)}/section-groups`, { title: 'G' })).body;
    const move = (id: string, position: object) => admin.api.post(`${sitePath(admin, site.id)}/sections/${id}/move`, { position });
    for (const siteSection of [a.id, other.id, group.id, 'sec_nope']) {
      const res = await move(a.id, { before: { type: 'site-section', siteSection } });
      expect(res.status, siteSection).toBe(400);
      expect(res.body.error.message).toContain('body.position.before.siteSection');
    }
    expect((await move(a.id, { before: { type: 'site-space', siteSection: a.id } })).status).toBe(400);
    expect((await move('sec_nope', { before: { type: 'site-section', siteSection: a.id } })).status).toBe(404);
  });
});
