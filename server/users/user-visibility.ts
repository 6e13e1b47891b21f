// Who may read whom (getUserById; docs/headless-reads.md): a caller reads themself, and the members
// (guests included) of every organization in which they are an enabled member with a role. A guest sees
// only themself: guests are kept from the people of an organization as they are from its member list.
// An installation reads the members of the organization it is installed in, and a site API token those of the
// site's organization (the authors and people its published content names, as GitBook's renderer reads them).
import { aliasedTable, and, eq, exists, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { members } from '../db/schema/index.js';

/**
 * The condition under which the caller may read a row of `users` (named so in the statement): put in the statement that reads the
 * user, so that reading one is one round trip.
 */
export function readableByCaller(ctx: Ctx): SQL {
  const { caller } = ctx;
  const organizationId = caller.installation?.organizationId ?? caller.site?.organizationId;
  const member = (alias: string) => aliasedTable(members, alias);
  // The outer column written qualified: Drizzle renders a single-table select's columns unqualified.
  const userId = sql`"users"."id"`;
  if (organizationId) {
    const them = member('them');
    return exists(ctx.db.select({ one: sql`1` }).from(them).where(and(eq(them.organizationId, organizationId), eq(them.userId, userId))));
  }
  const [them, mine] = [member('them'), member('mine')];
  const shared = ctx.db
    .select({ one: sql`1` })
    .from(them)
    .innerJoin(mine, and(eq(mine.organizationId, them.organizationId), eq(mine.userId, caller.userId), isNotNull(mine.role), eq(mine.disabled, false)))
    .where(eq(them.userId, userId));
  return sql`(${userId} = ${caller.userId} OR ${exists(shared)})`;
}
