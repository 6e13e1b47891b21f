// Every page result of the space and organization searches carries the page's description, as GitBook's
// SearchPageResult requires ('' for a page without one): the index stores it (search_pages.description), a
// changed description indexes the page again, and an index written before the column existed (migration
// 0053) gets its descriptions from the catch-up that migration sets off, still answering searches meanwhile:
// the search of such a space catches it up first (more than its one statement, once), the sweep the others.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createApp } from '../server/app.js';
import { jobs, searchIndexState, searchPages } from '../server/db/schema/index.js';
import { createJobRunner } from '../server/jobs/runner.js';
import { enqueueJob } from '../server/jobs/queue.js';
import { INDEX_SPACE, indexSpaceSearch, SWEEP_SEARCH_INDEXES, sweepSearchIndexes, sweepSearchIndexesJob } from '../server/search/index.job.js';
import { send } from './support/api.js';
import type { Account } from './support/harness.js';
import { PUBLIC_URL, useHarness } from './support/harness.js';
import { mergeChanges as merge } from './support/organization-search.js';

const h = useHarness();

/** A new space with a described page (Boilers) and one without (Valves). */
async function spaceWithPages(admin: Account) {
  const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Plant' });
  expect(space.status).toBe(201);
  const [boilers, valves] = await merge(admin, space.body.id, [
    { operation: 'insert_page', title: 'Boilers', description: 'Keeping the boilers warm', document: { markdown: 'Bleed the radiator once a year.' } },
    { operation: 'insert_page', title: 'Valves', document: { markdown: 'Turn the radiator valve slowly.' } },
  ]);
  return { spaceId: space.body.id as string, boilers, valves };
}

/** Runs the due index jobs and sweeps, on the app's clock; how many ran. */
async function runIndexJobs(userId: string): Promise<number> {
  const runner = createJobRunner({
    db: h.current.db,
    logger: pino({ level: 'silent' }),
    now: () => h.current.ctx(userId).now(),
    handlers: { [INDEX_SPACE]: indexSpaceSearch, [SWEEP_SEARCH_INDEXES]: sweepSearchIndexes },
  });
  return runner.drain();
}

type PageResult = { id: string; description: string };

/** The space search's results, by page id: their descriptions. */
async function spaceSearch(admin: Account, spaceId: string, query: string): Promise<Record<string, string>> {
  const res = await admin.api.get(`/spaces/${spaceId}/search`, { query });
  expect(res.status).toBe(200);
  return Object.fromEntries((res.body.items as PageResult[]).map((p) => [p.id, p.description]));
}

/** The organization search's results in the space, by page id: their descriptions. */
async function orgSearch(admin: Account, spaceId: string, query: string): Promise<Record<string, string>> {
  const res = await admin.api.get(`/orgs/${admin.organizationId}/search`, { query });
  expect(res.status).toBe(200);
  const item = (res.body.items as { id: string; pages: PageResult[] }[]).find((i) => i.id === spaceId);
  return Object.fromEntries((item?.pages ?? []).map((p) => [p.id, p.description]));
}

const digestOf = async (spaceId: string, pageId: string) =>
  (await h.current.db.select({ digest: searchPages.digest }).from(searchPages).where(and(eq(searchPages.spaceId, spaceId), eq(searchPages.pageId, pageId))))[0]?.digest;

