import { eq } from 'drizzle-orm';
import type { components } from '../../generated/types.js';
import type { Db } from '../db/client.js';
import { users } from '../db/schema/index.js';
import { NotFound } from '../errors.js';
import type { Urls } from '../urls.js';

export type User = components['schemas']['User'];
type UserRow = typeof users.$inferSelect;

export function toUser(row: UserRow, urls: Urls): User {
  return {
    object: 'user',
    id: row.id,
    displayName: row.displayName,
    email: row.email,
    ...(row.photoUrl && { photoURL: row.photoUrl }),
    urls: { location: urls.api(`/users/${row.id}`) },
  };
}

/** The user with this id; throws NotFound. */
export async function getUser(db: Db, urls: Urls, userId: string): Promise<User> {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  if (!row) throw new NotFound(`User ${userId} not found`);
  return toUser(row, urls);
}
