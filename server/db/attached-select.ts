// A Drizzle select attached to a grant's statement (server/auth/attached-read.ts) as it is: its SQL is sent inside the
// grant query, its parameters numbered after the grant's, and its rows come back as one JSON column, each
// row an anonymous record (keys f1…fn, in the order of its select list) that Drizzle's own mapping turns
// into what the select would have answered. So the handler builds the one select it would have run, and
// reads its rows from the grant when they came with it, or runs it when they did not (a caller whose
// access path attached nothing).
//
// Fit for selects whose columns survive JSON: text, booleans, integers, timestamps (JSON gives them in ISO
// form, which the timestamp columns parse), json and jsonb. Not for numeric or bytea columns, which JSON
// would hand back as another type than the driver does.
import { createHash } from 'node:crypto';
import * as drizzle from 'drizzle-orm';
import { directQuery, type Db } from './client.js';
import { renderSql, SqlFragment, statementName } from './sql-text.js';

/**
 * A read attached to a grant's statement (server/auth/attached-read.ts): a subquery joined LATERAL after the
 * grant query's FROM, whose columns come back beside the grant's.
 */
export interface AttachedRead {
  /** Names its SQL: reads of the same name have the same text (the prepared statement's name is built from it). */
  name: string;
  /**
   * A SELECT that may name the resource row and its own parameters, numbered from `$first` (the grant
   * query's own come first). Its columns should carry a prefix of their own: they sit beside the row's.
   */
  sql: (first: number) => string;
  params: unknown[];
  /** What the operation writes in the same statement, for a caller the grant lets through (AttachedWrite). */
  write?: AttachedWrite;
}

/**
 * A write made in a grant's statement (server/auth/attached-read.ts): data-modifying common table
 * expressions over `g`, the grant query's row (the read's columns included), each writing only where
 * `allowed` holds (SQL over `g`: the caller passes the operation's access rule), so that nothing is written
 * for a caller who is refused. Only the grant queries that can say `allowed` send it (the others drop it:
 * the handler then writes in a statement of its own, having checked the rule in code).
 */
export interface AttachedWrite {
  /** Names its SQL, as AttachedRead's `name`. */
  name: string;
  /** `name AS (…)`, comma-separated: its parameters numbered from `first` (after the read's). */
  ctes: (first: number, allowed: string) => string;
  /** A column of the statement's row telling what it wrote (SQL over its CTEs), named with a prefix of its own. */
  column: string;
  params: unknown[];
}

// Drizzle's own mapping of a select's rows: exported by drizzle-orm (0.45) but marked internal, so untyped.
type FieldList = { path: string[]; field: unknown }[];
const { mapResultRow, orderSelectedFields } = drizzle as unknown as {
  mapResultRow(fields: FieldList, row: unknown[], joinsNotNullableMap: Record<string, boolean>): unknown;
  orderSelectedFields(fields: Record<string, unknown>): FieldList;
};

/** What a Drizzle select builder is to this module: its SQL, and the fields and joins its mapping needs. */
export interface Select {
  toSQL(): { sql: string; params: unknown[] };
}

interface SelectInternals {
  config: { fields: Record<string, unknown> };
  joinsNotNullableMap: Record<string, boolean>;
}

/** The column of the grant's row its rows come back in. */
const columnOf = (name: string) => `${name}_rows`;

/**
 * `select` as the read `name` attached: a statement of its own per text (the name carries a hash of it, as
 * the text varies with the select's shape), the select's `$n` renumbered from `first`.
 */
export function attachSelect(name: string, select: Select): AttachedRead {
  const { hash, sql, params } = embedded(select);
  return { name: `${name}_${hash}`, sql: (first) => `SELECT json_agg(ROW(x.*)) AS ${columnOf(name)} FROM (${sql(first)}) x`, params };
}

/**
 * `select` for a read that places it in SQL of its own: its text with its `$n` renumbered from `first`, its
 * parameters, and a hash of its text (for the read's name: the text varies with the select's shape).
 */
export function embedded(select: Select): { hash: string; sql: (first: number) => string; params: unknown[] } {
  const { sql: text, params } = select.toSQL();
  return {
    hash: createHash('sha1').update(text).digest('hex').slice(0, 10),
    // Drizzle writes its parameters as $1…$n and nothing else with a `$`.
    sql: (first) => text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + first - 1}`),
    params,
  };
}

/**
 * A statement written as fragments (sql-text.ts) as the read `name` attached: its rows' columns come back as
 * they are, beside the grant's (so they should carry a prefix of their own, and it should answer one row). Its
 * `$n` renumbered from `first`; a statement of its own per text, as attachSelect's.
 */
export function fragmentRead(name: string, fragment: SqlFragment): AttachedRead {
  const { text, params } = renderSql(fragment);
  // renderSql writes its parameters as $1…$n; the fragments write no other `$`.
  return {
    name: `${name}_${createHash('sha1').update(text).digest('hex').slice(0, 10)}`,
    sql: (first) => text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + first - 1}`),
    params,
  };
}

// Where a write written as fragments (fragmentWrite) takes its rule's condition.
const ALLOWED = '/*allowed*/ true';

/**
 * A write written as fragments (sql-text.ts) as an AttachedWrite: `ctes(allowed)` its common table
 * expressions, writing only where `allowed` (SQL) holds; `column` the columns telling what it wrote (SQL
 * over its CTEs and `g`, with no parameters). Built once: its values (a token, an id) are those of this write.
 */
