// The claims a page condition may read: a page is shown on every site publishing its space, so its
// condition may name a claim that any of their adaptive schemas defines (sites without a schema do not
// constrain it). Read only when a batch sets a condition, so other edits cost no query.
import { and, eq, isNotNull } from 'drizzle-orm';
import { claimNamesOf, mergeClaimNames, type ClaimNames } from '../conditions/check.js';
import type { Ctx } from '../context.js';
import { sites, siteSpaces } from '../db/schema/index.js';

/** The claims defined by the adaptive schemas of the sites publishing `spaceId`; undefined when none has one. */
export async function pageConditionClaims(ctx: Ctx, spaceId: string): Promise<ClaimNames | undefined> {
  const rows = await ctx.db
    .selectDistinct({ schema: sites.adaptiveSchema })
    .from(siteSpaces)
    .innerJoin(sites, eq(sites.id, siteSpaces.siteId))
    .where(and(eq(siteSpaces.spaceId, spaceId), isNotNull(sites.adaptiveSchema)));
  return mergeClaimNames(rows.map((row) => claimNamesOf(row.schema)));
}
