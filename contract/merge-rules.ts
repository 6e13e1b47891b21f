// Merge rules of an organization and of a space: which reviews a change request needs before merging.
import { z } from './zod.js';

const rulesWithUsers = ['require_specific_reviewers', 'require_one_of_specific_reviewers', 'allow_bypass'] as const;
const plainRules = [
  'require_at_least_one_review',
  'require_at_least_one_approved_review',
  'require_all_reviews_approved',
  'require_agent_review',
  'require_up_to_date_change_request',
  'require_change_request_subject',
  'require_change_request_description',
  'require_author_to_merge',
] as const;

export const MergeRule = z
  .discriminatedUnion('rule', [
    z.object({ rule: z.enum(rulesWithUsers), users: z.array(z.string()).max(100) }),
    z.object({ rule: z.enum(plainRules) }),
    z.object({
      rule: z.literal('custom'),
      expression: z.string().min(1).max(1024),
      message: z.string().max(1024).optional(),
    }),
  ])
  .openapi('MergeRule', { example: { rule: 'require_specific_reviewers', users: ['usr_01JD3Q6Z9B8XKRD'] } });

const RulesConfiguration = z.object({ type: z.literal('rules'), rules: z.array(MergeRule).max(50) });
const NoRulesConfiguration = z.object({ type: z.literal('none') });

export const OrganizationMergeRules = z
  .discriminatedUnion('type', [RulesConfiguration, NoRulesConfiguration])
  .openapi('MergeRulesStandaloneConfiguration', {
    description: 'Organization-wide merge rules: a list of rules, or `none` (merging needs no review).',
    example: { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] },
  });

export const SpaceMergeRules = z
  .discriminatedUnion('type', [z.object({ type: z.literal('inherit') }), RulesConfiguration, NoRulesConfiguration])
  .openapi('MergeRulesSpaceConfiguration', {
    description: "A space's merge rules: `inherit` the organization's, its own `rules`, or `none`.",
    example: { type: 'inherit' },
  });
