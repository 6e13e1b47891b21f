// The merge rules of a space, evaluated for one change request and one would-be merger. Pure: the store
// reads the rows, this decides. Decisions where the description is silent (also in docs/decisions.md):
// - Only current reviews count: the latest review of each reviewer, made against the change request's
//   current revision. A new revision (an edit, bringing it up to date) makes earlier reviews outdated;
//   outdated reviews neither approve nor block (so a "changes requested" is answered by new changes, and
//   an approval must be given again on what will be merged).
// - Reviews by the change request's author are recorded but count for no rule (nobody approves their own
//   changes); an author named in `require_specific_reviewers` is not waited for.
// - `require_agent_review` is never met: this service has no review agent, so a space asking for one merges
//   only through `allow_bypass`. `custom` rules (expressions) are not evaluated and are never met either,
//   for the same reason: no rule is passed without being checked.
// - `allow_bypass` lets the users it names merge although other rules are unmet; it does not lift the
//   review role the merge needs, nor conflicts (a closed change request, a locked space).
import type { z } from 'zod';
import type { MergeRule, OrganizationMergeRules, SpaceMergeRules } from '../../contract/merge-rules.js';

export type Rule = z.output<typeof MergeRule>;
type SpaceRules = z.output<typeof SpaceMergeRules>;
type OrganizationRules = z.output<typeof OrganizationMergeRules>;

export interface ReviewFacts {
  /** Time-ordered: among reviews of the same instant, the greater id is the later. */
  id: string;
  reviewer: string;
  status: 'approved' | 'changes-requested';
  revision: string;
  createdAt: Date;
}

export interface MergeFacts {
  /** The change request: its author, current revision, texts and whether the space moved on since its base. */
  changeRequest: { createdBy: string; revision: string; subject: string | null; description: unknown; outdated: boolean };
  reviews: ReviewFacts[];
  /** Who would merge. */
  actor: string;
}

export interface RulesVerdict {
  /** The rules that are not met, as they are named in the configuration. */
  unmet: Rule['rule'][];
  /** Whether the actor may merge: every rule met, or the actor is named by `allow_bypass`. */
  mergeable: boolean;
  bypassed: boolean;
}

/** The rules that apply to a space: its own, none, or (`inherit`) the organization's. */
export function effectiveRules(space: SpaceRules | unknown, organization: OrganizationRules | unknown): Rule[] {
  const own = space as SpaceRules | undefined;
  const config = own?.type === 'inherit' ? (organization as OrganizationRules | undefined) : own;
  return config?.type === 'rules' ? config.rules : [];
}

function later(a: ReviewFacts, b: ReviewFacts): boolean {
  const [ta, tb] = [a.createdAt.getTime(), b.createdAt.getTime()];
  return ta > tb || (ta === tb && a.id > b.id);
}

/** The latest review of each reviewer other than the author, made against the current revision. */
export function currentReviews(facts: MergeFacts): ReviewFacts[] {
  const latest = new Map<string, ReviewFacts>();
  for (const review of facts.reviews) {
    const seen = latest.get(review.reviewer);
    if (!seen || later(review, seen)) latest.set(review.reviewer, review);
  }
  return [...latest.values()].filter((r) => r.revision === facts.changeRequest.revision && r.reviewer !== facts.changeRequest.createdBy);
}

/** Whether a review is outdated: another review of the same reviewer is newer, or the change request has a newer revision. */
export function isOutdated(review: ReviewFacts, all: ReviewFacts[], currentRevision: string): boolean {
  if (review.revision !== currentRevision) return true;
  return all.some((r) => r.reviewer === review.reviewer && later(r, review));
}

/** Whether a rich-text value has any visible text (a description of empty paragraphs is no description). */
export function hasText(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.some(hasText);
  if (value !== null && typeof value === 'object') {
    const node = value as Record<string, unknown>;
    if (typeof node.text === 'string') return node.text.trim() !== '';
    if (typeof node.markdown === 'string') return node.markdown.trim() !== '';
    return hasText(node.nodes) || hasText(node.leaves) || hasText(node.document);
  }
  return false;
}

function ruleMet(rule: Rule, facts: MergeFacts, reviews: ReviewFacts[]): boolean {
  const approvedBy = new Set(reviews.filter((r) => r.status === 'approved').map((r) => r.reviewer));
  const cr = facts.changeRequest;
  switch (rule.rule) {
    case 'require_specific_reviewers':
      return rule.users.filter((u) => u !== cr.createdBy).every((u) => approvedBy.has(u));
    case 'require_one_of_specific_reviewers':
      return rule.users.some((u) => u !== cr.createdBy && approvedBy.has(u));
    case 'require_at_least_one_review':
      return reviews.length > 0;
    case 'require_at_least_one_approved_review':
      return approvedBy.size > 0;
    case 'require_all_reviews_approved':
      return reviews.every((r) => r.status === 'approved');
    case 'require_up_to_date_change_request':
      return !cr.outdated;
    case 'require_change_request_subject':
      return cr.subject !== null && cr.subject.trim() !== '';
    case 'require_change_request_description':
      return hasText(cr.description);
    case 'require_author_to_merge':
      return facts.actor === cr.createdBy;
    case 'allow_bypass':
      return true;
    case 'require_agent_review':
    case 'custom':
      return false;
  }
}

/** Which rules the change request fails for this actor, and whether the actor may merge anyway. */
export function evaluateMergeRules(rules: Rule[], facts: MergeFacts): RulesVerdict {
  const reviews = currentReviews(facts);
  const unmet = [...new Set(rules.filter((rule) => !ruleMet(rule, facts, reviews)).map((rule) => rule.rule))];
  const bypassed = unmet.length > 0 && rules.some((rule) => rule.rule === 'allow_bypass' && rule.users.includes(facts.actor));
  return { unmet, mergeable: unmet.length === 0 || bypassed, bypassed };
}

/** The message of a refused merge: every unmet rule, named, with what it asks. */
export function unmetMessage(rules: Rule[], unmet: Rule['rule'][]): string {
  const why: Record<Rule['rule'], (rule: Rule) => string> = {
    require_specific_reviewers: (r) => `approval by each of ${'users' in r ? r.users.join(', ') : ''}`,
    require_one_of_specific_reviewers: (r) => `approval by one of ${'users' in r ? r.users.join(', ') : ''}`,
    require_at_least_one_review: () => 'at least one review of the current revision',
    require_at_least_one_approved_review: () => 'at least one approval of the current revision',
    require_all_reviews_approved: () => 'no current review asking for changes',
    require_agent_review: () => 'a review by an agent, which this service does not have',
    require_up_to_date_change_request: () => 'the change request brought up to date with the space',
    require_change_request_subject: () => 'a subject',
    require_change_request_description: () => 'a description',
    require_author_to_merge: () => 'the merge done by the author',
    allow_bypass: () => '',
    custom: (r) => ('message' in r && r.message ? r.message : `custom rule ${'expression' in r ? r.expression : ''} (custom expressions are not evaluated)`),
  };
  const parts = unmet.map((name) => {
    const matching = rules.filter((r) => r.rule === name);
    return `${name} (${matching.map((r) => why[name](r)).join('; ')})`;
  });
  return `The merge rules of the space are not met: ${parts.join(', ')}`;
}
