// Reads what the merge rules of a change request depend on (the space's rules, the organization's when
// the space inherits them, the reviews) and asks merge-rules.ts for the verdict. Used by the merge, which
// refuses with the unmet rules, and by the change request's `permissions.merge` (alone and in lists).
import { asc, eq } from 'drizzle-orm';
import type { SpaceRow } from '../auth/access.js';
import { atLeast, type Role } from '../auth/roles.js';
import type { Ctx } from '../context.js';
import { changeRequestReviews, organizations } from '../db/schema/index.js';
import { Forbidden } from '../errors.js';
import { baseRevision, type ChangeRequestRow } from './change-request-view.js';
import { effectiveRules, evaluateMergeRules, unmetMessage, type ReviewFacts, type Rule, type RulesVerdict } from './merge-rules.js';

/** The space's own rules, or the organization's when it inherits them (read now unless given). */
async function rulesOf(ctx: Ctx, space: SpaceRow, organizationRules?: unknown): Promise<Rule[]> {
  const own = space.mergeRules as { type?: string } | null;
  if (own?.type !== 'inherit') return effectiveRules(own, undefined);
  if (organizationRules !== undefined) return effectiveRules(own, organizationRules);
  const [org] = await ctx.db.select({ mergeRules: organizations.mergeRules }).from(organizations).where(eq(organizations.id, space.organizationId));
  return effectiveRules(own, org?.mergeRules);
}

/** The reviews of a change request, oldest first, as the rules see them. */
export async function reviewFacts(ctx: Ctx, changeRequestId: string): Promise<ReviewFacts[]> {
  const rows = await ctx.db
    .select()
    .from(changeRequestReviews)
    .where(eq(changeRequestReviews.changeRequestId, changeRequestId))
    .orderBy(asc(changeRequestReviews.createdAt), asc(changeRequestReviews.id));
  return rows.map((r) => ({ id: r.id, reviewer: r.reviewerId, status: r.status as ReviewFacts['status'], revision: r.revisionId, createdAt: r.createdAt }));
}

/** The verdict of `rules` for the caller merging `cr` now, given its reviews; `space` as it is now. */
export function verdictWith(ctx: Ctx, space: Pick<SpaceRow, 'revisionId'>, cr: ChangeRequestRow, rules: Rule[], reviews: ReviewFacts[]): RulesVerdict {
  return evaluateMergeRules(rules, {
    changeRequest: {
      createdBy: cr.createdBy,
      revision: cr.revisionId,
      subject: cr.subject,
      description: cr.description,
      outdated: baseRevision(cr) !== space.revisionId,
    },
    reviews,
    actor: ctx.caller.userId,
  });
}

/**
 * The verdict of the rules for the caller merging `cr` now; `space` is the space row as it is now,
 * `organizationRules` the organization's rules when the caller has read them already.
 */
export async function mergeVerdict(ctx: Ctx, space: SpaceRow, cr: ChangeRequestRow, organizationRules?: unknown): Promise<{ rules: Rule[]; verdict: RulesVerdict }> {
  const rules = await rulesOf(ctx, space, organizationRules);
  const reviews = rules.length === 0 ? [] : await reviewFacts(ctx, cr.id);
  return { rules, verdict: verdictWith(ctx, space, cr, rules, reviews) };
}

/** Throws Forbidden naming every unmet merge rule, unless the caller may bypass them; `organizationRules` as in mergeVerdict. */
export async function requireMergeRules(ctx: Ctx, space: SpaceRow, cr: ChangeRequestRow, organizationRules?: unknown): Promise<void> {
  const { rules, verdict } = await mergeVerdict(ctx, space, cr, organizationRules);
  if (!verdict.mergeable) throw new Forbidden(unmetMessage(rules, verdict.unmet));
}

/** What forbids a merge before any rule is read: too low a role, a locked space, a closed change request. */
function closedToMerge(space: Pick<SpaceRow, 'editMode'>, cr: ChangeRequestRow, role: Role | null): boolean {
  return !atLeast(role, 'review') || space.editMode === 'locked' || cr.status === 'merged' || cr.status === 'archived';
}

/** Whether the caller, with `role` on the space, may merge `cr` now (what `permissions.merge` says). */
export async function mayMerge(ctx: Ctx, space: SpaceRow, cr: ChangeRequestRow, role: Role | null, organizationRules?: unknown): Promise<boolean> {
  if (closedToMerge(space, cr, role)) return false;
  return (await mergeVerdict(ctx, space, cr, organizationRules)).verdict.mergeable;
}

/**
 * `permissions.merge` for a listed change request, from what the list read with it (the space row, the
 * organization's rules, the reviews): no statement of its own, so a list costs the same for any length.
 */
export function mayMergeListed(
  ctx: Ctx,
  space: Pick<SpaceRow, 'editMode' | 'revisionId' | 'mergeRules'>,
  cr: ChangeRequestRow,
  role: Role | null,
  organizationRules: unknown,
  reviews: ReviewFacts[],
): boolean {
  if (closedToMerge(space, cr, role)) return false;
  return verdictWith(ctx, space, cr, effectiveRules(space.mergeRules, organizationRules), reviews).mergeable;
}
