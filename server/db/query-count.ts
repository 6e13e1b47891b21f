// Counts the SQL statements a piece of work sends, for the query-budget test: the database client calls
// `countStatement` for each statement, and whoever wants a count runs its work in `countingStatements`.
// Nothing is counted (and no async context is kept) unless some work asked for it, so a server that does
// not count pays one `getStore()` per statement.
import { AsyncLocalStorage } from 'node:async_hooks';

interface Tally {
  statements: number;
}

const tallies = new AsyncLocalStorage<Tally>();

/** Called by the database client for every statement it sends. */
export function countStatement(): void {
  const tally = tallies.getStore();
  if (tally) tally.statements++;
}

/** Runs `work` with a tally of its statements; `tally.statements` grows as they are sent. */
export function countingStatements<T>(work: (tally: Readonly<Tally>) => T): T {
  const tally: Tally = { statements: 0 };
  return tallies.run(tally, () => work(tally));
}

/**
 * Runs `work` outside any tally: for a read made once per process and then cached (a signing key), which
 * is not the cost of the request that happens to come first.
 */
export function uncounted<T>(work: () => T): T {
  return tallies.exit(work);
}

// Transaction control: Drizzle sends BEGIN and COMMIT as statements on node-postgres but not on PGlite
// (whose own transaction call sends them), so they are left out of the count on both: a budget means the
// same work on either storage. Savepoints (nested transactions) are the same on both, and counted.
const TRANSACTION_CONTROL = /^(begin|commit|rollback)\b/i;

/** The Drizzle logger that counts each statement Drizzle sends (its text and values are not kept). */
export const statementCountingLogger = {
  logQuery: (query: string, _params: unknown[]) => {
    if (!TRANSACTION_CONTROL.test(query)) countStatement();
  },
};
