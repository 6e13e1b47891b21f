// The users that integrations and their installations act as: one per integration or installation, made with
// its first token and found again by its address (an `.invalid` one, which no person can sign in with).
import type { Db } from '../db/client.js';
import { rawSql, runSql, sqlText, type SqlFragment } from '../db/sql-text.js';
import { newId } from '../ids.js';

/**
 * The common table expressions that find the user with this address, or make them (named `title`): `<name>` is
 * their id. When another request made the user after the statement's snapshot, `<name>` is empty: what the
 * statement writes for them then writes nothing, and it is sent again, finding them. `name` is SQL written in
 * the module (several users can be found or made in one statement, each under its own name).
 */
export function serviceUserCtes(name: string, email: string, title: string, now: Date): SqlFragment {
  const [found, made, user] = [`${name}_found`, `${name}_made`, name].map(rawSql);
  return sqlText`${found} AS (SELECT id FROM users WHERE lower(email) = ${email}::text),
    ${made} AS (
      INSERT INTO users (id, display_name, email, created_at)
      SELECT ${newId('usr', now.getTime())}::text, ${title}::text, ${email}::text, ${now}::timestamptz WHERE NOT EXISTS (SELECT 1 FROM ${found})
      ON CONFLICT DO NOTHING RETURNING id),
    ${user} AS (SELECT id FROM ${found} UNION ALL SELECT id FROM ${made})`;
}

/**
 * Sends `statement`, which stores something for users found or made by serviceUserCtes and answers a row when
 * it stored it, and sends it again when it answered none (a user made meanwhile by another request, found then).
 */
export async function writeUntilStored(db: Db, statement: SqlFragment): Promise<void> {
  if ((await runSql(db, statement)).length === 0) await runSql(db, statement);
}
