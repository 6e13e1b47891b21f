// The pure evaluation of merge rules: every rule kind, met and unmet, outdated reviews, authors, bypass.
import { describe, expect, it } from 'vitest';
import {
  effectiveRules,
  evaluateMergeRules,
  hasText,
  isOutdated,
  unmetMessage,
  type MergeFacts,
  type ReviewFacts,
  type Rule,
} from '../server/change-requests/merge-rules.js';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
let ids = 0;
const review = (reviewer: string, status: ReviewFacts['status'], revision = 'rev2', seconds = 1): ReviewFacts => ({
  id: `crr_${String(++ids).padStart(4, '0')}`,
  reviewer,
  status,
  revision,
  createdAt: at(seconds),
});

function facts(over: Partial<MergeFacts['changeRequest']> = {}, reviews: ReviewFacts[] = [], actor = 'author'): MergeFacts {
  return {
    changeRequest: { createdBy: 'author', revision: 'rev2', subject: 'Subject', description: undefined, outdated: false, ...over },
    reviews,
    actor,
  };
}

const unmet = (rules: Rule[], f: MergeFacts) => evaluateMergeRules(rules, f).unmet;

describe('merge rules', () => {
  it('require_specific_reviewers needs a current approval from each listed user but the author', () => {
    const rule: Rule = { rule: 'require_specific_reviewers', users: ['ann', 'bob', 'author'] };
    expect(unmet([rule], facts({}, [review('ann', 'approved')]))).toEqual(['require_specific_reviewers']);
    expect(unmet([rule], facts({}, [review('ann', 'approved'), review('bob', 'approved')]))).toEqual([]);
    expect(unmet([rule], facts({}, [review('ann', 'approved'), review('bob', 'changes-requested')]))).toEqual(['require_specific_reviewers']);
  });

  it('require_one_of_specific_reviewers needs one listed approver; the author does not count', () => {
    const rule: Rule = { rule: 'require_one_of_specific_reviewers', users: ['ann', 'author'] };
    expect(unmet([rule], facts({}, [review('author', 'approved')]))).toEqual(['require_one_of_specific_reviewers']);
    expect(unmet([rule], facts({}, [review('carl', 'approved')]))).toEqual(['require_one_of_specific_reviewers']);
    expect(unmet([rule], facts({}, [review('ann', 'approved')]))).toEqual([]);
  });

  it('require_at_least_one_review and require_at_least_one_approved_review', () => {
    const rules: Rule[] = [{ rule: 'require_at_least_one_review' }, { rule: 'require_at_least_one_approved_review' }];
    expect(unmet(rules, facts())).toEqual(['require_at_least_one_review', 'require_at_least_one_approved_review']);
    expect(unmet(rules, facts({}, [review('ann', 'changes-requested')]))).toEqual(['require_at_least_one_approved_review']);
    expect(unmet(rules, facts({}, [review('ann', 'approved')]))).toEqual([]);
  });

  it('require_all_reviews_approved is broken by any current review asking for changes', () => {
    const rule: Rule = { rule: 'require_all_reviews_approved' };
    expect(unmet([rule], facts({}, [review('ann', 'approved'), review('bob', 'changes-requested')]))).toEqual(['require_all_reviews_approved']);
    expect(unmet([rule], facts({}, [review('ann', 'approved')]))).toEqual([]);
  });

  it('only the latest review of a reviewer on the current revision counts', () => {
    const rule: Rule = { rule: 'require_at_least_one_approved_review' };
    // Approved, then asked for changes: the approval is superseded.
    expect(unmet([rule], facts({}, [review('ann', 'approved', 'rev2', 1), review('ann', 'changes-requested', 'rev2', 2)]))).toEqual([rule.rule]);
    // An approval of an earlier revision is outdated.
    expect(unmet([rule], facts({}, [review('ann', 'approved', 'rev1')]))).toEqual([rule.rule]);
    // A request for changes on an earlier revision no longer blocks.
    expect(unmet([{ rule: 'require_all_reviews_approved' }], facts({}, [review('ann', 'changes-requested', 'rev1')]))).toEqual([]);
    const all = [review('ann', 'approved', 'rev2', 1), review('ann', 'approved', 'rev2', 2), review('bob', 'approved', 'rev1', 3)];
    expect(all.map((r) => isOutdated(r, all, 'rev2'))).toEqual([true, false, true]);
    // Two reviews of the same instant: the later id wins.
    const tied = [review('ann', 'changes-requested', 'rev2', 5), review('ann', 'approved', 'rev2', 5)];
    expect(tied.map((r) => isOutdated(r, tied, 'rev2'))).toEqual([true, false]);
    expect(unmet([rule], facts({}, tied))).toEqual([]);
  });

  it("the author's own reviews count for nothing", () => {
    expect(unmet([{ rule: 'require_at_least_one_review' }], facts({}, [review('author', 'approved')]))).toEqual(['require_at_least_one_review']);
  });

  it('up to date, subject, description and author rules read the change request and the actor', () => {
    const rules: Rule[] = [
      { rule: 'require_up_to_date_change_request' },
      { rule: 'require_change_request_subject' },
      { rule: 'require_change_request_description' },
      { rule: 'require_author_to_merge' },
    ];
    expect(unmet(rules, facts({ outdated: true, subject: '  ', description: { object: 'document', data: {}, nodes: [] } }, [], 'ann'))).toEqual(rules.map((r) => r.rule));
    const description = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Why', marks: [] }] }] }] };
    expect(unmet(rules, facts({ description }))).toEqual([]);
  });

  it('require_agent_review and custom rules are never met', () => {
    const rules: Rule[] = [{ rule: 'require_agent_review' }, { rule: 'custom', expression: 'true', message: 'Ask the docs team' }];
    const verdict = evaluateMergeRules(rules, facts({}, [review('ann', 'approved')]));
    expect(verdict).toEqual({ unmet: ['require_agent_review', 'custom'], mergeable: false, bypassed: false });
    expect(unmetMessage(rules, verdict.unmet)).toContain('Ask the docs team');
  });

  it('allow_bypass lets its users merge past unmet rules, and only them', () => {
    const rules: Rule[] = [{ rule: 'require_at_least_one_review' }, { rule: 'allow_bypass', users: ['lead'] }];
    expect(evaluateMergeRules(rules, facts({}, [], 'lead'))).toEqual({ unmet: ['require_at_least_one_review'], mergeable: true, bypassed: true });
    expect(evaluateMergeRules(rules, facts({}, [], 'ann'))).toEqual({ unmet: ['require_at_least_one_review'], mergeable: false, bypassed: false });
    expect(evaluateMergeRules(rules, facts({}, [review('ann', 'approved')], 'ann'))).toEqual({ unmet: [], mergeable: true, bypassed: false });
  });

  it('the refusal names every unmet rule once', () => {
    const rules: Rule[] = [
      { rule: 'require_specific_reviewers', users: ['ann'] },
      { rule: 'require_specific_reviewers', users: ['bob'] },
      { rule: 'require_change_request_subject' },
    ];
    const verdict = evaluateMergeRules(rules, facts({ subject: null }));
    expect(verdict.unmet).toEqual(['require_specific_reviewers', 'require_change_request_subject']);
    const message = unmetMessage(rules, verdict.unmet);
    expect(message).toMatch(/require_specific_reviewers \(approval by each of ann; approval by each of bob\)/);
    expect(message).toMatch(/require_change_request_subject/);
  });

  it('inherit takes the organization rules; none and an organization without rules give none', () => {
    const orgRules = { type: 'rules' as const, rules: [{ rule: 'require_at_least_one_review' as const }] };
    expect(effectiveRules({ type: 'inherit' }, orgRules)).toEqual(orgRules.rules);
    expect(effectiveRules({ type: 'inherit' }, { type: 'none' })).toEqual([]);
    expect(effectiveRules({ type: 'none' }, orgRules)).toEqual([]);
    expect(effectiveRules({ type: 'rules', rules: [{ rule: 'require_author_to_merge' }] }, orgRules)).toEqual([{ rule: 'require_author_to_merge' }]);
  });

  it('hasText finds text in documents and Markdown only when it is not blank', () => {
    expect(hasText(undefined)).toBe(false);
    expect(hasText({ markdown: ' ' })).toBe(false);
    expect(hasText({ markdown: 'x' })).toBe(true);
  });
});
