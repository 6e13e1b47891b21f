// Who may read whom (getUserById; docs/headless-reads.md): a caller reads themself, and the members
// (guests included) of every organization in which they are an enabled member with a role. A guest sees
// only themself: guests are kept from the people of an organization as they are from its member list.
// An installation reads the members of the organization it is installed in, and a site API token those of the
// site's organization (the authors and people its published content names, as GitBook's renderer reads them).
import { aliasedTable, and, eq, isNotNull } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { members } from '../db/schema/index.js';

/** Whether the caller may read the user `userId`. */
export async function mayReadUser(ctx: Ctx, userId: string): Promise<boolean> {
  const { caller } = ctx;
  const organizationId = caller.installation?.organizationId ?? caller.site?.organizationId;
  if (organizationId) {
    const [row] = await ctx.db
      .select({ userId: members.userId })
      .from(members)
      .where(and(eq(members.organizationId, organizationId), eq(members.userId, userId)));
    return row !== undefined;
  }
  if (caller.userId === userId) return true;
  const mine = aliasedTable(members, 'mine');
  const [row] = await ctx.db
    .select({ userId: members.userId })
    .from(members)
    .innerJoin(mine, and(eq(mine.organizationId, members.organizationId), eq(mine.userId, caller.userId), isNotNull(mine.role), eq(mine.disabled, false)))
    .where(eq(members.userId, userId))
    .limit(1);
  return row !== undefined;
}
