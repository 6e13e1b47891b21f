// The stored search index follows the space's content: it is caught up by the next search after any write.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { searchPages } from '../server/db/schema/index.js';
import type { Account } from './support/harness.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

async function edit(admin: Account, spaceId: string, changes: unknown[]) {
  const cr = (await admin.api.post(`/spaces/${spaceId}/change-requests`)).body;
  const res = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, { changes });
  expect(res.status).toBe(200);
  expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.id}/merge`)).status).toBe(200);
  return res.body.changes.map((c: { page?: { id: string } }) => c.page?.id) as string[];
}

const search = async (admin: Account, spaceId: string, query: string) => (await admin.api.get(`/spaces/${spaceId}/search`, { query })).body;

describe('search index', () => {
  it('get /spaces/{spaceId}/search sees every merge: new, changed, moved and deleted pages', async () => {
    const admin = await h.current.newAdmin();
    const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' })).body;
    const [guide, setup, other] = await edit(admin, space.id, [
      { operation: 'insert_page', ref: 'g', title: 'Guide', document: { markdown: 'The guide.' } },
      { operation: 'insert_page', into: 'g', title: 'Setup', document: { markdown: '## Install\n\nRun the zebra installer.' } },
      { operation: 'insert_page', title: 'Other', document: { markdown: 'Nothing about animals.' } },
    ]);
    expect((await search(admin, space.id, 'zebra')).items).toMatchObject([{ id: setup, path: 'guide/setup', ancestors: [{ title: 'Guide' }] }]);

    // A changed body, a renamed parent: the child's path and ancestors follow.
    await edit(admin, space.id, [
      { operation: 'update_page', page: setup, document: { markdown: '## Install\n\nRun the giraffe installer.' } },
      { operation: 'update_page', page: guide, title: 'Handbook', slug: 'handbook' },
    ]);
    expect((await search(admin, space.id, 'zebra')).items).toEqual([]);
    expect((await search(admin, space.id, 'giraffe')).items).toMatchObject([{ id: setup, path: 'handbook/setup', ancestors: [{ title: 'Handbook' }] }]);

    // Only what changed was indexed again: the untouched page kept its row.
    const before = await h.current.db.select().from(searchPages).where(eq(searchPages.pageId, other));
    await edit(admin, space.id, [{ operation: 'delete_page', page: guide }]);
    expect((await search(admin, space.id, 'giraffe')).items).toEqual([]);
    expect((await search(admin, space.id, 'animals')).items.map((i: { id: string }) => i.id)).toEqual([other]);
    expect(await h.current.db.select().from(searchPages).where(eq(searchPages.spaceId, space.id))).toEqual(before);
  });

  it('get /spaces/{spaceId}/search counts the results on every page, also past the last one, and ignores headings inside code', async () => {
    const admin = await h.current.newAdmin();
    const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' })).body;
    await edit(admin, space.id, [
      { operation: 'insert_page', title: 'One', document: { markdown: 'Shell usage:\n\n```sh\n# comment about walrus\nls\n```' } },
      { operation: 'insert_page', title: 'Two', document: { markdown: 'walrus' } },
    ]);
    const first = await admin.api.get(`/spaces/${space.id}/search`, { query: 'walrus', limit: 2 });
    expect(first.body.count).toBe(2);
    expect(first.body.items.find((i: { title: string }) => i.title === 'One').sections.map((s: { id: string }) => s.id)).toEqual(['']);
    const one = await admin.api.get(`/spaces/${space.id}/search`, { query: 'walrus', limit: 1 });
    const past = await admin.api.get(`/spaces/${space.id}/search`, { query: 'walrus', limit: 1, page: one.body.next.page });
    expect(past.body.items).toHaveLength(1);
    expect(past.body.next).toBeUndefined();
    expect(past.body.count).toBe(2);
    // A cursor beyond the results (the API's format, position 9) still answers the total.
    const beyond = await admin.api.get(`/spaces/${space.id}/search`, { query: 'walrus', page: Buffer.from(JSON.stringify(['0000000009'])).toString('base64url') });
    expect(beyond.body).toEqual({ items: [], count: 2 });
  });
});