describe('search results carry the page description', () => {
  it('the space and organization searches answer each page with its description, "" without one, and follow a changed one', async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, boilers, valves } = await spaceWithPages(admin);
    expect(await spaceSearch(admin, spaceId, 'radiator')).toEqual({ [boilers]: 'Keeping the boilers warm', [valves]: '' });
    expect(await orgSearch(admin, spaceId, 'radiator')).toEqual({ [boilers]: 'Keeping the boilers warm', [valves]: '' });

    // A new description alone (same title and text) indexes the page again; the other page keeps its row.
    const [boilersDigest, valvesDigest] = [await digestOf(spaceId, boilers), await digestOf(spaceId, valves)];
    await merge(admin, spaceId, [
      { operation: 'update_page', page: boilers, description: 'Boilers through the winter' },
      { operation: 'update_page', page: valves, description: 'Which valve does what' },
    ]);
    // The merge indexed them as it committed: both searches answer the new descriptions at once.
    expect(await orgSearch(admin, spaceId, 'radiator')).toEqual({ [boilers]: 'Boilers through the winter', [valves]: 'Which valve does what' });
    expect(await spaceSearch(admin, spaceId, 'radiator')).toEqual({ [boilers]: 'Boilers through the winter', [valves]: 'Which valve does what' });
    expect(await digestOf(spaceId, boilers)).not.toBe(boilersDigest);
    expect(await digestOf(spaceId, valves)).not.toBe(valvesDigest);

    // A description removed ('') answers "" again.
    await merge(admin, spaceId, [{ operation: 'update_page', page: valves, description: '' }]);
    expect(await spaceSearch(admin, spaceId, 'valve')).toEqual({ [valves]: '' });
  });

  it('an index written before the column existed answers "" until its catch-up, then the descriptions (migration 0053)', async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, boilers, valves } = await spaceWithPages(admin);
    const other = await spaceWithPages(admin);
    // Indexed by their writes: no search of this process has seen either space at its revision.
    const indexedRevision = async (id: string) => (await h.current.db.select().from(searchIndexState).where(eq(searchIndexState.spaceId, id)))[0]?.revisionId;
    expect(await indexedRevision(spaceId)).toBeTruthy();

    // The index as the release before wrote it: no description column. Then migration 0053, as a start runs it.
    await h.current.db.execute(sql`ALTER TABLE search_pages DROP COLUMN description`);
    const migration = readFileSync(path.resolve(import.meta.dirname, '../server/db/migrations/0053_search-page-descriptions.sql'), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint')) await h.current.db.execute(sql.raw(statement));
    expect(await h.current.db.select({ description: searchPages.description }).from(searchPages).where(eq(searchPages.spaceId, spaceId))).toEqual([
      { description: null },
      { description: null },
    ]);
    expect(await indexedRevision(spaceId)).toBe('');

    // Searches still find every page meanwhile, each with "".
    expect(await orgSearch(admin, spaceId, 'radiator')).toEqual({ [boilers]: '', [valves]: '' });

    // The search of a space catches that space up itself, first: more than its one statement, this once (an
    // app of its own, which the statement budget of this file's requests does not hold to one).
    const statements: number[] = [];
    const app = createApp({ db: h.current.db, logger: pino({ level: 'silent' }), publicUrl: PUBLIC_URL, onStatements: (_id, n) => statements.push(n) });
    const caught = await send(app, 'get', `/v1/spaces/${spaceId}/search`, { token: admin.token, query: { query: 'radiator' } });
    expect(caught.status).toBe(200);
    expect(Object.fromEntries((caught.body.items as PageResult[]).map((p) => [p.id, p.description]))).toEqual({ [boilers]: 'Keeping the boilers warm', [valves]: '' });
    expect(statements[0]).toBeGreaterThan(1);
    expect(await spaceSearch(admin, spaceId, 'radiator')).toEqual({ [boilers]: 'Keeping the boilers warm', [valves]: '' });
    // The sweep queues the others' catch-up.
    expect(await orgSearch(admin, other.spaceId, 'radiator')).toEqual({ [other.boilers]: '', [other.valves]: '' });
    const now = h.current.ctx(admin.userId).now();
    await h.current.db.delete(jobs).where(eq(jobs.kind, SWEEP_SEARCH_INDEXES));
    await enqueueJob(h.current.db, sweepSearchIndexesJob(now), now);
    expect(await runIndexJobs(admin.userId)).toBeGreaterThanOrEqual(2); // the sweep, then the spaces it queued
    expect(await orgSearch(admin, other.spaceId, 'radiator')).toEqual({ [other.boilers]: 'Keeping the boilers warm', [other.valves]: '' });
    expect(await orgSearch(admin, spaceId, 'radiator')).toEqual({ [boilers]: 'Keeping the boilers warm', [valves]: '' });
    const left = await h.current.db.select({ n: sql<number>`count(*)::integer` }).from(searchPages).where(sql`${searchPages.description} IS NULL`);
    expect(left).toEqual([{ n: 0 }]);
  });
});
