// The search index is kept current by a job each content write queues (server/search/index.job.ts, queued
// by search's subscribers of the core areas' events, server/search/core-events.ts): the organization search
// finds a space's new text once the job has run, and catches nothing up itself.
import { and, eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { countingStatements } from '../server/db/query-count.js';
import { jobs, searchIndexState } from '../server/db/schema/index.js';
import { createJobRunner } from '../server/jobs/runner.js';
import { INDEX_DELAY_MS, INDEX_SPACE, indexSpaceSearch, SWEEP_SEARCH_INDEXES, sweepSearchIndexes, sweepSearchIndexesJob } from '../server/search/index.job.js';
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

describe('search index jobs', () => {
  it('a merge queues one index job per space; once it runs the organization search finds the new text', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await mergePage(admin, 'Deploy', 'How to deploy the service.');
    await mergePage(admin, 'Rollback', 'Roll back a release.', spaceId);
    // Two writes, one job, due a moment later.
    const queued = await indexJobsOf(spaceId);
    expect(queued.map((j) => j.status)).toEqual(['queued']);
    expect(queued[0].payload).toEqual({ spaceId });
    expect(queued[0].runAt.getTime()).toBeGreaterThan(h.current.ctx(admin.userId).now().getTime());

    // Before the job runs, the organization search searches what is indexed (nothing yet), and indexes nothing.
    expect(await orgSearch(admin, 'rollback')).toEqual([]);
    expect(await h.current.db.select().from(searchIndexState).where(eq(searchIndexState.spaceId, spaceId))).toEqual([]);

    expect(await runIndexJobs(admin.userId)).toBe(0); // not due yet
    h.current.advanceClock(INDEX_DELAY_MS);
    expect(await runIndexJobs(admin.userId)).toBe(1);
    expect((await indexJobsOf(spaceId)).map((j) => j.status)).toEqual(['done']);
    expect(await orgSearch(admin, 'rollback')).toEqual([spaceId]);
    expect(await orgSearch(admin, 'deploy')).toEqual([spaceId]);

    // A later write queues a new job; running a job twice is harmless.
    await mergePage(admin, 'Canary', 'Canary releases first.', spaceId);
    expect(await orgSearch(admin, 'canary')).toEqual([]);
    h.current.advanceClock(INDEX_DELAY_MS);
    expect(await runIndexJobs(admin.userId)).toBe(1);
    expect(await orgSearch(admin, 'canary')).toEqual([spaceId]);
    await indexSpaceSearch({ spaceId }, { db: h.current.db, log: pino({ level: 'silent' }), now: () => new Date(), job: queued[0], enqueueOnSuccess: () => expect.fail('nothing is behind') });
    expect(await orgSearch(admin, 'canary')).toEqual([spaceId]);
  });

  it('a template applied to the space and a duplicate of it each queue their own index job (the events search hears)', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await mergePage(admin, 'Deploy', 'How to deploy the service.');
    h.current.advanceClock(INDEX_DELAY_MS);
    expect(await runIndexJobs(admin.userId)).toBe(1);

    const applied = await admin.api.post(`/spaces/${spaceId}/content/template`, { id: 'getting-started' });
    expect(applied.status).toBe(204);
    expect((await indexJobsOf(spaceId)).map((j) => j.status).sort()).toEqual(['done', 'queued']);

    const copy = await admin.api.post(`/spaces/${spaceId}/duplicate`);
    expect(copy.status).toBe(201);
    expect((await indexJobsOf(copy.body.id)).map((j) => j.status)).toEqual(['queued']);
    expect(await orgSearch(admin, 'deploy')).toEqual([spaceId]);
    h.current.advanceClock(INDEX_DELAY_MS);
    expect(await runIndexJobs(admin.userId)).toBe(2);
    expect((await orgSearch(admin, 'deploy')).sort()).toEqual([spaceId, copy.body.id].sort());
  });

  it('the space search still catches up its own space at once', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await mergePage(admin, 'Deploy', 'How to deploy the service.');
    const res = await admin.api.get(`/spaces/${spaceId}/search`, { query: 'deploy' });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1);
    // ...and then the organization search finds it too, before any job ran.
    expect(await orgSearch(admin, 'deploy')).toEqual([spaceId]);
  });

  it('the organization search sends no catch-up statements, however many spaces are behind', async () => {
    const admin = await h.current.newAdmin();
    const ctx = h.current.ctx(admin.userId);
    const count = () => countingStatements(async (tally) => {
      await searchOrganization(ctx, admin.organizationId, null, 'deploy', {});
      return tally.statements;
    });
    const current = await count(); // no space behind
    const spaceIds = [await mergePage(admin, 'Deploy', 'deploy one'), await mergePage(admin, 'Deploy', 'deploy two'), await mergePage(admin, 'Deploy', 'deploy three')];
    expect(await count()).toBe(current);
    expect(await h.current.db.select().from(searchIndexState).where(inArray(searchIndexState.spaceId, spaceIds))).toEqual([]);
    h.current.advanceClock(INDEX_DELAY_MS);
    expect(await runIndexJobs(admin.userId)).toBeGreaterThanOrEqual(3);
    for (const id of spaceIds) expect((await indexJobsOf(id)).map((j) => j.status)).toEqual(['done']);
    expect((await searchOrganization(ctx, admin.organizationId, null, 'deploy', {})).count).toBe(3);
    expect(await count()).toBe(current);
  });

  it('the sweep queues the catch-up of spaces left behind', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await mergePage(admin, 'Deploy', 'How to deploy the service.');
    // As if the write's job were lost (e.g. a space written before these jobs existed).
    await h.current.db.delete(jobs).where(eq(jobs.uniqueKey, `${INDEX_SPACE}:${spaceId}`));
    const now = h.current.ctx(admin.userId).now();
    await enqueueJob(h.current.db, sweepSearchIndexesJob(now), now);
    expect(await runIndexJobs(admin.userId)).toBeGreaterThanOrEqual(2); // the sweep, then the spaces it queued
    expect(await orgSearch(admin, 'deploy')).toEqual([spaceId]);
    const sweeps = await h.current.db.select().from(jobs).where(eq(jobs.kind, SWEEP_SEARCH_INDEXES));
    expect(sweeps.filter((j) => j.status === 'queued')).toHaveLength(1); // the next one, later
  });
});
