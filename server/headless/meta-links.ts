// listRevisionPageMetaLinks: a page's meta links as GitBook's API answers them, for a renderer's <head>. A page
// keeps its id in the spaces of its translations (server/translations/run.job.ts), so its alternates are the same
// page in the other spaces of the translation group (the space a translation was made from and the result spaces
// of its translations) whose current revision has it, as the caller may read them: with a site token, the spaces
// it names and the pages its visitor may see; otherwise the spaces the caller's role lets it read. Each page is
// its own canonical version: `canonical` is left out.
import { and, inArray, isNull } from 'drizzle-orm';
import type { components } from '../../generated/types.js';
import { access } from '../../contract/access.js';
import { checkAccess, type SpaceRow } from '../auth/access.js';
import type { Ctx } from '../context.js';
import { directQuery } from '../db/client.js';
import { spaces } from '../db/schema/index.js';
import { spaceContent } from '../content/space-content.js';
import { findPage } from '../content/revision-view.js';
import { ApiError } from '../errors.js';
import { spaceRevision } from '../revisions/space-revision.js';

type MetaLinks = components['schemas']['RevisionPageMetaLinks'];

// The other spaces of the translation group of $1: its source (when it is a translation's result), the source's
// other results, and its own results.
const translationGroup = `WITH source AS (
    SELECT $1::text AS id UNION SELECT source_space_id FROM translations WHERE result_space_id = $1
  )
  SELECT id FROM source WHERE id <> $1
  UNION SELECT result_space_id FROM translations WHERE source_space_id IN (SELECT id FROM source) AND result_space_id IS NOT NULL AND result_space_id <> $1`;

/** Whether the caller may read `space` (a site token: one it names; else the role-based rule), without failing. */
async function readable(ctx: Ctx, space: SpaceRow): Promise<boolean> {
  const site = ctx.caller.site;
  if (site) return site.spaceIds.includes(space.id) && space.organizationId === site.organizationId;
  try {
    await checkAccess(ctx, access.space('read'), { spaceId: space.id });
    return true;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 403)) return false;
    throw error;
  }
}

export async function pageMetaLinks(ctx: Ctx, space: SpaceRow, revisionId: string, pageId: string): Promise<MetaLinks> {
  const { revision } = await spaceRevision(ctx, space, revisionId, undefined, { documents: false, git: false });
  findPage(revision.content, pageId); // 404 when the page is not in the revision (or not the visitor's)
  const ids = ((await directQuery(ctx.db, 'translation_group', translationGroup, [space.id])) as { id: string }[]).map((r) => r.id);
  if (ids.length === 0) return { alternates: [] };
  const others = await ctx.db.select().from(spaces).where(and(inArray(spaces.id, ids), isNull(spaces.deletedAt))).orderBy(spaces.id);
  const alternates: MetaLinks['alternates'] = [];
  for (const other of others) {
    if (!(await readable(ctx, other))) continue;
    const { revision: current } = await spaceContent(ctx, other, { documents: false, git: false });
    if (current.content.pages.some((p) => p.id === pageId)) alternates.push({ kind: 'page', page: pageId, space: other.id });
  }
  return { alternates };
}
