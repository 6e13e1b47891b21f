import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';
import { newSection, newSite, newSiteSpace, newSpace, sitePath } from './sites-support.js';

const h = useHarness();

const ids = (items: { id: string }[]) => items.map((i) => i.id);

describe('published site profile', () => {
  it('builds a site with two grouped sections and three site spaces, reorders, publishes and reads the profile in order', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin, { title: 'Acme docs' });
    const guides = await newSection(admin, site.id, 'Guides');
    const api = await newSection(admin, site.id, 'API');
    const apiV2 = await newSiteSpace(admin, site.id, 'API v2', api.id);
    const group = (await admin.api.post(`${sitePath(admin, site.id)}/section-groups`, { title: 'Developers', sections: [guides.id, api.id] })).body;
    expect(ids(group.children)).toEqual([guides.id, api.id]);
    // Reorder: API before Guides, then API v2 before the first API site space.
    const movedSection = await admin.api.post(`${sitePath(admin, site.id)}/sections/${api.id}/move`, {
      position: { before: { type: 'site-section', siteSection: guides.id } },
    });
    expect(movedSection.status).toBe(200);
    expect(movedSection.body.sectionGroup).toBe(group.id);
    const movedSpace = await admin.api.post(`${sitePath(admin, site.id)}/site-spaces/${apiV2.id}/move`, {
      position: { before: { type: 'site-space', siteSpace: api.siteSpaces[0].id } },
    });
    expect(movedSpace.status).toBe(200);
    const published = await admin.api.post(`${sitePath(admin, site.id)}/publish`);
    expect(published.body.published).toBe(true);

    const res = await admin.api.get(`${sitePath(admin, site.id)}/published`);
    expect(res.status).toBe(200);
    const profile = res.body;
    expect(profile.object).toBe('published-content-site');
    expect(profile.site).toMatchObject({ id: site.id, published: true, siteSpaces: 3 });
    expect(profile.structure.type).toBe('sections');
    expect(ids(profile.structure.structure)).toEqual([api.id, guides.id]);
    expect(profile.structure.siteSpaces).toEqual([]); // every site space is in a section
    expect(profile.structure.structure.map((s: { sectionGroup: string }) => s.sectionGroup)).toEqual([group.id, group.id]);
    expect(ids(profile.structure.structure[0].siteSpaces)).toEqual([apiV2.id, api.siteSpaces[0].id]);
    expect(ids(profile.structure.structure[1].siteSpaces)).toEqual([guides.siteSpaces[0].id]);
    expect(profile.structure.structure[0].urls.published).toBe(`${published.body.urls.published}/api`);
    expect(profile.customizations.site.title).toBe('Acme docs');
    expect(profile.customizations.site.styling.theme).toBe('clean');
    expect(Object.keys(profile.customizations.siteSpaces).sort()).toEqual([apiV2.id, api.siteSpaces[0].id, guides.siteSpaces[0].id].sort());
    expect(profile.scripts).toEqual([]);
  });

  it('get /orgs/{organizationId}/sites/{siteId}/published needs the share key of a share-link site, 404 for an unknown site', async () => {
    const admin = await h.current.newAdmin();
    const reader = await h.current.newMember(admin.organizationId, 'read');
    const site = await newSite(admin, { visibility: 'share-link', spaces: [await newSpace(admin)] });
    const published = (await admin.api.post(`${sitePath(admin, site.id)}/publish`)).body;
    // The key is the path segment after `~s` of the published URL.
    const segments = new URL(published.urls.published).pathname.split('/');
    const shareKey = segments[segments.indexOf('~s') + 1] ?? '';
    expect(shareKey).toBeTruthy();
    const path = `${sitePath(admin, site.id)}/published`;
    const missing = await reader.api.get(path);
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('query.shareKey');
    expect((await reader.api.get(path, { shareKey: 'wrong' })).status).toBe(404);
    const ok = await reader.api.get(path, { shareKey });
    expect(ok.status).toBe(200);
    expect(ok.body.site.id).toBe(site.id);
    expect((await admin.api.get(`${sitePath(admin, 'sit_nope')}/published`)).status).toBe(404);
    // A public site needs no key; an unpublished one has no profile.
    const open = await newSite(admin);
    expect((await reader.api.get(`${sitePath(admin, open.id)}/published`)).status).toBe(404);
    await admin.api.post(`${sitePath(admin, open.id)}/publish`);
    expect((await reader.api.get(`${sitePath(admin, open.id)}/published`)).status).toBe(200);
  });
});
