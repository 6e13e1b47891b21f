import { describe, expect, it } from 'vitest';
import type { Account } from './support/harness.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

/** A space whose content holds a page "Guide" with a subpage "Setup" and one file, merged from a change request. */
async function spaceWithContent(admin: Account) {
  const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' })).body;
  const cr = (await admin.api.post(`/spaces/${space.id}/change-requests`)).body;
  const done = await admin.api.post(`/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
    changes: [
      { operation: 'insert_page', document: { markdown: '# Guide\n\nRead **this** first.\n\n- one\n- two' }, ref: 'guide', emoji: '📘', description: 'Start here' },
      { operation: 'insert_page', document: { markdown: 'Install it.' }, title: 'Setup', into: 'guide' },
      { operation: 'insert_files', files: [{ name: 'logo.png', base64: 'iVBORw0KGgo=', contentType: 'image/png' }, { name: 'spec.json', base64: 'eyJvcGVuYXBpIjoiMy4xLjAifQ==', contentType: 'application/json' }] },
    ],
  });
  expect(done.status).toBe(200);
  const merged = await admin.api.post(`/spaces/${space.id}/change-requests/${cr.id}/merge`);
  expect(merged.status).toBe(200);
  return {
    spaceId: space.id as string,
    revision: merged.body.revision as string,
    guide: done.body.changes[0].page.id as string,
    setup: done.body.changes[1].page.id as string,
    files: done.body.insertedFiles as { id: string; name: string }[],
  };
}

describe('space content', () => {
  it('get /spaces/{spaceId}/content returns the empty first revision of a new space', async () => {
    const admin = await h.current.newAdmin();
    const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Empty' })).body;
    const res = await admin.api.get(`/spaces/${space.id}/content`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'revision', id: space.revision, parents: [], pages: [], files: [], reusableContents: [], variables: {}, type: 'edits' });
    expect((await admin.api.get(`/spaces/${space.id}/content/pages`)).body).toEqual({ pages: [] });
    expect((await admin.api.get(`/spaces/${space.id}/content/files`)).body).toEqual({ items: [], count: 0 });
  });

  it('get /spaces/{spaceId}/content returns the current revision with its page tree and files', async () => {
    const admin = await h.current.newAdmin();
    const c = await spaceWithContent(admin);
    const res = await admin.api.get(`/spaces/${c.spaceId}/content`, { metadata: false, computed: false });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(c.revision);
    expect(res.body.type).toBe('merge');
    expect(res.body.pages).toHaveLength(1);
    expect(res.body.pages[0]).toMatchObject({ id: c.guide, title: 'Guide', slug: 'guide', path: 'guide', emoji: '📘', description: 'Start here', type: 'document' });
    expect(res.body.pages[0].git).toBeUndefined();
    expect(res.body.pages[0].pages[0]).toMatchObject({ id: c.setup, title: 'Setup', path: 'guide/setup' });
    expect(res.body.files.map((f: { name: string }) => f.name).sort()).toEqual(['logo.png', 'spec.json']);
  });

  it('get /spaces/{spaceId}/content/pages returns the page tree', async () => {
    const admin = await h.current.newAdmin();
    const c = await spaceWithContent(admin);
    const res = await admin.api.get(`/spaces/${c.spaceId}/content/pages`);
    expect(res.status).toBe(200);
    expect(res.body.pages.map((p: { id: string }) => p.id)).toEqual([c.guide]);
    expect(res.body.pages[0].pages.map((p: { id: string }) => p.id)).toEqual([c.setup]);
    expect(res.body.pages[0].urls.app).toBe(`https://api.test.example/app/s/${c.spaceId}/guide`);
  });

  it('get /spaces/{spaceId}/content/files lists files with pagination', async () => {
    const admin = await h.current.newAdmin();
    const c = await spaceWithContent(admin);
    const first = await admin.api.get(`/spaces/${c.spaceId}/content/files`, { limit: 1 });
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(2);
    const second = await admin.api.get(`/spaces/${c.spaceId}/content/files`, { limit: 1, page: first.body.next.page });
    expect(second.body.next).toBeUndefined();
    const ids = [first.body.items[0].id, second.body.items[0].id];
    expect(ids.sort()).toEqual(c.files.map((f) => f.id).sort());
    expect((await admin.api.get(`/spaces/${c.spaceId}/content/files`, { page: '!!' })).status).toBe(400);
  });

  it('get /spaces/{spaceId}/content/files/{fileId} returns a file, 404 when unknown', async () => {
    const admin = await h.current.newAdmin();
    const c = await spaceWithContent(admin);
    const logo = c.files.find((f) => f.name === 'logo.png')!;
    const res = await admin.api.get(`/spaces/${c.spaceId}/content/files/${logo.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: logo.id, name: 'logo.png', contentType: 'image/png', size: 8 });
    const spec = c.files.find((f) => f.name === 'spec.json')!;
    expect((await admin.api.get(`/spaces/${c.spaceId}/content/files/${spec.id}`)).body).toMatchObject({
      contentType: 'application/json',
      size: 19,
      downloadURL: expect.stringMatching(new RegExp(`^https://api\\.test\\.example/v1/files/${c.spaceId}/${spec.id}/spec\\.json\\?expires=\\d+&signature=[\\w-]+$`)),
    });
    expect((await admin.api.get(`/spaces/${c.spaceId}/content/files/fil_missing`)).status).toBe(404);
  });

  it('get /spaces/{spaceId}/content/page/{pageId} returns a page as a document or as markdown, 404 when unknown', async () => {
    const admin = await h.current.newAdmin();
    const c = await spaceWithContent(admin);
    const doc = await admin.api.get(`/spaces/${c.spaceId}/content/page/${c.guide}`);
    expect(doc.status).toBe(200);
    expect(doc.body.markdown).toBeUndefined();
    // The leading `# Guide` named the page (inserted without a title) and is not a block.
    expect(doc.body.document.nodes.map((n: { type: string }) => n.type)).toEqual(['paragraph', 'list-unordered']);
    const md = await admin.api.get(`/spaces/${c.spaceId}/content/page/${c.guide}`, { format: 'markdown', evaluated: 'true' });
    expect(md.body.markdown).toBe('Read **this** first.\n\n- one\n- two');
    expect(md.body.document).toBeUndefined();
    expect(md.body.pages[0].id).toBe(c.setup);
    expect((await admin.api.get(`/spaces/${c.spaceId}/content/page/pag_missing`)).status).toBe(404);
  });

  it('get /spaces/{spaceId}/content answers 404 to an outsider and for an unknown space', async () => {
    const admin = await h.current.newAdmin();
    const outsider = await h.current.newAdmin();
    const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' })).body;
    expect((await outsider.api.get(`/spaces/${space.id}/content`)).status).toBe(404);
    expect((await admin.api.get(`/spaces/spc_missing/content/pages`)).status).toBe(404);
  });
});
