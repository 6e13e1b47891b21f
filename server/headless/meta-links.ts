// listRevisionPageMetaLinks: a page's meta links as GitBook's API answers them, for a renderer's <head>. A page
// keeps its id in the spaces of its translations (server/translations/run.job.ts), so its alternates are the same
// page in the other spaces of the translation group (the space a translation was made from and the result spaces
// of its translations) whose current revision has it, as the caller may read them: with a site token, the spaces
// it names and the pages its visitor may see; otherwise the spaces the caller's role lets it read. Each page is
// its own canonical version: `canonical` is left out.
import { and, eq, isNull, not, sql } from 'drizzle-orm';
import type { components } from '../../generated/types.js';
import type { SpaceGrant, SpaceRow } from '../auth/access.js';
import type { AttachedReadOf } from '../auth/attached-read.js';
import { spaceRoleOf } from '../auth/grants.js';
import { asRole, atLeast } from '../auth/roles.js';
import type { Ctx } from '../context.js';
import { attachAll, attachSelect, rowsOf } from '../db/attached-select.js';
import { members, spaces } from '../db/schema/index.js';
import { attachedRevision, namedRevisionAttached } from '../content/revision-attached.js';
import { spaceContent } from '../content/space-content.js';
import { findPage } from '../content/revision-view.js';
import { spaceRevision } from '../revisions/space-revision.js';

type MetaLinks = components['schemas']['RevisionPageMetaLinks'];

// The other spaces of the translation group of `spaceId`: its source (when it is a translation's result), the
// source's other results, and its own results.
const translationGroup = (spaceId: string) => sql`WITH source AS (
    SELECT ${spaceId}::text AS id UNION SELECT source_space_id FROM translations WHERE result_space_id = ${spaceId}
  )
  SELECT id FROM source WHERE id <> ${spaceId}
  UNION SELECT result_space_id FROM translations WHERE source_space_id IN (SELECT id FROM source) AND result_space_id IS NOT NULL AND result_space_id <> ${spaceId}`;

/**
 * The select of the other spaces of the translation group of `spaceId` not in the trash, each with the caller's
 * role on it by the rule of the space grant (SQL function `space_role_of`; null for one of an organization
 * they are not an enabled member of).
 */
function translationGroupSelect(ctx: Ctx, spaceId: string) {
  const member = and(eq(members.organizationId, spaces.organizationId), eq(members.userId, ctx.caller.userId), not(members.disabled));
  return ctx.db
    .select({ space: spaces, role: sql<string | null>`CASE WHEN ${members.userId} IS NULL THEN NULL ELSE ${spaceRoleOf(ctx.caller.userId, sql`${members.role}`)} END` })
    .from(spaces)
    .leftJoin(members, member)
    .where(and(sql`${spaces.id} IN (${translationGroup(spaceId)})`, isNull(spaces.deletedAt)))
    .orderBy(spaces.id);
}

/** The revision of the path (without `git`) and the translation group, read in the statement of the space's grant. */
export const metaLinksAttached: AttachedReadOf = (params, ctx, query) =>
  attachAll('meta_links', namedRevisionAttached(false)(params, ctx, query)!, attachSelect('translation_group', translationGroupSelect(ctx, params.spaceId)));

/** Whether the caller may read `space`, on which its role is `role` (a site token: one it names; else the role-based rule). */
function readable(ctx: Ctx, space: SpaceRow, role: string | null): boolean {
  const site = ctx.caller.site;
  if (site) return site.spaceIds.includes(space.id) && space.organizationId === site.organizationId;
  return atLeast(asRole(role), 'read');
}

export async function pageMetaLinks(ctx: Ctx, grant: SpaceGrant, revisionId: string, pageId: string): Promise<MetaLinks> {
  const { revision } = await spaceRevision(ctx, grant.row, revisionId, undefined, { documents: false, git: false }, attachedRevision(grant));
  findPage(revision.content, pageId); // 404 when the page is not in the revision (or not the visitor's)
  const others = await rowsOf(grant.attached, 'translation_group', translationGroupSelect(ctx, grant.row.id));
  const alternates: MetaLinks['alternates'] = [];
  for (const { space: other, role } of others) {
    if (!readable(ctx, other, role)) continue;
    const { revision: current } = await spaceContent(ctx, other, { documents: false, git: false });
    if (current.content.pages.some((p) => p.id === pageId)) alternates.push({ kind: 'page', page: pageId, space: other.id });
  }
  return { alternates };
}
