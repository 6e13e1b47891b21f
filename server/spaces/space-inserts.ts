// Inserting new spaces into an organization's content tree, several at once when they come together.
//
// A new space takes the position after the last one under its parent, so creations in one organization
// hold its tree lock (lockTree) one after the other. Under the soak's load (32 clients, a quarter of the
// requests creating spaces in one organization), each creation waited for every other one in the
// database, holding a pooled connection while it waited: creations took 0.5 s and the other requests
// queued for connections behind them (bench/results/soak.md). Here, creations for one organization that
// arrive while its tree is being written wait in this process, without a connection, and then go in
// together: one transaction, one lock, one read of the last positions, one INSERT for all of them, each
// with the position after the one before (the order they came in), as one after the other would have.
// A batch that fails is retried one space at a time, so one bad creation fails only itself. Across
// processes, the database lock still orders the batches.
import { AsyncResource } from 'node:async_hooks';
import type { Ctx } from '../context.js';
import { lastKeys, lockTree } from '../content/tree.js';
import { keyAfter } from '../content/order-keys.js';
import { spaces } from '../db/schema/index.js';
import type { SpaceRow } from '../auth/access.js';

/** What a creation gives; the position is given here. */
export type NewSpace = Omit<typeof spaces.$inferInsert, 'position'> & { organizationId: string; parentId: string | null; id: string };

interface Pending {
  ctx: Ctx;
  /**
   * Runs work in the async context of the request that asked for this creation, so a batch's statements
   * count for the request that leads it (the query budget) rather than for whichever started the drain.
   */
  inContext: <T>(work: () => T) => T;
  values: NewSpace;
  resolve: (row: SpaceRow) => void;
  reject: (err: unknown) => void;
}

/** Creations waiting, per organization; an organization is in the map while its batches are running. */
const waiting = new Map<string, Pending[]>();

/** Inserts the spaces of `batch` (all of one organization) in one transaction, in order. */
async function insertAll(ctx: Ctx, organizationId: string, batch: NewSpace[]): Promise<SpaceRow[]> {
  return ctx.transaction(async (tx) => {
    await lockTree(tx, organizationId);
    // The next free key of each parent, moved on as the batch takes them.
    const next = await lastKeys(tx, organizationId, batch.map((values) => values.parentId));
    const rows: (typeof spaces.$inferInsert)[] = [];
    for (const values of batch) {
      const position = next.get(values.parentId)!;
      next.set(values.parentId, keyAfter(position));
      rows.push({ ...values, position });
    }
    const inserted = await tx.db.insert(spaces).values(rows).returning();
    const byId = new Map(inserted.map((row) => [row.id, row]));
    return batch.map((values) => byId.get(values.id)!);
  });
}

/** Runs the waiting creations of `organizationId` in batches until none is left. */
async function drain(organizationId: string): Promise<void> {
  for (;;) {
    const batch = waiting.get(organizationId)!.splice(0);
    if (batch.length === 0) {
      waiting.delete(organizationId);
      return;
    }
    try {
      const rows = await batch[0].inContext(() => insertAll(batch[0].ctx, organizationId, batch.map((p) => p.values)));
      batch.forEach((p, i) => p.resolve(rows[i]));
    } catch (err) {
      if (batch.length === 1) {
        batch[0].reject(err);
        continue;
      }
      // One of them may be the cause: each on its own, so only that one fails.
      for (const p of batch) await p.inContext(() => insertAll(p.ctx, organizationId, [p.values])).then(([row]) => p.resolve(row), p.reject);
    }
  }
}

/**
 * Inserts a new space at the end of its parent (`parentId`, null for the top level) and returns its row.
 * Inside a transaction (a caller already holding the tree lock), it is inserted there and then.
 */
export function insertSpace(ctx: Ctx, values: NewSpace): Promise<SpaceRow> {
  if (isTransaction(ctx)) return insertAll(ctx, values.organizationId, [values]).then(([row]) => row);
  return new Promise<SpaceRow>((resolve, reject) => {
    const pending = { ctx, inContext: AsyncResource.bind(<T>(work: () => T) => work()), values, resolve, reject };
    const queue = waiting.get(values.organizationId);
    if (queue) {
      queue.push(pending);
      return;
    }
    waiting.set(values.organizationId, [pending]);
    void drain(values.organizationId);
  });
}

/** Whether `ctx` is bound to an open transaction (Drizzle's transaction object can roll back; a database cannot). */
function isTransaction(ctx: Ctx): boolean {
  return typeof (ctx.db as unknown as { rollback?: unknown }).rollback === 'function';
}
