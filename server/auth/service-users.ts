// The users that integrations and their installations act as: one per integration or installation, made with
// its first token and found again by its address (an `.invalid` one, which no person can sign in with).
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { users } from '../db/schema/index.js';
import { newId } from '../ids.js';

/** The id of the user with this address, who is made (named `title`) by the first call; two racing calls get the same user. */
export async function serviceUser(db: Db, email: string, title: string, now: Date): Promise<string> {
  const find = async () => (await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email}`))[0]?.id;
  const found = await find();
  if (found) return found;
  const inserted = await db
    .insert(users)
    .values({ id: newId('usr', now.getTime()), displayName: title, email, createdAt: now })
    .onConflictDoNothing()
    .returning({ id: users.id });
  // Made meanwhile by another request: that one.
  return inserted[0]?.id ?? (await find())!;
}
