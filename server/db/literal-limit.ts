// A list page's LIMIT written into its statement's text rather than sent as a parameter, so that the
// statement's plan is made once and kept.
//
// Why: PostgreSQL's plan cache (and PGlite's, which EXECUTEs PREPAREd statements: client.ts) costs a LIMIT
// given as a parameter as a tenth of the rows it limits. In a workspace of 10,000 members the generic plan of
// a page of 101 is then costed as if it computed each row's counts for 1,000 rows, looks dearer than a plan
// made for the values, and PostgreSQL plans the statement again at every request: 3.7 ms of planning for the
// members' page, which its generic plan answers in 0.05 (docs/benchmarks.md). With the number in the text, the
// generic plan is costed on the page's own rows and kept after the first five requests, as in a small workspace.
import { sql } from 'drizzle-orm';

/**
 * `rows` as what Drizzle's `.limit()` writes as SQL text (an object given to it is written as SQL:
 * PgDialect.buildSelectQuery; test/unit/literal-limit.test.ts holds it), typed as the number it stands for.
 * For page sizes only (validated, at most 1,001): each size is a statement of its own.
 */
export function literalLimit(rows: number): number {
  if (!Number.isSafeInteger(rows) || rows < 0) throw new RangeError(`literalLimit: ${rows} is not a number of rows`);
  return sql.raw(String(rows)) as unknown as number;
}
