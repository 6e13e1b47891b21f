import { and, eq } from 'drizzle-orm';
import type { components } from '../../generated/types.js';
import type { Ctx } from '../context.js';
import type { Db } from '../db/client.js';
import { users } from '../db/schema/index.js';
import { NotFound } from '../errors.js';
import type { Urls } from '../urls.js';
import { readableByCaller } from './user-visibility.js';

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

/** The user with this id when the caller may read them (user-visibility.ts), in one statement; throws NotFound. */
export async function getReadableUser(ctx: Ctx, userId: string): Promise<User> {
  const [row] = await ctx.db.select().from(users).where(and(eq(users.id, userId), readableByCaller(ctx)));
  // Someone the caller may not read is not found, exactly as an unknown id is.
  if (!row) throw new NotFound(`User ${userId} (path.userId) not found`);
  return toUser(row, ctx.urls);
}

/** The user with this id; throws NotFound. */
export async function getUser(db: Db, urls: Urls, userId: string): Promise<User> {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  if (!row) throw new NotFound(`User ${userId} not found`);
  return toUser(row, urls);
}
