// `space_content_updated`: the event an integration receives when the primary content of a space it is
// installed on changes (a change request merged, a live edit). Called by the writers of a space's
// content, in their transaction, once the space points at its new revision. The recipients are the
// installations on the space, and the installations of its organization with `space_selection: all`.
import { and, eq, or, sql } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { integrationInstallations, integrationSpaceInstallations, spaces, users } from '../db/schema/index.js';
import { toUser } from '../users/users.store.js';
import { recordEvent } from './events.store.js';

export async function emitSpaceContentUpdated(ctx: Ctx, spaceId: string, revisionId: string): Promise<number> {
  const recipients = await ctx.db
    .select({ installationId: integrationInstallations.id, integrationName: integrationInstallations.integrationName, organizationId: integrationInstallations.organizationId })
    .from(integrationInstallations)
    .innerJoin(spaces, eq(spaces.id, spaceId))
    .where(
      and(
        eq(integrationInstallations.status, 'active'),
        or(
          and(eq(integrationInstallations.spaceSelection, 'all'), eq(integrationInstallations.organizationId, spaces.organizationId)),
          sql`EXISTS (SELECT 1 FROM ${integrationSpaceInstallations} WHERE ${integrationSpaceInstallations.installationId} = ${integrationInstallations.id} AND ${integrationSpaceInstallations.spaceId} = ${spaceId})`,
        ),
      ),
    );
  if (recipients.length === 0) return 0;
  const [author] = await ctx.db.select().from(users).where(eq(users.id, ctx.caller.userId));
  const updatedBy = author ? [toUser(author, ctx.urls)] : [];
  for (const r of recipients) {
    await recordEvent(ctx.db, ctx.now(), {
      integrationName: r.integrationName,
      type: 'space_content_updated',
      installationId: r.installationId,
      organizationId: r.organizationId,
      fields: { spaceId, revisionId, updatedBy },
    });
  }
  return recipients.length;
}
