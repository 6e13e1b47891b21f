import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';
import { newSection, newSite, sitePath } from './sites-support.js';

const h = useHarness();

const ids = (items: { id: string }[]) => items.map((i) => i.id);

describe('site section groups', () => {
  it('post /orgs/{organizationId}/sites/{siteId}/section-groups creates a group with sections, nested under a parent', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin);
    const a = await newSection(admin, site.id, 'A');
    const b = await newSection(admin, site.id, 'B');
    const path = `${sitePath(admin, site.id)}/section-groups`;
    const res = await admin.api.post(path, { title: 'Developers', icon: 'code', sections: [b.id, a.id] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'site-section-group', title: 'Developers', icon: 'code' });
    expect(res.body.sectionGroup).toBeUndefined();
    expect(ids(res.body.children)).toEqual([b.id, a.id]);
    expect(res.body.children[0].sectionGroup).toBe(res.body.id);
    const nested = await admin.api.post(path, { title: 'SDKs', parent: res.body.id, sections: [a.id] });
    expect(nested.body.sectionGroup).toBe(res.body.id);
    expect(ids(nested.body.children)).toEqual([a.id]);
    const listed = (await admin.api.get(path)).body;
    expect(ids(listed.items)).toEqual([res.body.id, nested.body.id]);
    expect(ids(listed.items[0].children)).toEqual([b.id]);
  });

  it('post /orgs/{organizationId}/sites/{siteId}/section-groups returns 404 for an unknown section or parent, 400 without title', async () => {
    const admin = await h.current.newAdmin();
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    const site = await newSite(admin);
    const path = `${sitePath(admin, site.id)}/section-groups`;
    const section = await admin.api.post(path, { title: 'G', sections: ['sec_nope'] });
    expect(section.status).toBe(404);
    expect(section.body.error.message).toContain('body.sections[0]');
    const parent = await admin.api.post(path, { title: 'G', parent: 'ssg_nope' });
    expect(parent.status).toBe(404);
    expect(parent.body.error.message).toContain('body.parent');
    expect((await admin.api.post(path, {})).status).toBe(400);
    expect((await editor.api.post(path, { title: 'G' })).status).toBe(403);
    expect((await admin.api.post(`${sitePath(admin, 'sit_nope')}/section-groups`, { title: 'G' })).status).toBe(404);
  });

  it('get /orgs/{organizationId}/sites/{siteId}/section-groups paginates groups in navigation order', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin);
    const path = `${sitePath(admin, site.id)}/section-groups`;
    const g1 = (await admin.api.post(path, { title: 'One' })).body;
    const g2 = (await admin.api.post(path, { title: 'Two' })).body;
    const g3 = (await admin.api.post(path, { title: 'Three' })).body;
    const first = (await admin.api.get(path, { limit: 2 })).body;
    expect(ids(first.items)).toEqual([g1.id, g2.id]);
    expect(first.count).toBe(3);
    expect(ids((await admin.api.get(path, { limit: 2, page: first.next.page })).body.items)).toEqual([g3.id]);
    expect((await admin.api.get(`${sitePath(admin, 'sit_nope')}/section-groups`)).status).toBe(404);
  });

  it('patch /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId} changes title and icon', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin);
    const group = (await admin.api.post(`${sitePath(admin, site.id)}/section-groups`, { title: 'Old', icon: 'code' })).body;
    const path = `${sitePath(admin, site.id)}/section-groups/${group.id}`;
    const res = await admin.api.patch(path, { title: 'New' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'New', icon: 'code' });
    expect((await admin.api.patch(path, { icon: 'terminal' })).body).toMatchObject({ title: 'New', icon: 'terminal' });
    expect((await admin.api.patch(`${sitePath(admin, site.id)}/section-groups/ssg_nope`, { title: 'x' })).status).toBe(404);
  });

  it('delete /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId} keeps its sections where it was', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin);
    const a = await newSection(admin, site.id, 'A');
    const b = await newSection(admin, site.id, 'B');
    const c = await newSection(admin, site.id, 'C');
    const group = (await admin.api.post(`${sitePath(admin, site.id)}/section-groups`, { title: 'G', sections: [a.id, b.id] })).body;
    // The group is at the end (after C): move it before C.
    await admin.api.post(`${sitePath(admin, site.id)}/section-groups/${group.id}/move`, { position: { before: { type: 'site-section', id: c.id } } });
    const path = `${sitePath(admin, site.id)}/section-groups/${group.id}`;
    expect((await admin.api.delete(path)).status).toBe(204);
    expect((await admin.api.delete(path)).status).toBe(204);
    const sections = (await admin.api.get(`${sitePath(admin, site.id)}/sections`)).body.items;
    expect(ids(sections)).toEqual([a.id, b.id, c.id]);
    expect(sections[0].sectionGroup).toBeUndefined();
  });

  it('post and delete /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections manage membership', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin);
    const a = await newSection(admin, site.id, 'A');
    const b = await newSection(admin, site.id, 'B');
    const group = (await admin.api.post(`${sitePath(admin, site.id)}/section-groups`, { title: 'G', sections: [a.id] })).body;
    const path = `${sitePath(admin, site.id)}/section-groups/${group.id}/sections`;
    const added = await admin.api.post(path, { sectionId: b.id });
    expect(added.status).toBe(200);
    expect(ids(added.body.children)).toEqual([a.id, b.id]);
    expect((await admin.api.post(path, { sectionId: 'sec_nope' })).status).toBe(404);
    expect((await admin.api.post(`${sitePath(admin, site.id)}/section-groups/ssg_nope/sections`, { sectionId: a.id })).status).toBe(404);
    expect((await admin.api.delete(`${path}/${a.id}`)).status).toBe(204);
    expect((await admin.api.delete(`${path}/${a.id}`)).status).toBe(204);
    const groups = (await admin.api.get(`${sitePath(admin, site.id)}/section-groups`)).body.items;
    expect(ids(groups[0].children)).toEqual([b.id]);
    // A removed section goes back to the root, after the group.
    const sections = (await admin.api.get(`${sitePath(admin, site.id)}/sections`)).body.items;
    expect(ids(sections)).toEqual([b.id, a.id]);
  });

  it('post /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move moves a group, refusing cycles and foreign items', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin);
    const a = await newSection(admin, site.id, 'A');
    const groups = `${sitePath(admin, site.id)}/section-groups`;
    const outer = (await admin.api.post(groups, { title: 'Outer' })).body;
    const inner = (await admin.api.post(groups, { title: 'Inner', parent: outer.id })).body;
    const move = (id: string, position: object) => admin.api.post(`${groups}/${id}/move`, { position });
    const moved = await move(outer.id, { before: { type: 'site-section', id: a.id } });
    expect(moved.status).toBe(200);
    // Moving next to a nested group brings the group into that group's parent.
    const other = (await admin.api.post(groups, { title: 'Other' })).body;
    const nested = await move(other.id, { after: { type: 'site-section', id: inner.id } });
    expect(nested.body.sectionGroup).toBe(outer.id);
    expect(ids((await admin.api.get(groups)).body.items)).toEqual([outer.id, inner.id, other.id]);
    const foreign = await newSection(admin, (await newSite(admin)).id, 'Foreign');
    for (const id of [outer.id, inner.id, foreign.id, 'sec_nope']) {
      const res = await move(outer.id, { after: { type: 'site-section', id } });
      expect(res.status, id).toBe(400);
      expect(res.body.error.message).toContain('body.position.after.id');
    }
    expect((await move('ssg_nope', { after: { type: 'site-section', id: a.id } })).status).toBe(404);
  });
});
