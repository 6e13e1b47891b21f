// The users that integrations and their installations act as: one per integration or installation, made with
// its first token and found again by its address (an `.invalid` one, which no person can sign in with).
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { users } from '../db/schema/index.js';
import { runSql, sqlText } from '../db/sql-text.js';
import { newId } from '../ids.js';

/** The id of the user with this address, who is made (named `title`) by the first call; two racing calls get the same user. */
export async function serviceUser(db: Db, email: string, title: string, now: Date): Promise<string> {
  // Found or made in one statement: the insert runs only when the select finds no one.
  const [row] = await runSql(
    db,
    sqlText`WITH found AS (SELECT id FROM users WHERE lower(email) = ${email}::text),
      made AS (
        INSERT INTO users (id, display_name, email, created_at)
        SELECT ${newId('usr', now.getTime())}::text, ${title}::text, ${email}::text, ${now}::timestamptz WHERE NOT EXISTS (SELECT 1 FROM found)
        ON CONFLICT DO NOTHING RETURNING id)
    SELECT id FROM found UNION ALL SELECT id FROM made`,
  );
  if (row) return row.id as string;
  // Made meanwhile by another request (after this statement's snapshot): that one.
  return (await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email}`))[0]!.id;
}
