// The published profile is whole: a site without sections lists its site spaces, a site with sections lists
// them by section and the site spaces at its root beside them (GitBook's structure holds sections only); each site space's customization is the site's with its own
// overrides (overrideSiteSpaceCustomizationById), never a copy of the defaults, and the published site shows it.
import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';
import { gitbookResponseProblems } from './support/gitbook-spec.js';
import { open, publish, spaceWithPages } from './published-support.js';
import { newSection, newSite, sitePath } from './sites-support.js';

const h = useHarness();
const ids = (items: { id: string }[]) => items.map((i) => i.id);

describe('published profile structure', () => {
  it('a one-space site has a siteSpaces structure, and its site space follows the site customization', async () => {
    const admin = await h.current.newAdmin();
    const space = await spaceWithPages(admin, 'Handbook', [{ title: 'Welcome', markdown: 'Hello.' }]);
    const site = await newSite(admin, { title: 'Acme', spaces: [space] });
    const custom = await admin.api.put(`${sitePath(admin, site.id)}/customization`, { styling: { primaryColor: { light: '#D93F0B', dark: '#F26B3A' } } });
    expect(custom.status).toBe(200);
    await publish(admin, site.id);
    const res = await admin.api.get(`${sitePath(admin, site.id)}/published`);
    expect(res.status).toBe(200);
    expect(res.body.structure.type).toBe('siteSpaces');
    expect(res.body.structure.structure).toHaveLength(1);
    expect(res.body.structure.structure[0]).toMatchObject({ object: 'site-space', space: { id: space }, title: 'Handbook' });
    const siteSpaceId = res.body.structure.structure[0].id;
    // Applying the site space's customization over the site's changes nothing: it is the site's.
    expect(res.body.customizations.siteSpaces[siteSpaceId]).toEqual(res.body.customizations.site);
    expect(res.body.customizations.site.styling.primaryColor).toEqual({ light: '#D93F0B', dark: '#F26B3A' });
  });

  it('a site with sections lists the site spaces at its root beside its sections, and the published site serves them', async () => {
    const admin = await h.current.newAdmin();
    const root = await spaceWithPages(admin, 'Changelog', [{ title: 'Release 2', markdown: 'Root site space content.' }]);
    const site = await newSite(admin, { title: 'Acme', spaces: [root] });
    const guides = await newSection(admin, site.id, 'Guides');
    const url = (await publish(admin, site.id)).urls.published;
    const res = await admin.api.get(`${sitePath(admin, site.id)}/published`);
    expect(res.status).toBe(200);
    expect(res.body.structure.type).toBe('sections');
    // GitBook's shape: the structure of a site with sections holds sections; the root site space is beside it.
    expect(ids(res.body.structure.structure)).toEqual([guides.id]);
    const second = res.body.structure.structure[0];
    expect(second).toMatchObject({ object: 'site-section', id: guides.id });
    expect(res.body.structure.siteSpaces).toHaveLength(1);
    const first = res.body.structure.siteSpaces[0];
    expect(first).toMatchObject({ object: 'site-space', path: 'changelog', space: { id: root } });
    expect(first.section).toBeUndefined();
    expect(gitbookResponseProblems('getPublishedContentSite', 200, res.body)).toEqual([]);

    // Every URL handed out answers: the root site space beside the sections too.
    const page = await open(h.current, first.urls.published);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Root site space content.');
    expect((await open(h.current, second.urls.published)).status).toBe(404); // the section's space has no pages
    const sitemap = await open(h.current, `${url}/sitemap.xml`);
    expect(sitemap.text).toContain(`<loc>${url}/changelog/release-2</loc>`);
  });
});

