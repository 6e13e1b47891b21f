// Keeps a space's search index current after its content moves (a merge, a live edit, a translation run,
// a duplicate): each such write enqueues this job in its own transaction, and the job runs the catch-up of
// search-index.ts. One job per space (its uniqueKey) a moment after the write, so a burst of writes makes
// one catch-up; the organization search then finds the new text without catching up inside the request.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { searchIndexState, spaces } from '../db/schema/index.js';
import type { SqlFragment } from '../db/sql-text.js';
import { enqueueJob, insertJobSql, type EnqueueInput } from '../jobs/queue.js';
import type { JobHandler } from '../jobs/runner.js';
import { catchUpSpace } from './search-index.js';

export const INDEX_SPACE = 'index-space-search';
export const SWEEP_SEARCH_INDEXES = 'sweep-search-indexes';

/** How long after a write the catch-up runs: writes in between join the same job. */
export const INDEX_DELAY_MS = 2000;

function indexSpaceJob(spaceId: string, runAt: Date): EnqueueInput {
  return { kind: INDEX_SPACE, payload: { spaceId }, uniqueKey: `${INDEX_SPACE}:${spaceId}`, runAt, maxAttempts: 10 };
}

/**
 * Enqueues the catch-up of the space's index, in the caller's transaction (the one that moves
 * space.revisionId): a write that commits has its indexing queued. A no-op when one is queued already.
 */
export async function enqueueSpaceIndexing(tx: Ctx, spaceId: string): Promise<void> {
  const now = tx.now();
  await enqueueJob(tx.db, indexSpaceJob(spaceId, new Date(now.getTime() + INDEX_DELAY_MS)), now);
}

/** The same enqueueing as an INSERT, for a writer that moves the space in one statement (the merge). */
export function enqueueSpaceIndexingSql(spaceId: string, now: Date): SqlFragment {
  return insertJobSql(indexSpaceJob(spaceId, new Date(now.getTime() + INDEX_DELAY_MS)), now);
}

/**
 * Brings the space's index to its current revision; safe to repeat (a space already indexed costs one
 * read, a space gone costs nothing). A write that commits while this job runs finds the job's key taken
 * and enqueues nothing, so the job looks again once done and queues itself anew when the space moved on.
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
 * space whose index is behind its content. That covers the spaces indexed only by searches before these
 * jobs existed, and a write that committed in the instant between a job's last look and its end.
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
