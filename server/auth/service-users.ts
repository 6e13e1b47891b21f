// The users that integrations and their installations act as: one per integration or installation, made with
// its first token and found again by its address (an `.invalid` one, which no person can sign in with).
import type { Db } from '../db/client.js';
import { runSql, sqlText, type SqlFragment } from '../db/sql-text.js';
import { newId } from '../ids.js';

/**
 * Runs `write`, the rest of a statement that stores what the user with this address holds (a token): it reads
 * that user's id from the CTE `service_user`, and returns a row when it wrote. The user is found, or made
 * (named `title`), in the same statement. When another request made the user after the statement's snapshot,
 * `service_user` is empty and nothing is written: the statement is sent again, and finds them.
 */
export async function writeForServiceUser(db: Db, email: string, title: string, now: Date, write: SqlFragment): Promise<void> {
  const statement = sqlText`WITH found AS (SELECT id FROM users WHERE lower(email) = ${email}::text),
    made AS (
      INSERT INTO users (id, display_name, email, created_at)
      SELECT ${newId('usr', now.getTime())}::text, ${title}::text, ${email}::text, ${now}::timestamptz WHERE NOT EXISTS (SELECT 1 FROM found)
      ON CONFLICT DO NOTHING RETURNING id),
    service_user AS (SELECT id FROM found UNION ALL SELECT id FROM made),
    ${write}`;
  if ((await runSql(db, statement)).length === 0) await runSql(db, statement);
}