describe('site space customization', () => {
  it('patch overrides fields for one site space: its pages, its profile entry and its GET show them; the site keeps its own', async () => {
    const admin = await h.current.newAdmin();
    const v1 = await spaceWithPages(admin, 'API v1', [{ title: 'Old', markdown: 'Version one.' }]);
    const v2 = await spaceWithPages(admin, 'API v2', [{ title: 'New', markdown: 'Version two.' }]);
    const site = await newSite(admin, { title: 'Acme API', spaces: [v1, v2] });
    expect((await admin.api.put(`${sitePath(admin, site.id)}/customization`, { styling: { primaryColor: { light: '#111111', dark: '#222222' } } })).status).toBe(200);
    const url = (await publish(admin, site.id)).urls.published;
    const listed = await admin.api.get(`${sitePath(admin, site.id)}/site-spaces`);
    expect(listed.status).toBe(200);
    const [first, second] = listed.body.items;
    const path = `${sitePath(admin, site.id)}/site-spaces/${second.id}/customization`;

    const before = await admin.api.get(path);
    expect(before.status).toBe(200);
    expect(before.body.title).toBe('Acme API');
    expect(before.body.styling.primaryColor).toEqual({ light: '#111111', dark: '#222222' });

    const patched = await admin.api.patch(path, { title: 'Acme API v2', styling: { primaryColor: { light: '#D93F0B', dark: '#F26B3A' } }, footer: { copyright: '© Acme v2' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ title: 'Acme API v2', styling: { primaryColor: { light: '#D93F0B', dark: '#F26B3A' }, theme: 'clean' }, footer: { copyright: '© Acme v2' } });
    expect((await admin.api.get(path)).body).toEqual(patched.body);

    const profile = (await admin.api.get(`${sitePath(admin, site.id)}/published`)).body;
    expect(profile.customizations.site.title).toBe('Acme API');
    expect(profile.customizations.siteSpaces[second.id].title).toBe('Acme API v2');
    expect(profile.customizations.siteSpaces[first.id]).toEqual(profile.customizations.site);

    const overridden = await open(h.current, `${url}/api-v2`);
    expect(overridden.status).toBe(200);
    expect(overridden.text).toContain('--primary:#D93F0B');
    expect(overridden.text).toContain('© Acme v2');
    const plain = await open(h.current, `${url}/api-v1`);
    expect(plain.text).toContain('--primary:#111111');
    expect(plain.text).not.toContain('Acme API v2');

    // null clears one override; the others stay. The site's value shows again.
    const cleared = await admin.api.patch(path, { styling: { primaryColor: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ title: 'Acme API v2', styling: { primaryColor: { light: '#111111', dark: '#222222' } } });
    // A change of the site's customization reaches the site space where it does not override.
    expect((await admin.api.put(`${sitePath(admin, site.id)}/customization`, { styling: { primaryColor: { light: '#333333', dark: '#444444' } } })).status).toBe(200);
    expect((await admin.api.get(path)).body.styling.primaryColor).toEqual({ light: '#333333', dark: '#444444' });
    expect((await open(h.current, `${url}/api-v2`)).text).toContain('--primary:#333333');

    const removed = await admin.api.delete(path);
    expect(removed.status).toBe(204);
    expect((await admin.api.get(path)).body.title).toBe('Acme API');
    expect((await open(h.current, `${url}/api-v2`)).text).not.toContain('© Acme v2');
    expect((await admin.api.delete(path)).status).toBe(204);
    expect((await admin.api.delete(`${sitePath(admin, site.id)}/site-spaces/sts_unknown/customization`)).status).toBe(204);
  });

  it('refuses bad colours, unknown fields and header link conditions outside the grammar; 404 for unknown site spaces; 403 below admin', async () => {
    const admin = await h.current.newAdmin();
    const reader = await h.current.newMember(admin.organizationId, 'read');
    const site = await newSite(admin, { spaces: [await spaceWithPages(admin, 'Guide', [{ title: 'A', markdown: 'a' }])] });
    const siteSpace = (await admin.api.get(`${sitePath(admin, site.id)}/site-spaces`)).body.items[0];
    const path = `${sitePath(admin, site.id)}/site-spaces/${siteSpace.id}/customization`;

    const colour = await admin.api.patch(path, { styling: { primaryColor: { light: 'red;}', dark: '#000' } } });
    expect(colour.status).toBe(400);
    expect(colour.body.error.message).toContain('body.styling.primaryColor.light');
    const unknown = await admin.api.patch(path, { colour: 'blue' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('colour');
    const condition = await admin.api.patch(path, { header: { links: [{ title: 'Beta', to: { kind: 'url', url: 'https://acme.example.com' }, condition: 'visitor.claims.beta >' }] } });
    expect(condition.status).toBe(400);
    expect(condition.body.error.message).toContain('body.header.links[0].condition: at character');
    expect((await admin.api.get(path)).body.header.links).toEqual([]);

    expect((await admin.api.get(`${sitePath(admin, site.id)}/site-spaces/sts_unknown/customization`)).status).toBe(404);
    expect((await admin.api.patch(`${sitePath(admin, site.id)}/site-spaces/sts_unknown/customization`, { title: 'x' })).status).toBe(404);
    expect((await reader.api.get(path)).status).toBe(200);
    expect((await reader.api.patch(path, { title: 'x' })).status).toBe(403);
    expect((await reader.api.delete(path)).status).toBe(403);
  });
});
