// The stored search index follows the space's content: it is caught up by the next search after any write.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { searchIndexState, searchPages, searchTerms } from '../server/db/schema/index.js';
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

/** The kept word counts and page total of a space, beside what its indexed pages say they should be. */
async function wordCounts(spaceId: string) {
  const rows = async (query: ReturnType<typeof sql>) => ((await h.current.db.execute(query)) as unknown as { rows: { lexeme: string; pages: number }[] }).rows;
  const counted = await rows(sql`
    SELECT w.lexeme, count(*)::integer AS pages FROM search_pages p CROSS JOIN LATERAL unnest(tsvector_to_array(p.tsv)) AS w(lexeme)
    WHERE p.space_id = ${spaceId} GROUP BY w.lexeme ORDER BY w.lexeme`);
  const kept = await h.current.db.select({ lexeme: searchTerms.lexeme, pages: searchTerms.pages }).from(searchTerms).where(eq(searchTerms.spaceId, spaceId)).orderBy(searchTerms.lexeme);
  const [state] = await h.current.db.select({ pages: searchIndexState.pages }).from(searchIndexState).where(eq(searchIndexState.spaceId, spaceId));
  const indexed = await h.current.db.select({ id: searchPages.pageId }).from(searchPages).where(eq(searchPages.spaceId, spaceId));
  return { kept, counted, pages: state.pages, indexed: indexed.length };
}

const expectCountsInStep = async (spaceId: string) => {
  const { kept, counted, pages, indexed } = await wordCounts(spaceId);
  expect(counted.length).toBeGreaterThan(0);
  expect(kept).toEqual(counted);
  expect(pages).toBe(indexed);
};

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
    await expectCountsInStep(space.id);

    // A changed body, a renamed parent: the child's path and ancestors follow.
    await edit(admin, space.id, [
      { operation: 'update_page', page: setup, document: { markdown: '## Install\n\nRun the giraffe installer.' } },
      { operation: 'update_page', page: guide, title: 'Handbook', slug: 'handbook' },
    ]);
    expect((await search(admin, space.id, 'zebra')).items).toEqual([]);
    expect((await search(admin, space.id, 'giraffe')).items).toMatchObject([{ id: setup, path: 'handbook/setup', ancestors: [{ title: 'Handbook' }] }]);
    expect((await search(admin, space.id, 'zebra')).count).toBe(0);
    await expectCountsInStep(space.id);

    // Only what changed was indexed again: the untouched page kept its row.
    const before = await h.current.db.select().from(searchPages).where(eq(searchPages.pageId, other));
    await edit(admin, space.id, [{ operation: 'delete_page', page: guide }]);
    expect((await search(admin, space.id, 'giraffe')).items).toEqual([]);
    expect((await search(admin, space.id, 'animals')).items.map((i: { id: string }) => i.id)).toEqual([other]);
    expect(await h.current.db.select().from(searchPages).where(eq(searchPages.spaceId, space.id))).toEqual(before);
    // The words of the deleted pages are no longer counted (a word on no page has no row).
    await expectCountsInStep(space.id);
    expect((await wordCounts(space.id)).kept.map((k) => k.lexeme)).not.toContain('giraff');
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
