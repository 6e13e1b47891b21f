// Keeping grants consistent when content changes organization: a space or collection transferred keeps
// the grants of the people who are members of its new organization (guests included), and loses those
// of everyone else and of every team (teams belong to the old organization). Removing a member, a team or
// the content itself removes its grants by the database's cascades (server/db/schema/permissions.ts).
import { and, eq, inArray, isNotNull, notExists, or, type SQLWrapper } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { contentGrants, members } from '../db/schema/index.js';

/** Moves the grants on `spaceIds` and `collectionIds` to `organizationId`, dropping those that cannot follow. */
export async function carryGrantsTo(ctx: Ctx, organizationId: string, content: { spaceIds?: string[] | SQLWrapper; collectionIds?: string[] | SQLWrapper }): Promise<void> {
  const on = or(
    content.spaceIds === undefined ? undefined : inArray(contentGrants.spaceId, content.spaceIds),
    content.collectionIds === undefined ? undefined : inArray(contentGrants.collectionId, content.collectionIds),
  );
  if (on === undefined) return;
  const notMemberThere = notExists(
    ctx.db
      .select({ one: members.userId })
      .from(members)
      .where(and(eq(members.organizationId, organizationId), eq(members.userId, contentGrants.userId))),
  );
  await ctx.db.delete(contentGrants).where(and(on, or(isNotNull(contentGrants.teamId), notMemberThere)));
  await ctx.db.update(contentGrants).set({ organizationId }).where(on);
}
