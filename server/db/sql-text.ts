// Plain SQL for the hot write paths, which run straight on the driver (client.ts `directQuery`) instead of
// through Drizzle's query builders: the change-request write cycle spent a fifth of its time building SQL
// that never changes (bench/results/write-path.md). A statement is written as fragments, so each area keeps
// its own SQL (the job queue its insert, the integrations their recipients) while the statement that joins
// them stays one round trip; each fragment carries its values, and rendering numbers them `$1…` in order.
import { createHash } from 'node:crypto';
import { getTableColumns, type Table } from 'drizzle-orm';
import { directQuery, type Db } from './client.js';

export class SqlFragment {
  constructor(
    readonly strings: readonly string[],
    readonly values: readonly unknown[],
  ) {}
}

/** A fragment of SQL: `${value}` becomes a parameter, `${fragment}` is spliced in with its own parameters. */
export function sqlText(strings: TemplateStringsArray, ...values: unknown[]): SqlFragment {
  return new SqlFragment(strings, values);
}

/** The text (parameters numbered `$1…` in order of appearance) and the values of a fragment. */
export function renderSql(fragment: SqlFragment): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  const render = (f: SqlFragment): string => {
    let text = f.strings[0];
    for (let i = 0; i < f.values.length; i++) {
      const value = f.values[i];
      if (value instanceof SqlFragment) {
        text += render(value);
      } else {
        params.push(value);
        text += `$${params.length}`;
      }
      text += f.strings[i + 1];
    }
    return text;
  };
  return { text: render(fragment), params };
}

// The prepared statement's name of each text, made from the text itself: a name never stands for two
// texts, whichever process prepared it (node-postgres refuses that; PGlite would run the first one).
const statementNames = new Map<string, string>();

/**
 * `full` as a prepared statement's name: as it is when it is a plain identifier PostgreSQL keeps whole (PGlite
 * PREPAREs it by name), else `prefix` and a hash of it: PostgreSQL cuts a name at 63 characters, and two texts
 * whose names share those would share one statement.
 */
export function statementName(prefix: string, full: string): string {
  return /^\w{1,63}$/.test(full) ? full : `${prefix}_${createHash('sha1').update(full).digest('hex').slice(0, 24)}`;
}

/** Runs the fragment straight on the driver, prepared under a name of its text (per connection on PostgreSQL). */
export function runSql(db: Db, fragment: SqlFragment): Promise<Record<string, unknown>[]> {
  const { text, params } = renderSql(fragment);
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `direct_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return directQuery(db, name, text, params);
}

/** SQL written in the module (a table or column name, a cast), never a value: spliced in as it is. */
export function rawSql(text: string): SqlFragment {
  return new SqlFragment([text], []);
}

/** A text value of a statement: a parameter, or SQL (SqlFragment) answering it. */
export type TextValue = string | SqlFragment;

/** `value` as SQL: a parameter cast to text, or the SQL given. */
export function textValue(value: TextValue): SqlFragment {
  return typeof value === 'string' ? sqlText`${value}::text` : value;
}

/** ` AND <when>`, or nothing. */
export const andWhen = (when: SqlFragment | undefined): SqlFragment => (when ? sqlText` AND (${when})` : rawSql(''));

// Per table, then per alias and prefix: built once, the select lists are the same on every call.
const columnLists = new WeakMap<Table, Map<string, SqlFragment>>();

/**
 * `alias."column" AS "<prefix>column", …` for every column of `table`, so that one statement can return
 * the rows of several tables (read back with client.ts `tableRow(table, raw, prefix)`).
 */
export function columnsAs(table: Table, alias: string, prefix: string): SqlFragment {
  let lists = columnLists.get(table);
  if (!lists) columnLists.set(table, (lists = new Map()));
  let list = lists.get(`${alias} ${prefix}`);
  if (!list) {
    const names = Object.values(getTableColumns(table)).map((column) => `${alias}."${column.name}" AS "${prefix}${column.name}"`);
    list = rawSql(names.join(', '));
    lists.set(`${alias} ${prefix}`, list);
  }
  return list;
}
