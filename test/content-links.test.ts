import { describe, expect, it } from 'vitest';
import type { Account } from './support/harness.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

/**
 * A space holding: "Guide" (links to its subpage by relative path, to the file by name, to a missing
 * page, to an app URL and to an external site), its subpage "Setup" (links back to Guide by id), and
 * "FAQ" (links to Setup by absolute path and to a missing file id). One open change request adds a
 * broken link on Guide.
 */
async function linkedSpace(admin: Account) {
  const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' })).body;
  const cr = (await admin.api.post(`/spaces/${space.id}/change-requests`)).body;
  const made = await admin.api.post(`/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
    changes: [
      { operation: 'insert_files', files: [{ name: 'diagram.png', contentType: 'image/png', base64: 'aGk=' }] },
      { operation: 'insert_page', title: 'Guide', ref: 'guide', document: { markdown: 'x' } },
      { operation: 'insert_page', title: 'Setup', ref: 'setup', into: 'guide', document: { markdown: 'x' } },
      { operation: 'insert_page', title: 'FAQ', ref: 'faq', document: { markdown: '[setup](/guide/setup.md) and [gone](fil_missing)' } },
    ],
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const [guide, setup, faq] = made.body.changes.map((c: { page?: { id: string } }) => c.page?.id);
  const fileId = made.body.insertedFiles[0].id;
  await admin.api.post(`/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [
      {
        operation: 'update_page',
        page: guide,
        document: {
          markdown: `See [setup](guide/setup), ![d](diagram.png), [missing](nowhere), [app](https://api.test.example/app/s/${space.id}) and [web](https://example.com). [top](#top)`,
        },
      },
      { operation: 'update_page', page: setup, document: { markdown: `Back to [guide](${guide}) and [again](../guide)` } },
    ],
  });
  await admin.api.post(`/spaces/${space.id}/change-requests/${cr.id}/merge`);
  const open = (await admin.api.post(`/spaces/${space.id}/change-requests`)).body;
  await admin.api.post(`/spaces/${space.id}/change-requests/${open.id}/content`, {
    changes: [{ operation: 'update_page', page: guide, document: { markdown: '[a](nope) [b](nope2)' } }],
  });
  return { spaceId: space.id as string, guide, setup, faq, fileId, openCr: open.id as string };
}

