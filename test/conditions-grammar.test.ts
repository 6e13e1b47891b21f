// The grammar of adaptive-content conditions (docs/sites-settings.md): what parses, where a refusal points,
// and that the evaluator reads exactly what the grammar accepts.
import { describe, expect, it } from 'vitest';
import { checkCondition, claimNamesOf } from '../server/conditions/check.js';
import { conditionHolds } from '../server/conditions/evaluate.js';
import { ConditionError, parseCondition } from '../server/conditions/grammar.js';
import { betaClaimsSchema } from './sites-support.js';

/** The 1-based character and the reason of the refusal of `text`. */
function refusal(text: string): { at: number; reason: string } {
  try {
    parseCondition(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ConditionError);
    return { at: (error as ConditionError).position + 1, reason: (error as ConditionError).reason };
  }
  throw new Error(`${text} parsed`);
}

describe('condition grammar', () => {
  it('accepts claims, literals, !, &&, ||, equality, ?: and parentheses', () => {
    for (const text of [
      'visitor.claims.isBetaUser',
      '!visitor.claims.unsigned.prefersDark',
      '(visitor.claims.a || visitor.claims.b) && !visitor.claims.c',
      'visitor.claims.tier == 2 || visitor.claims.plan === "pro" || visitor.claims.x != null',
      'visitor.claims["isBetaUser"] ? true : false',
      'visitor.claims.region !== undefined',
    ]) {
      expect(() => parseCondition(text), text).not.toThrow();
    }
  });

  it('refuses what is outside the grammar, naming the character and the reason', () => {
    expect(refusal('visitor.claim.isBeta')).toEqual({ at: 9, reason: expect.stringContaining('`claim` is not a property of visitor') });
    expect(refusal('visitor.claims.a > 1')).toEqual({ at: 18, reason: expect.stringContaining('operator `>`') });
    expect(refusal('visitor.claims.a + 1')).toEqual({ at: 18, reason: expect.stringContaining('operator `+`') });
    expect(refusal('-visitor.claims.a')).toEqual({ at: 1, reason: expect.stringContaining('operator `-`') });
    expect(refusal('isBetaUser')).toEqual({ at: 1, reason: expect.stringContaining('unknown name `isBetaUser`') });
    expect(refusal('visitor.claims.list.includes("x")')).toEqual({ at: 29, reason: 'function calls are not in the grammar' });
    expect(refusal('visitor.claims.a &&')).toEqual({ at: 20, reason: expect.stringContaining('Expected expression') });
    expect(refusal('(visitor.claims.a')).toEqual({ at: 18, reason: expect.stringContaining('Unclosed (') });
    expect(refusal('visitor.claims.a visitor.claims.b')).toEqual({ at: 18, reason: expect.stringContaining('one expression expected') });
    expect(refusal('visitor.claims')).toEqual({ at: 9, reason: expect.stringContaining('name one') });
    expect(refusal('visitor.claims[visitor.claims.k]')).toEqual({ at: 16, reason: expect.stringContaining('string literal') });
    expect(refusal('visitor.claims.__proto__')).toEqual({ at: 16, reason: expect.stringContaining('cannot be a claim name') });
    expect(refusal('this.x')).toEqual({ at: 1, reason: expect.stringContaining('only visitor.claims') });
    expect(refusal('  ')).toEqual({ at: 1, reason: expect.stringContaining('empty') });
    expect(refusal('visitor.claims.a || '.repeat(150))).toEqual({ at: 2001, reason: 'longer than 2000 characters' });
    expect(refusal(`${'('.repeat(40)}visitor.claims.a${')'.repeat(40)}`)).toEqual({ at: 33, reason: 'nested deeper than 32 levels' });
  });

  it('checks claim names against the adaptive schema when there is one', () => {
    const names = claimNamesOf(betaClaimsSchema);
    expect(() => checkCondition('body.condition', 'visitor.claims.isBetaUser && visitor.claims.unsigned.prefersDark', names)).not.toThrow();
    expect(() => checkCondition('body.condition', 'visitor.claims.isBeta', names)).toThrow(
      "Invalid request: body.condition: at character 16: claim `isBeta` is not defined by the site's adaptive schema (claims: isBetaUser)",
    );
    expect(() => checkCondition('body.condition', '!visitor.claims.unsigned.dark', names)).toThrow(/at character 26: unsigned claim `dark` is not defined .*prefersDark/);
    expect(() => checkCondition('body.condition', 'visitor.claims.isBetaUser.since', names)).toThrow(/at character 27: claim `isBetaUser` is a boolean/);
    expect(() => checkCondition('body.condition', 'visitor.claims.anything.deep', undefined)).not.toThrow();
    expect(() => checkCondition('body.condition', null, names)).not.toThrow();
  });

  it('evaluates what it parses against the visitor claims, and hides items whose condition is outside the grammar', () => {
    const beta = { claims: { isBetaUser: true, tier: 2, unsigned: { prefersDark: false } } };
    expect(conditionHolds('visitor.claims.isBetaUser && !visitor.claims.unsigned.prefersDark', beta)).toBe(true);
    expect(conditionHolds('visitor.claims.tier == 2 ? visitor.claims.isBetaUser : false', beta)).toBe(true);
    expect(conditionHolds('visitor.claims.tier != 2', beta)).toBe(false);
    expect(conditionHolds('visitor.claims.missing', beta)).toBe(false);
    expect(conditionHolds('visitor.claims.isBetaUser || visitor.claims.x.y.z', { claims: {} })).toBe(false);
    // Stored before conditions were checked: never shown.
    expect(conditionHolds('visitor.claims.isBetaUser > 0', beta)).toBe(false);
    expect(conditionHolds('visitor.claim.isBetaUser', beta)).toBe(false);
    expect(conditionHolds('', beta)).toBe(true);
    expect(conditionHolds(null, beta)).toBe(true);
  });
});
