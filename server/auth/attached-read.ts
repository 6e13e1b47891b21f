// A read an operation attaches to its grant query, so that access and the resource come back in one
// statement: a subquery over the grant query's resource row (`s`, a space; `o`, an organization), joined
// LATERAL, whose columns come back beside the grant's and reach the handler as the grant's `attached` row.
// The access check ignores them; the handler uses them in place of a query of its own.
import type { Ctx } from '../context.js';
import type { AttachedRead } from '../db/attached-select.js';
import { statementName } from '../db/sql-text.js';

/**
 * How an operation attaches its read, from the request's path parameters, its validated query (a list's
 * page and filters) and its context (the caller); undefined: nothing to attach.
 */
export type AttachedReadOf = (params: Record<string, string>, ctx: Ctx, query: Record<string, unknown>) => AttachedRead | undefined;

const composed = new Map<string, string>();

/**
 * The grant query `build` with the read attached: `build(columns, join)` places the extra columns after its
 * own and the LATERAL join after its FROM. Composed once per grant query and read name. With `allowed` (SQL
 * over the grant's row `g` saying the operation's rule lets the caller through), the read's write
 * (AttachedWrite) is made in the same statement, only where `allowed` holds; without it, the write is left to
 * the handler.
 */
export function withAttached(kind: string, build: (columns: string, join: string) => string, read: AttachedRead, first: number, allowed?: string): { name: string; text: string; params: unknown[] } {
  const write = allowed === undefined ? undefined : read.write;
  // A write's text also varies with the rule it is made under.
  const name = statementName(kind, write ? `${kind}_with_${read.name}_${write.name}_${allowed}` : `${kind}_with_${read.name}`);
  let text = composed.get(name);
  if (text === undefined) {
    text = build(', a.*', `\n    LEFT JOIN LATERAL (${read.sql(first)}) a ON true`);
    // Data-modifying CTEs must be at the statement's top: the grant query becomes the CTE `g` they read.
    if (write) text = `WITH g AS (${text}),\n  ${write.ctes(first + read.params.length, allowed!)}\nSELECT g.*, ${write.column} FROM g`;
    composed.set(name, text);
  }
  return { name, text, params: write ? [...read.params, ...write.params] : read.params };
}
