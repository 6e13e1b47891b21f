import { describe, expect, it } from 'vitest';
import { contentOperations } from '../contract/content.js';
import { templates } from '../server/content/templates.js';
import type { Account } from './support/harness.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

async function newSpace(admin: Account) {
  return (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' })).body;
}

interface TreePage {
  title: string;
  path: string;
  id: string;
  pages?: TreePage[];
}
type Tree = TreePage[];
const titles = (pages: Tree): unknown[] => pages.map((p) => (p.pages?.length ? [p.title, titles(p.pages)] : p.title));

describe('applyTemplateToSpace', () => {
  it('post /spaces/{spaceId}/content/template writes the template pages as a new revision of the live content', async () => {
    const admin = await h.current.newAdmin();
    const space = await newSpace(admin);
    const res = await admin.api.post(`/spaces/${space.id}/content/template`, { id: 'getting-started' });
    expect(res.status).toBe(204);

    const revision = await admin.api.get(`/spaces/${space.id}/content`);
    expect(revision.body.id).not.toBe(space.revision);
    expect(revision.body).toMatchObject({ type: 'edits', parents: [space.revision] });
    expect(titles(revision.body.pages)).toEqual(['Welcome', 'Quickstart', 'FAQ']);

    const quickstart = revision.body.pages.find((p: { title: string }) => p.title === 'Quickstart');
    const page = await admin.api.get(`/spaces/${space.id}/content/page/${quickstart.id}`, { format: 'markdown' });
    expect(page.body).toMatchObject({ path: 'quickstart', description: 'Up and running in five minutes.' });
    expect(page.body.markdown).toContain('npm install --global example-cli');

    // The template's pages link to each other: every one of those links resolves.
    const links = await admin.api.get(`/spaces/${space.id}/links`);
    expect(links.body.stats.total).toBe(3);
    expect(links.body.stats.broken.total).toBe(0);
    const welcome = revision.body.pages.find((p: { title: string }) => p.title === 'Welcome');
    const backlinks = await admin.api.get(`/spaces/${space.id}/content/page/${quickstart.id}/backlinks`);
    expect(backlinks.body.items.map((b: { page: string }) => b.page)).toContain(welcome.id);

    const search = await admin.api.get(`/spaces/${space.id}/search`, { query: 'password' });
    expect(search.body.items.map((r: { title: string }) => r.title)).toEqual(['FAQ']);
  });

  it('post /spaces/{spaceId}/content/template keeps existing pages and appends the template after them, renaming taken slugs', async () => {
    const admin = await h.current.newAdmin();
    const space = await newSpace(admin);
    const cr = (await admin.api.post(`/spaces/${space.id}/change-requests`)).body;
    await admin.api.post(`/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
      changes: [{ operation: 'insert_page', title: 'Changelog', document: { markdown: '# Old changelog' } }],
    });
    await admin.api.post(`/spaces/${space.id}/change-requests/${cr.id}/merge`);
    const open = (await admin.api.post(`/spaces/${space.id}/change-requests`)).body;
    expect(open.outdated).toBe(false);

    expect((await admin.api.post(`/spaces/${space.id}/content/template`, { id: 'changelog' })).status).toBe(204);
    const pages = (await admin.api.get(`/spaces/${space.id}/content/pages`)).body.pages as Tree;
    expect(pages.map((p) => [p.title, p.path])).toEqual([
      ['Changelog', 'changelog'],
      ['Changelog', 'changelog-2'],
    ]);
    // The live content moved on: a change request opened before is now behind it.
    expect((await admin.api.get(`/spaces/${space.id}/change-requests/${open.id}`)).body.outdated).toBe(true);
  });

  it('post /spaces/{spaceId}/content/template nests pages and links the content references given in params', async () => {
    const admin = await h.current.newAdmin();
    const space = await newSpace(admin);
    const res = await admin.api.post(`/spaces/${space.id}/content/template`, {
      id: 'api-reference',
      params: { contentRefs: { spec: { kind: 'url', url: 'https://example.com/openapi.yaml' } } },
    });
    expect(res.status).toBe(204);
    const pages = (await admin.api.get(`/spaces/${space.id}/content/pages`)).body.pages as Tree;
    expect(titles(pages)).toEqual([['API overview', ['Authentication', 'Errors']]]);
    expect(pages[0].pages!.map((p) => p.path)).toEqual(['api-overview/authentication', 'api-overview/errors']);
    const overview = await admin.api.get(`/spaces/${space.id}/content/page/${pages[0].id}`, { format: 'markdown' });
    expect(overview.body.markdown).toContain('[OpenAPI specification](https://example.com/openapi.yaml)');
    expect(overview.body.markdown).toContain('[Authentication](/api-overview/authentication)');
    const links = await admin.api.get(`/spaces/${space.id}/content/page/${pages[0].id}/links`);
    expect(links.body.stats.broken.total).toBe(0);
  });

  it('post /spaces/{spaceId}/content/template links only http(s) URLs, escaped so they cannot add Markdown of their own', async () => {
    const admin = await h.current.newAdmin();
    const space = await newSpace(admin);
    for (const url of ['javascript:alert(1)', 'not a url', 'ftp://example.com/spec.yaml']) {
      const refused = await admin.api.post(`/spaces/${space.id}/content/template`, { id: 'api-reference', params: { contentRefs: { spec: { kind: 'url', url } } } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toContain('body.params.contentRefs.spec.url');
    }
    expect((await admin.api.get(`/spaces/${space.id}/content/pages`)).body.pages).toEqual([]);
    const res = await admin.api.post(`/spaces/${space.id}/content/template`, {
      id: 'api-reference',
      params: { contentRefs: { spec: { kind: 'url', url: 'https://example.com/a)b\n# Injected' } } },
    });
    expect(res.status).toBe(204);
    const pages = (await admin.api.get(`/spaces/${space.id}/content/pages`)).body.pages as Tree;
    const overview = await admin.api.get(`/spaces/${space.id}/content/page/${pages[0].id}`, { format: 'markdown' });
    expect(overview.body.markdown).toContain('[OpenAPI specification](https://example.com/a%29b#%20Injected)');
    expect(overview.body.markdown).not.toMatch(/^# Injected/m);
  });

  it('post /spaces/{spaceId}/content/template links an OpenAPI spec of the organization given by id or slug, at its slug; 400 for another', async () => {
    const admin = await h.current.newAdmin();
    const created = await admin.api.post(`/orgs/${admin.organizationId}/openapi`, { slug: 'pets-api', source: { url: 'https://example.com/pets.yaml' } });
    expect(created.status).toBe(201);
    for (const spec of [created.body.id, 'pets-api']) {
      const space = await newSpace(admin);
      const res = await admin.api.post(`/spaces/${space.id}/content/template`, { id: 'api-reference', params: { contentRefs: { spec: { kind: 'openapi', spec } } } });
      expect(res.status).toBe(204);
      const pages = (await admin.api.get(`/spaces/${space.id}/content/pages`)).body.pages as Tree;
      const overview = await admin.api.get(`/spaces/${space.id}/content/page/${pages[0].id}`, { format: 'markdown' });
      expect(overview.body.markdown).toContain(`[OpenAPI specification: pets-api](`);
      expect(overview.body.markdown).toContain(`/o/${admin.organizationId}/openapi/pets-api)`);
    }
    const space = await newSpace(admin);
    const other = await h.current.newAdmin();
    const othersSpec = (await other.api.post(`/orgs/${other.organizationId}/openapi`, { slug: 'theirs', source: { url: 'https://example.com/t.yaml' } })).body;
    for (const spec of ['no-such-spec', othersSpec.id]) {
      const refused = await admin.api.post(`/spaces/${space.id}/content/template`, { id: 'api-reference', params: { contentRefs: { spec: { kind: 'openapi', spec } } } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toContain('body.params.contentRefs.spec.spec');
    }
  });

  it('post /spaces/{spaceId}/content/template with changeRequestId writes in the change request only', async () => {
    const admin = await h.current.newAdmin();
    const space = await newSpace(admin);
    const cr = (await admin.api.post(`/spaces/${space.id}/change-requests`)).body;
    const res = await admin.api.post(`/spaces/${space.id}/content/template`, { id: 'knowledge-base', changeRequestId: cr.id });
    expect(res.status).toBe(204);

    const inCr = await admin.api.get(`/spaces/${space.id}/change-requests/${cr.id}/content/pages`);
    expect(titles(inCr.body.pages)).toEqual(['How-to guides', 'Troubleshooting']);
    expect((await admin.api.get(`/spaces/${space.id}/content/pages`)).body.pages).toEqual([]);
    const after = (await admin.api.get(`/spaces/${space.id}/change-requests/${cr.id}`)).body;
    expect(after.revision).not.toBe(cr.revision);
    const contributed = await admin.api.get(`/spaces/${space.id}/change-requests`, { contributor: admin.userId });
    expect(contributed.body.items.map((c: { id: string }) => c.id)).toEqual([cr.id]);

    // By number too; merging brings the pages into the space.
    expect((await admin.api.post(`/spaces/${space.id}/content/template`, { id: 'changelog', changeRequestId: String(cr.number) })).status).toBe(204);
    await admin.api.post(`/spaces/${space.id}/change-requests/${cr.id}/merge`);
    expect(titles((await admin.api.get(`/spaces/${space.id}/content/pages`)).body.pages)).toEqual(['How-to guides', 'Troubleshooting', 'Changelog']);
  });

  it('post /spaces/{spaceId}/content/template answers 404 for an unknown template or change request', async () => {
    const admin = await h.current.newAdmin();
    const space = await newSpace(admin);
    const unknown = await admin.api.post(`/spaces/${space.id}/content/template`, { id: 'no-such-template' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('body.id');
    const noCr = await admin.api.post(`/spaces/${space.id}/content/template`, { id: 'changelog', changeRequestId: 'crq_missing' });
    expect(noCr.status).toBe(404);
    expect(noCr.body.error.message).toContain('body.changeRequestId');
    expect((await admin.api.get(`/spaces/${space.id}/content`)).body.id).toBe(space.revision);
  });

  it('post /spaces/{spaceId}/content/template answers 400 naming a content reference the template does not take', async () => {
    const admin = await h.current.newAdmin();
    const space = await newSpace(admin);
    const unknownRef = await admin.api.post(`/spaces/${space.id}/content/template`, {
      id: 'changelog',
      params: { contentRefs: { spec: { kind: 'url', url: 'https://example.com' } } },
    });
    expect(unknownRef.status).toBe(400);
    expect(unknownRef.body.error.message).toContain('body.params.contentRefs.spec');
    const wrongKind = await admin.api.post(`/spaces/${space.id}/content/template`, {
      id: 'api-reference',
      params: { contentRefs: { spec: { kind: 'user', user: admin.userId } } },
    });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.error.message).toContain('body.params.contentRefs.spec.kind');
  });

  it('post /spaces/{spaceId}/content/template answers 409 when the space is locked or the change request is merged', async () => {
    const admin = await h.current.newAdmin();
    const space = await newSpace(admin);
    const cr = (await admin.api.post(`/spaces/${space.id}/change-requests`)).body;
    await admin.api.post(`/spaces/${space.id}/change-requests/${cr.id}/merge`);
    const merged = await admin.api.post(`/spaces/${space.id}/content/template`, { id: 'changelog', changeRequestId: cr.id });
    expect(merged.status).toBe(409);

    expect((await admin.api.patch(`/spaces/${space.id}`, { editMode: 'locked' })).status).toBe(200);
    const locked = await admin.api.post(`/spaces/${space.id}/content/template`, { id: 'changelog' });
    expect(locked.status).toBe(409);
    expect(locked.body.error.message).toContain('locked');
    expect((await admin.api.get(`/spaces/${space.id}/content/pages`)).body.pages).toEqual([]);
  });

  it('the published description names every built-in template and its content references', () => {
    const description = contentOperations.applyTemplateToSpace.description;
    for (const template of templates.values()) {
      expect(description).toContain(`\`${template.id}\``);
      for (const name of Object.keys(template.refs)) expect(description).toContain(`\`${template.id}\`: \`${name}\``);
    }
  });

  it('post /spaces/{spaceId}/content/template needs the edit role', async () => {
    const admin = await h.current.newAdmin();
    const space = await newSpace(admin);
    const reader = await h.current.newMember(admin.organizationId, 'read');
    expect((await reader.api.post(`/spaces/${space.id}/content/template`, { id: 'changelog' })).status).toBe(403);
    const editor = await h.current.newMember(admin.organizationId, 'edit');
    expect((await editor.api.post(`/spaces/${space.id}/content/template`, { id: 'changelog' })).status).toBe(204);
  });
});
