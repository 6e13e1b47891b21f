// Merge rules at their edges (server/change-requests/merge-rules.ts): each rule alone, met and unmet, the
// order of reviews of one instant, what counts as text, and the refusal's full wording for every rule.
import { describe, expect, it } from 'vitest';
import { effectiveRules, evaluateMergeRules, hasText, unmetMessage, type MergeFacts, type ReviewFacts, type Rule } from '../../server/change-requests/merge-rules.js';

const review = (id: string, reviewer: string, status: ReviewFacts['status'], seconds: number, revision = 'rev2'): ReviewFacts => ({
  id,
  reviewer,
  status,
  revision,
  createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, seconds)),
});
const facts = (over: Partial<MergeFacts['changeRequest']> = {}, reviews: ReviewFacts[] = [], actor = 'author'): MergeFacts => ({
  changeRequest: { createdBy: 'author', revision: 'rev2', subject: 'Subject', description: 'Why', outdated: false, ...over },
  reviews,
  actor,
});
const verdict = (rules: Rule[], f: MergeFacts) => evaluateMergeRules(rules, f);

describe('each rule alone', () => {
  it('reads the change request: up to date, subject, description, author', () => {
    const cases: [Rule, Partial<MergeFacts['changeRequest']>, Partial<MergeFacts['changeRequest']>][] = [
      [{ rule: 'require_up_to_date_change_request' }, { outdated: false }, { outdated: true }],
      [{ rule: 'require_change_request_subject' }, { subject: 'Fix' }, { subject: '  ' }],
      [{ rule: 'require_change_request_subject' }, { subject: 'Fix' }, { subject: null }],
      [{ rule: 'require_change_request_description' }, { description: 'Because' }, { description: ' ' }],
    ];
    for (const [rule, met, unmet] of cases) {
      expect(verdict([rule], facts(met)), `${rule.rule} met`).toEqual({ unmet: [], mergeable: true, bypassed: false });
      expect(verdict([rule], facts(unmet)), `${rule.rule} unmet`).toEqual({ unmet: [rule.rule], mergeable: false, bypassed: false });
    }
    const author: Rule = { rule: 'require_author_to_merge' };
    expect(verdict([author], facts({}, [], 'author')).mergeable).toBe(true);
    expect(verdict([author], facts({}, [], 'ann')).unmet).toEqual(['require_author_to_merge']);
  });

  it('one of specific reviewers: met by one listed approval, not by an unlisted one or a request for changes', () => {
    const rule: Rule = { rule: 'require_one_of_specific_reviewers', users: ['ann'] };
    expect(verdict([rule], facts()).unmet).toEqual(['require_one_of_specific_reviewers']);
    expect(verdict([rule], facts({}, [review('crr_1', 'ann', 'changes-requested', 1)])).unmet).toEqual(['require_one_of_specific_reviewers']);
    expect(verdict([rule], facts({}, [review('crr_1', 'ann', 'approved', 1)])).unmet).toEqual([]);
  });

  it('agent review and custom rules are unmet, also with every review approved', () => {
    const approved = facts({}, [review('crr_1', 'ann', 'approved', 1)]);
    expect(verdict([{ rule: 'require_agent_review' }], approved).unmet).toEqual(['require_agent_review']);
    expect(verdict([{ rule: 'custom', expression: 'true' } as Rule], approved).unmet).toEqual(['custom']);
    expect(verdict([{ rule: 'allow_bypass', users: [] }], approved)).toEqual({ unmet: [], mergeable: true, bypassed: false });
  });

  it('a bypass counts only when a rule is unmet, and only for its users', () => {
    const rules: Rule[] = [{ rule: 'require_at_least_one_review' }, { rule: 'allow_bypass', users: ['ann'] }];
    expect(verdict(rules, facts({}, [], 'ann'))).toEqual({ unmet: ['require_at_least_one_review'], mergeable: true, bypassed: true });
    expect(verdict(rules, facts({}, [], 'bob'))).toEqual({ unmet: ['require_at_least_one_review'], mergeable: false, bypassed: false });
    expect(verdict(rules, facts({}, [review('crr_1', 'bob', 'approved', 1)], 'ann'))).toEqual({ unmet: [], mergeable: true, bypassed: false });
  });
});