describe('content links', () => {
  it('get /spaces/{spaceId}/content/page/{pageId}/links lists the links of a page with their status and stats', async () => {
    const admin = await h.current.newAdmin();
    const s = await linkedSpace(admin);
    const res = await admin.api.get(`/spaces/${s.spaceId}/content/page/${s.guide}/links`);
    expect(res.status).toBe(200);
    expect(res.body.stats).toEqual({ total: 5, broken: { total: 1, changeRequest: 2 } });
    const summary = res.body.items.map((i: { status: string; relation: string; targetReference: unknown }) => [i.status, i.relation, i.targetReference]);
    expect(summary).toEqual(
      expect.arrayContaining([
        ['ok', 'link', { kind: 'page', page: s.setup }],
        ['ok', 'image', { kind: 'file', file: s.fileId }],
        ['broken', 'link', { kind: 'url', url: 'nowhere' }],
        ['in-app', 'link', { kind: 'url', url: `https://api.test.example/app/s/${s.spaceId}` }],
        ['ok', 'link', { kind: 'url', url: 'https://example.com' }],
      ]),
    );
    expect(res.body.count).toBe(5);
    expect(res.body.items[0].locationReferences).toEqual([{ kind: 'page', page: s.guide }]);
    const broken = await admin.api.get(`/spaces/${s.spaceId}/content/page/${s.guide}/links`, { status: 'broken' });
    expect(broken.body.items).toHaveLength(1);
    expect(broken.body.stats.total).toBe(5);
    const first = await admin.api.get(`/spaces/${s.spaceId}/content/page/${s.guide}/links`, { limit: 3 });
    const rest = await admin.api.get(`/spaces/${s.spaceId}/content/page/${s.guide}/links`, { limit: 3, page: first.body.next.page });
    expect([...first.body.items, ...rest.body.items]).toEqual(res.body.items);
    expect((await admin.api.get(`/spaces/${s.spaceId}/content/page/pag_nope/links`)).status).toBe(404);
  });

  it('get /spaces/{spaceId}/links lists the links of the whole space, grouped by target', async () => {
    const admin = await h.current.newAdmin();
    const s = await linkedSpace(admin);
    const res = await admin.api.get(`/spaces/${s.spaceId}/links`);
    expect(res.status).toBe(200);
    // The open change request holds the whole content: its 2 broken links on Guide and FAQ's one.
    expect(res.body.stats).toEqual({ total: 9, broken: { total: 2, changeRequest: 3 } });
    const toGuide = res.body.items.find((i: { targetReference: { page?: string } }) => i.targetReference.page === s.guide);
    expect(toGuide).toMatchObject({ status: 'ok', locationReferences: [{ kind: 'page', page: s.setup }] });
    const broken = await admin.api.get(`/spaces/${s.spaceId}/links`, { status: 'broken' });
    expect(broken.body.items.map((i: { targetReference: unknown }) => i.targetReference)).toEqual(
      expect.arrayContaining([{ kind: 'file', file: 'fil_missing' }, { kind: 'url', url: 'nowhere' }]),
    );
    expect((await admin.api.get(`/spaces/${s.spaceId}/links`, { status: 'in-app' })).body.items).toHaveLength(1);
  });

  it('get /spaces/{spaceId}/content/page/{pageId}/backlinks lists the pages linking to a page', async () => {
    const admin = await h.current.newAdmin();
    const s = await linkedSpace(admin);
    const res = await admin.api.get(`/spaces/${s.spaceId}/content/page/${s.setup}/backlinks`);
    expect(res.status).toBe(200);
    const revision = (await admin.api.get(`/spaces/${s.spaceId}`)).body.revision;
    expect(res.body.items).toEqual(
      [s.guide, s.faq].sort().map((page) => ({ kind: 'page', organization: admin.organizationId, space: s.spaceId, versionContext: { type: 'revision', revision }, page })),
    );
    expect((await admin.api.get(`/spaces/${s.spaceId}/content/page/${s.faq}/backlinks`)).body).toEqual({ items: [], count: 0 });
    expect((await admin.api.get(`/spaces/${s.spaceId}/content/page/pag_nope/backlinks`)).status).toBe(404);
  });

  it('get /spaces/{spaceId}/content/files/{fileId}/backlinks lists the pages using a file', async () => {
    const admin = await h.current.newAdmin();
    const s = await linkedSpace(admin);
    const res = await admin.api.get(`/spaces/${s.spaceId}/content/files/${s.fileId}/backlinks`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: { page: string }) => i.page)).toEqual([s.guide]);
    expect((await admin.api.get(`/spaces/${s.spaceId}/content/files/fil_nope/backlinks`)).status).toBe(404);
  });

  it('get /spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links reads the links in the change request', async () => {
    const admin = await h.current.newAdmin();
    const s = await linkedSpace(admin);
    const res = await admin.api.get(`/spaces/${s.spaceId}/change-requests/${s.openCr}/content/page/${s.guide}/links`);
    expect(res.status).toBe(200);
    expect(res.body.stats).toEqual({ total: 2, broken: { total: 2, changeRequest: 2 } });
    expect((await admin.api.get(`/spaces/${s.spaceId}/change-requests/${s.openCr}/content/page/pag_nope/links`)).status).toBe(404);
  });

  it('get /spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks reads backlinks in the change request', async () => {
    const admin = await h.current.newAdmin();
    const s = await linkedSpace(admin);
    // The open change request rewrote Guide without the image: nothing uses the file there.
    const res = await admin.api.get(`/spaces/${s.spaceId}/change-requests/${s.openCr}/content/files/${s.fileId}/backlinks`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [], count: 0 });
    expect((await admin.api.get(`/spaces/${s.spaceId}/change-requests/${s.openCr}/content/files/fil_nope/backlinks`)).status).toBe(404);
  });
});
