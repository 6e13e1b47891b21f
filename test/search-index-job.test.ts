// The catch-up of a space whose index is behind its content (server/search/index.job.ts): writes index what
// they change at commit (server/search/index-at-commit.ts), so only a space a release before wrote is
// behind; the sweep queues its catch-up, the job runs it, and the organization search finds its text then.
import { and, eq, inArray, sql } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { countingStatements } from '../server/db/query-count.js';
import { jobs, searchIndexState } from '../server/db/schema/index.js';
import { createJobRunner } from '../server/jobs/runner.js';
import { INDEX_SPACE, indexSpaceSearch, SWEEP_SEARCH_INDEXES, sweepSearchIndexes, sweepSearchIndexesJob } from '../server/search/index.job.js';
import { enqueueJob } from '../server/jobs/queue.js';
import { searchOrganization } from '../server/search/search.js';
import type { Account } from './support/harness.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

/** Merges one page into the space (a new space when `spaceId` is not given); returns the space id. */
async function mergePage(admin: Account, title: string, markdown: string, spaceId?: string): Promise<string> {
  const id = spaceId ?? (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' })).body.id;
  const cr = await admin.api.post(`/spaces/${id}/change-requests`);
  expect(cr.status).toBe(201);
  const res = await admin.api.post(`/spaces/${id}/change-requests/${cr.body.id}/content?compat=false`, {
    changes: [{ operation: 'insert_page', title, document: { markdown } }],
  });
  expect(res.status).toBe(200);
  expect((await admin.api.post(`/spaces/${id}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
  return id;
}

const indexJobsOf = (spaceId: string) =>
  h.current.db.select().from(jobs).where(and(eq(jobs.kind, INDEX_SPACE), eq(jobs.uniqueKey, `${INDEX_SPACE}:${spaceId}`)));

/** The spaces' index as a release before this one could leave it: an index of nothing (no state, no row). */
async function leaveBehind(spaceIds: string[]): Promise<void> {
  await h.current.db.execute(sql`DELETE FROM search_pages WHERE space_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(spaceIds)}::jsonb))`);
  await h.current.db.execute(sql`DELETE FROM search_terms WHERE space_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(spaceIds)}::jsonb))`);
  await h.current.db.delete(searchIndexState).where(inArray(searchIndexState.spaceId, spaceIds));
}

/** Runs the due index jobs (and sweeps), on the app's clock. */
async function runIndexJobs(userId: string): Promise<number> {
  const runner = createJobRunner({
    db: h.current.db,
    logger: pino({ level: 'silent' }),
    now: () => h.current.ctx(userId).now(),
    handlers: { [INDEX_SPACE]: indexSpaceSearch, [SWEEP_SEARCH_INDEXES]: sweepSearchIndexes },
  });
  return runner.drain();
}

async function orgSearch(admin: Account, query: string): Promise<string[]> {
  const res = await admin.api.get(`/orgs/${admin.organizationId}/search`, { query });
  expect(res.status).toBe(200);
  return res.body.items.map((i: { id: string }) => i.id);
}

const sweepNow = async (userId: string) => {
  const now = h.current.ctx(userId).now();
  await h.current.db.delete(jobs).where(eq(jobs.kind, SWEEP_SEARCH_INDEXES));
  await enqueueJob(h.current.db, sweepSearchIndexesJob(now), now);
};

describe('search index jobs', () => {
  it('writes queue no index job: their index is current as they commit', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await mergePage(admin, 'Deploy', 'How to deploy the service.');
    expect(await indexJobsOf(spaceId)).toEqual([]);
    expect(await orgSearch(admin, 'deploy')).toEqual([spaceId]);
    await sweepNow(admin.userId);
    expect(await runIndexJobs(admin.userId)).toBe(1); // the sweep alone: nothing is behind
    expect(await indexJobsOf(spaceId)).toEqual([]);
  });

  it('the sweep queues the catch-up of spaces left behind; the organization search finds them once it ran, and sends no catch-up itself', async () => {
    const admin = await h.current.newAdmin();
    const ctx = h.current.ctx(admin.userId);
    const count = () => countingStatements(async (tally) => {
      await searchOrganization(ctx, admin.organizationId, null, 'deploy', {});
      return tally.statements;
    });
    const current = await count(); // no space
    const spaceIds = [await mergePage(admin, 'Deploy', 'deploy one'), await mergePage(admin, 'Deploy', 'deploy two'), await mergePage(admin, 'Deploy', 'deploy three')];
    await leaveBehind(spaceIds);
    expect((await searchOrganization(ctx, admin.organizationId, null, 'deploy', {})).count).toBe(0);
    expect(await count()).toBe(current);

    await sweepNow(admin.userId);
    expect(await runIndexJobs(admin.userId)).toBe(4); // the sweep, then the spaces it queued
    for (const id of spaceIds) expect((await indexJobsOf(id)).map((j) => j.status)).toEqual(['done']);
    expect((await orgSearch(admin, 'deploy')).sort()).toEqual([...spaceIds].sort());
    expect(await count()).toBe(current);
    const sweeps = await h.current.db.select().from(jobs).where(eq(jobs.kind, SWEEP_SEARCH_INDEXES));
    expect(sweeps.filter((j) => j.status === 'queued')).toHaveLength(1); // the next one, later
    // Running a job again is harmless.
    await indexSpaceSearch({ spaceId: spaceIds[0] }, { db: h.current.db, log: pino({ level: 'silent' }), now: () => new Date(), job: sweeps[0], enqueueOnSuccess: () => expect.fail('nothing is behind') });
    expect((await orgSearch(admin, 'deploy')).sort()).toEqual([...spaceIds].sort());
  });
});