export function fragmentWrite(name: string, ctes: (allowed: SqlFragment) => SqlFragment, column: string): AttachedWrite {
  const { text, params } = renderSql(ctes(new SqlFragment([ALLOWED], [])));
  return {
    name: `${name}_${createHash('sha1').update(text).digest('hex').slice(0, 10)}`,
    // renderSql writes its parameters as $1…$n; the fragments and the rule's condition write no other `$`.
    ctes: (first, allowed) => text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + first - 1}`).replaceAll(ALLOWED, `(${allowed})`),
    column,
    params,
  };
}

/** `select` as a fragment of a statement written as fragments (sql-text.ts), its parameters its own. */
export function selectFragment(select: Select): SqlFragment {
  const { sql, params } = select.toSQL();
  const strings: string[] = [];
  const values: unknown[] = [];
  let last = 0;
  // Drizzle writes its parameters as $1…$n and nothing else with a `$`.
  for (const match of sql.matchAll(/\$(\d+)/g)) {
    strings.push(sql.slice(last, match.index));
    values.push(params[Number(match[1]) - 1]);
    last = match.index + match[0].length;
  }
  strings.push(sql.slice(last));
  return new SqlFragment(strings, values);
}

/**
 * `reads` attached as one read named `name`: each answers one row, and their columns sit side by side (a
 * list attaches the resource it is of and its first page). Their parameters follow one another in the order given.
 */
export function attachAll(name: string, ...reads: AttachedRead[]): AttachedRead {
  return {
    // Each read's name names its text (attachSelect hashes it), so the names together name the whole.
    name: `${name}_${createHash('sha1').update(reads.map((read) => read.name).join(',')).digest('hex').slice(0, 10)}`,
    sql: (first) => {
      let next = first;
      const parts = reads.map((read, i) => {
        const part = `(${read.sql(next)}) r${i}`;
        next += read.params.length;
        return part;
      });
      return `SELECT * FROM ${parts.join(' CROSS JOIN ')}`;
    },
    params: reads.flatMap((read) => read.params),
  };
}

/**
 * `read` sent as a statement of its own, for an operation with no grant statement to attach it to (one whose
 * access its handler decides: the grant's select is then one of the reads): the statement's one row, whose
 * columns attachedRows, rowsOf and pageOf read as they read a grant's.
 */
export async function readAttached(db: Db, read: AttachedRead): Promise<Record<string, unknown>> {
  // Its own name: a grant's statement with the same read attached numbers its parameters otherwise.
  const [row] = await directQuery(db, statementName('alone', `alone_${read.name}`), read.sql(1), read.params);
  return row;
}

/** The selects of one page of a list, as its store builds them: `after` (keyset) or `page.condition` is the cursor's condition. */
export interface ListPageSelects {
  rows: Select;
  total: Select;
  after?: unknown;
  page?: { condition: unknown };
}

/**
 * A list's page attached under `name`: its rows (each carrying the total), and, for a page that goes on
 * from a cursor, its total apart under `${name}_total`, since such a page may come back empty (pageOf,
 * db/paginate.ts readKeysetPage): one statement whatever the page.
 */
export function attachListPage(name: string, selects: ListPageSelects): AttachedRead {
  const page = attachSelect(name, selects.rows);
  const afterCursor = (selects.after ?? selects.page?.condition) !== undefined;
  return afterCursor ? attachAll(name, page, attachSelect(`${name}_total`, selects.total)) : page;
}

/**
 * The rows of `select` as the grant's statement read them under `name` (attachSelect), mapped as Drizzle
 * maps its own; undefined when they did not come with the grant.
 */
export function attachedRows<Row>(attached: Record<string, unknown> | undefined, name: string, select: Select & PromiseLike<Row[]>): Row[] | undefined {
  if (!attached || !(columnOf(name) in attached)) return undefined;
  const records = (attached[columnOf(name)] as Record<string, unknown>[] | null) ?? [];
  const { config, joinsNotNullableMap } = select as unknown as SelectInternals;
  const fields = orderSelectedFields(config.fields);
  return records.map((record) => mapResultRow(fields, fields.map((_, i) => record[`f${i + 1}`]), joinsNotNullableMap) as Row);
}

/** The rows of `select`: from the grant's statement when they came with it, else read now. */
export async function rowsOf<Row>(attached: Record<string, unknown> | undefined, name: string, select: Select & PromiseLike<Row[]>): Promise<Row[]> {
  return attachedRows(attached, name, select) ?? (await select);
}

/**
 * A list's page and its total: the rows of `rows` (from the grant's statement when they came with it),
 * each carrying the total; an empty page's total is 0 when it is the first (the list is empty), and is
 * counted by `total` after a cursor (attached too by attachListPage).
 */
export async function pageOf<Row extends { total: number }>(
  attached: Record<string, unknown> | undefined,
  name: string,
  page: { condition: unknown },
  rows: Select & PromiseLike<Row[]>,
  total: Select & PromiseLike<{ n: number }[]>,
): Promise<{ items: Row[]; totalCount: number }> {
  const items = await rowsOf(attached, name, rows);
  const totalCount = items[0]?.total ?? (page.condition === undefined ? 0 : (await rowsOf(attached, `${name}_total`, total))[0].n);
  return { items, totalCount };
}