describe('which review of a reviewer is current', () => {
  const rule: Rule = { rule: 'require_all_reviews_approved' };
  it('the later in time, whatever the order given', () => {
    const first = review('crr_9', 'ann', 'changes-requested', 1);
    const second = review('crr_1', 'ann', 'approved', 2);
    expect(verdict([rule], facts({}, [first, second])).unmet).toEqual([]);
    expect(verdict([rule], facts({}, [second, first])).unmet).toEqual([]);
  });

  it('at the same instant, the greater id', () => {
    const a = review('crr_1', 'ann', 'approved', 1);
    const b = review('crr_2', 'ann', 'changes-requested', 1);
    expect(verdict([rule], facts({}, [a, b])).unmet).toEqual(['require_all_reviews_approved']);
    expect(verdict([rule], facts({}, [b, a])).unmet).toEqual(['require_all_reviews_approved']);
  });
});

describe('rules of a space', () => {
  const rules: Rule[] = [{ rule: 'require_at_least_one_review' }];
  it('its own, the organization ones when it inherits, else none', () => {
    expect(effectiveRules({ type: 'rules', rules }, undefined)).toEqual(rules);
    expect(effectiveRules({ type: 'inherit' }, { type: 'rules', rules })).toEqual(rules);
    expect(effectiveRules({ type: 'inherit' }, undefined)).toEqual([]);
    expect(effectiveRules(undefined, { type: 'rules', rules })).toEqual([]);
    expect(effectiveRules(null, null)).toEqual([]);
  });
});

describe('what counts as text', () => {
  it('visible characters in strings, leaves and Markdown, at any depth', () => {
    expect([hasText('x'), hasText(' x '), hasText('  '), hasText('')]).toEqual([true, true, false, false]);
    expect([hasText(null), hasText(undefined), hasText(5), hasText(true)]).toEqual([false, false, false, false]);
    expect([hasText([' ', 'a']), hasText([' ', ''])]).toEqual([true, false]);
    expect([hasText({ text: 'a' }), hasText({ text: '  ' }), hasText({ markdown: '# A' }), hasText({ markdown: ' \n ' })]).toEqual([true, false, true, false]);
    expect(hasText({ document: { nodes: [{ object: 'block', nodes: [{ object: 'text', leaves: [{ text: 'deep' }] }] }] } })).toBe(true);
    expect(hasText({ document: { nodes: [{ object: 'block', nodes: [{ object: 'text', leaves: [{ text: ' ' }] }] }] } })).toBe(false);
    expect(hasText({ title: 'not content' })).toBe(false);
  });
});

describe('the refusal', () => {
  it('names every unmet rule with what it asks', () => {
    const rules: Rule[] = [
      { rule: 'require_specific_reviewers', users: ['ann', 'bob'] },
      { rule: 'require_one_of_specific_reviewers', users: ['cid', 'dee'] },
      { rule: 'require_at_least_one_review' },
      { rule: 'require_at_least_one_approved_review' },
      { rule: 'require_all_reviews_approved' },
      { rule: 'require_agent_review' },
      { rule: 'require_up_to_date_change_request' },
      { rule: 'require_change_request_subject' },
      { rule: 'require_change_request_description' },
      { rule: 'require_author_to_merge' },
      { rule: 'custom', expression: 'a == b' } as Rule,
      { rule: 'custom', expression: 'c', message: 'Ask the docs team' } as Rule,
      { rule: 'allow_bypass', users: ['dan'] },
    ];
    expect(unmetMessage(rules, rules.map((r) => r.rule).filter((name, i, all) => all.indexOf(name) === i))).toBe(
      'The merge rules of the space are not met: ' +
        'require_specific_reviewers (approval by each of ann, bob), ' +
        'require_one_of_specific_reviewers (approval by one of cid, dee), ' +
        'require_at_least_one_review (at least one review of the current revision), ' +
        'require_at_least_one_approved_review (at least one approval of the current revision), ' +
        'require_all_reviews_approved (no current review asking for changes), ' +
        'require_agent_review (a review by an agent, which this service does not have), ' +
        'require_up_to_date_change_request (the change request brought up to date with the space), ' +
        'require_change_request_subject (a subject), ' +
        'require_change_request_description (a description), ' +
        'require_author_to_merge (the merge done by the author), ' +
        'custom (custom rule a == b (custom expressions are not evaluated); Ask the docs team), ' +
        'allow_bypass ()',
    );
  });
});
