// Catches up a space's search index that is behind its content. Writes index what they change at commit
// (index-at-commit.ts), so a space is behind only when a release before this one wrote it: its index job,
// queued by that write, runs here, and the sweep queues one for any other space found behind (e.g. one
// written before index jobs existed). One job per space (its uniqueKey).
import { and, eq, isNull, sql } from 'drizzle-orm';
import { searchIndexState, spaces } from '../db/schema/index.js';
import { enqueueJob, type EnqueueInput } from '../jobs/queue.js';
import type { JobHandler } from '../jobs/runner.js';
import { catchUpSpace } from './search-index.js';

export const INDEX_SPACE = 'index-space-search';
export const SWEEP_SEARCH_INDEXES = 'sweep-search-indexes';

function indexSpaceJob(spaceId: string, runAt: Date): EnqueueInput {
  return { kind: INDEX_SPACE, payload: { spaceId }, uniqueKey: `${INDEX_SPACE}:${spaceId}`, runAt, maxAttempts: 10 };
}

/**
 * Brings the space's index to its current revision; safe to repeat (a space already indexed costs one
 * read, a space gone costs nothing). A write that commits while this job runs indexes its own change from
 * the revision this job leaves the index at (both lock the index's state row); the job looks again once
 * done, and queues itself anew should the space still be behind.
 */
export const indexSpaceSearch: JobHandler = async (payload, ctx) => {
  const { spaceId } = payload as { spaceId: string };
  await catchUpSpace(ctx.db, spaceId);
  const [row] = await ctx.db
    .select({ revisionId: spaces.revisionId, indexed: searchIndexState.revisionId })
    .from(spaces)
    .leftJoin(searchIndexState, eq(searchIndexState.spaceId, spaces.id))
    .where(eq(spaces.id, spaceId));
  if (row && row.indexed !== row.revisionId) ctx.enqueueOnSuccess(indexSpaceJob(spaceId, ctx.now()));
};

const SWEEP_EVERY_MS = 10 * 60 * 1000;
const SWEEP_BATCH = 500;

/**
 * The sweep, a minute after a server start and then every 10 minutes: it queues the catch-up of every live
 * space whose index is behind its content: the spaces a release before this one wrote (whose index was
 * brought up to date by a search or a queued job, which this release's writes no longer rely on), and those
 * an older process writes while a new one starts beside it on the same database.
 */
export function sweepSearchIndexesJob(runAt: Date): EnqueueInput {
  return { kind: SWEEP_SEARCH_INDEXES, uniqueKey: SWEEP_SEARCH_INDEXES, runAt, maxAttempts: 20 };
}

/** Queues the catch-up of up to SWEEP_BATCH spaces that are behind; the next sweep is at once when there were more. */
export const sweepSearchIndexes: JobHandler = async (_payload, ctx) => {
  const behind = await ctx.db
    .select({ id: spaces.id })
    .from(spaces)
    .leftJoin(searchIndexState, eq(searchIndexState.spaceId, spaces.id))
    .where(and(isNull(spaces.deletedAt), sql`${searchIndexState.revisionId} IS DISTINCT FROM ${spaces.revisionId}`))
    .limit(SWEEP_BATCH);
  for (const { id } of behind) await enqueueJob(ctx.db, indexSpaceJob(id, ctx.now()), ctx.now());
  const next = behind.length === SWEEP_BATCH ? ctx.now() : new Date(ctx.now().getTime() + SWEEP_EVERY_MS);
  ctx.enqueueOnSuccess(sweepSearchIndexesJob(next));
};
