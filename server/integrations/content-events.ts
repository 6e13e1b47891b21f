// `space_content_updated`: the event an integration receives when the primary content of a space it is
// installed on changes (a change request merged, a live edit). Recorded on the `space content updated`
// domain event (core-events.ts), in the writer's transaction, once the space points at its new revision. The recipients are the
// installations on the space, and the installations of its organization with `space_selection: all`.
import { eq } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { users } from '../db/schema/index.js';
import { runSql, sqlText, type SqlFragment } from '../db/sql-text.js';
import { toUser } from '../users/users.store.js';
import { recordEvents } from './events.store.js';

/**
 * The recipients of the space's `space_content_updated`, as a SELECT: the read of the domain event's
 * subscriber, which a merge runs as the last part of the statement that moves the space, in its own round
 * trip (`notifyContentUpdated` then records the events, when there are any).
 */
export function contentUpdatedRecipientsSql(spaceId: string): SqlFragment {
  return sqlText`SELECT i.id AS installation_id, i.integration_name, i.organization_id
    FROM integration_installations i JOIN spaces sp ON sp.id = ${spaceId}::text
    WHERE i.status = 'active' AND (
      (i.space_selection = 'all' AND i.organization_id = sp.organization_id)
      OR EXISTS (SELECT 1 FROM integration_space_installations x WHERE x.installation_id = i.id AND x.space_id = ${spaceId}::text))`;
}

/** Records `space_content_updated` for each recipient (rows of `contentUpdatedRecipientsSql`); returns how many. */
export async function notifyContentUpdated(ctx: Ctx, recipients: Record<string, unknown>[], spaceId: string, revisionId: string): Promise<number> {
  if (recipients.length === 0) return 0;
  const [author] = await ctx.db.select().from(users).where(eq(users.id, ctx.caller.userId));
  const updatedBy = author ? [toUser(author, ctx.urls)] : [];
  await recordEvents(
    ctx.db,
    ctx.now(),
    recipients.map((r) => ({
      integrationName: r.integration_name as string,
      type: 'space_content_updated' as const,
      installationId: r.installation_id as string,
      organizationId: r.organization_id as string,
      fields: { spaceId, revisionId, updatedBy },
    })),
  );
  return recipients.length;
}

/** Records `space_content_updated` for the space's recipients, in the writer's transaction; returns how many. */
export async function emitSpaceContentUpdated(ctx: Ctx, spaceId: string, revisionId: string): Promise<number> {
  return notifyContentUpdated(ctx, await runSql(ctx.db, contentUpdatedRecipientsSql(spaceId)), spaceId, revisionId);
}
