// Writes index what they change as they commit (server/search/index-at-commit.ts): after any write, the
// index holds exactly what a whole catch-up of the space would write (rows, sections, word pairs, word
// counts), both searches find the new text at once, and a space a release before left behind is brought
// up whole by its next write.
import { eq, sql } from 'drizzle-orm';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createApp } from '../server/app.js';
import { jobs, searchIndexState } from '../server/db/schema/index.js';
import { catchUpSpace } from '../server/search/search-index.js';
import { send } from './support/api.js';
import type { Account } from './support/harness.js';
import { PUBLIC_URL, useHarness } from './support/harness.js';
import { mergeChanges as merge, spaceWith } from './support/organization-search.js';

const h = useHarness();

/**
 * A merge of one page, through an app of its own, and the statements it sent: a merge into a space marked
 * for a catch-up digests the whole space first, which the statement budget of this file's requests does not hold.
 */
async function mergeBehind(admin: Account, spaceId: string, title: string, markdown: string): Promise<number> {
  const statements = new Map<string, number>();
  const app = createApp({ db: h.current.db, logger: pino({ level: 'silent' }), publicUrl: PUBLIC_URL, onStatements: (id, n) => statements.set(id, n) });
  const cr = await send(app, 'post', `/v1/spaces/${spaceId}/change-requests`, { token: admin.token });
  expect(cr.status).toBe(201);
  const changes = [{ operation: 'insert_page', title, document: { markdown } }];
  expect((await send(app, 'post', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, { token: admin.token, query: { compat: 'false' }, body: { changes } })).status).toBe(200);
  expect((await send(app, 'post', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`, { token: admin.token })).status).toBe(200);
  return statements.get('mergeChangeRequest')!;
}

const rows = async (query: ReturnType<typeof sql>) => ((await h.current.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;

/** Everything the index holds for the space, in a fixed order. */
async function indexOf(spaceId: string) {
  return {
    state: await rows(sql`SELECT revision_id, pages FROM search_index_state WHERE space_id = ${spaceId}`),
    pages: await rows(sql`SELECT page_id, digest, title, description, path, ancestors, tsv::text AS tsv FROM search_pages WHERE space_id = ${spaceId} ORDER BY page_id`),
    sections: await rows(sql`SELECT page_id, ordinal, section_id, title, ranked_title, body FROM search_sections WHERE space_id = ${spaceId} ORDER BY page_id, ordinal`),
    pairs: await rows(sql`SELECT page_id, pairs FROM search_page_pairs WHERE space_id = ${spaceId} ORDER BY page_id`),
    terms: await rows(sql`SELECT lexeme, pages FROM search_terms WHERE space_id = ${spaceId} ORDER BY lexeme`),
  };
}

/** What a whole catch-up writes for the space at its current revision (its index dropped first). */
async function rebuilt(spaceId: string) {
  await h.current.db.execute(sql`DELETE FROM search_pages WHERE space_id = ${spaceId}`);
  await h.current.db.execute(sql`DELETE FROM search_terms WHERE space_id = ${spaceId}`);
  await h.current.db.delete(searchIndexState).where(eq(searchIndexState.spaceId, spaceId));
  await catchUpSpace(h.current.db, spaceId);
  return indexOf(spaceId);
}

const revisionOf = async (admin: Account, spaceId: string) => {
  const res = await admin.api.get(`/spaces/${spaceId}`);
  expect(res.status).toBe(200);
  return res.body.revision as string;
};

async function found(admin: Account, spaceId: string, query: string) {
  const space = await admin.api.get(`/spaces/${spaceId}/search`, { query });
  expect(space.status).toBe(200);
  const org = await admin.api.get(`/orgs/${admin.organizationId}/search`, { query });
  expect(org.status).toBe(200);
  const inOrg = (org.body.items as { id: string; pages: { title: string }[] }[]).find((i) => i.id === spaceId);
  return { space: (space.body.items as { title: string }[]).map((i) => i.title).sort(), org: (inOrg?.pages ?? []).map((p) => p.title).sort() };
}

describe('search index at commit', () => {
  it('after each write the index is what a whole catch-up writes, and both searches find its text at once', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Plant' })).body.id as string;
    const [guide, setup, valves] = await merge(admin, spaceId, [
      { operation: 'insert_page', ref: 'g', title: 'Guide', document: { markdown: 'The guide to the plant.' } },
      { operation: 'insert_page', into: 'g', title: 'Setup', document: { markdown: '## Install\n\nRun the zebra installer.\n\n## Check\n\nThe pump hums.' } },
      { operation: 'insert_page', title: 'Valves', description: 'Which valve does what', document: { markdown: 'Turn the valve slowly.' } },
    ]);
    expect(await found(admin, spaceId, 'zebra')).toEqual({ space: ['Setup'], org: ['Setup'] });
    const steps: unknown[][] = [
      // A body changed; a parent renamed (its child's path and ancestors follow).
      [
        { operation: 'update_page', page: setup, document: { markdown: '## Install\n\nRun the giraffe installer.' } },
        { operation: 'update_page', page: guide, title: 'Handbook', slug: 'handbook' },
      ],
      // A description alone; a page moved under another; a new page.
      [
        { operation: 'update_page', page: valves, description: 'All the valves' },
        { operation: 'update_page', page: setup, into: valves },
        { operation: 'insert_page', title: 'Boilers', document: { markdown: 'Bleed the radiator.' } },
      ],
      // A page with a subpage deleted.
      [{ operation: 'delete_page', page: valves }],
    ];
    for (const changes of steps) {
      await merge(admin, spaceId, changes);
      const atCommit = await indexOf(spaceId);
      expect(atCommit.state).toEqual([{ revision_id: await revisionOf(admin, spaceId), pages: expect.anything() }]);
      expect(atCommit).toEqual(await rebuilt(spaceId));
    }
    expect(await found(admin, spaceId, 'zebra')).toEqual({ space: [], org: [] });
    expect(await found(admin, spaceId, 'radiator')).toEqual({ space: ['Boilers'], org: ['Boilers'] });
    expect(await found(admin, spaceId, 'giraffe')).toEqual({ space: [], org: [] });
    expect(await found(admin, spaceId, 'handbook')).toEqual({ space: ['Handbook'], org: ['Handbook'] });
  });

  it('a write of more than a thousand pages is indexed in batches, then a change of one of them alone', async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, pages } = await spaceWith(admin, 'Large', Array.from({ length: 1001 }, (_, i): [string, string] => [`Page ${i}`, `Body of page ${i}, about walruses.`]));
    const written = await indexOf(spaceId);
    expect(written.pages).toHaveLength(1001);
    expect(written.terms).toContainEqual({ lexeme: 'walrus', pages: 1001 });
    expect(written).toEqual(await rebuilt(spaceId));
    await merge(admin, spaceId, [{ operation: 'update_page', page: pages[500], document: { markdown: 'Now about narwhals.' } }]);
    const changed = await indexOf(spaceId);
    expect(changed.terms).toContainEqual({ lexeme: 'walrus', pages: 1000 });
    expect(changed.terms).toContainEqual({ lexeme: 'narwhal', pages: 1 });
    expect(changed).toEqual(await rebuilt(spaceId));
  }, 120_000);

  it('a template and a duplicate are indexed as they commit', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' })).body.id as string;
    await merge(admin, spaceId, [{ operation: 'insert_page', title: 'Deploy', document: { markdown: 'How to deploy the service.' } }]);
    expect((await admin.api.post(`/spaces/${spaceId}/content/template`, { id: 'getting-started' })).status).toBe(204);
    const applied = await indexOf(spaceId);
    expect(applied.state).toEqual([{ revision_id: await revisionOf(admin, spaceId), pages: expect.anything() }]);
    expect(applied.pages.length).toBeGreaterThan(1);
    expect(applied).toEqual(await rebuilt(spaceId));

    const copy = await admin.api.post(`/spaces/${spaceId}/duplicate`);
    expect(copy.status).toBe(201);
    const copied = await indexOf(copy.body.id);
    expect(copied.state).toEqual([{ revision_id: await revisionOf(admin, copy.body.id), pages: applied.pages.length }]);
    expect(copied).toEqual(await rebuilt(copy.body.id));
    const org = await admin.api.get(`/orgs/${admin.organizationId}/search`, { query: 'deploy' });
    expect(org.status).toBe(200);
    expect(org.body.items.map((i: { id: string }) => i.id).sort()).toEqual([spaceId, copy.body.id].sort());
    expect(await h.current.db.select().from(jobs).where(eq(jobs.kind, 'index-space-search'))).toEqual([]);
  });

  it('a write to a space left behind (never indexed, or marked for a catch-up) indexes the whole space', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' })).body.id as string;
    await merge(admin, spaceId, [
      { operation: 'insert_page', title: 'Deploy', document: { markdown: 'How to deploy the service.' } },
      { operation: 'insert_page', title: 'Tokens', document: { markdown: 'Create a token.' } },
    ]);
    // Never indexed, as a space a release before wrote and nothing searched.
    await rebuilt(spaceId);
    await h.current.db.execute(sql`DELETE FROM search_pages WHERE space_id = ${spaceId}`);
    await h.current.db.execute(sql`DELETE FROM search_terms WHERE space_id = ${spaceId}`);
    await h.current.db.delete(searchIndexState).where(eq(searchIndexState.spaceId, spaceId));
    await merge(admin, spaceId, [{ operation: 'insert_page', title: 'Rollback', document: { markdown: 'Undo a deploy.' } }]);
    const whole = await indexOf(spaceId);
    expect(whole.pages.map((p) => p.title).sort()).toEqual(['Deploy', 'Rollback', 'Tokens']);
    expect(whole).toEqual(await rebuilt(spaceId));

    // Marked for a catch-up (migration 0053 set the state to ''): the write digests the space's pages, once.
    await h.current.db.update(searchIndexState).set({ revisionId: '' }).where(eq(searchIndexState.spaceId, spaceId));
    expect(await mergeBehind(admin, spaceId, 'Canary', 'Canary releases first.')).toBeGreaterThan(8);
    const caught = await indexOf(spaceId);
    expect(caught.state).toEqual([{ revision_id: await revisionOf(admin, spaceId), pages: 4 }]);
    expect(caught).toEqual(await rebuilt(spaceId));
  });
});
