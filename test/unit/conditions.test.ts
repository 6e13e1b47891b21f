// The conditions' parser, claim check and evaluator (server/conditions/; docs/sites-settings.md): what
// parses, where a refusal points, the nesting and length bounds, claim names met in every kind of node, and
// that the evaluator reads exactly what the grammar accepts. The edge cases after the first block were
// written against the mutants the first block let live (bench/results/mutation.md).
import { describe, expect, it } from 'vitest';
import { checkCondition, claimNamesOf, mergeClaimNames } from '../../server/conditions/check.js';
import { conditionHolds } from '../../server/conditions/evaluate.js';
import { ConditionError, MAX_CONDITION_LENGTH, parseCondition } from '../../server/conditions/grammar.js';
import { betaClaimsSchema } from '../sites-support.js';

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

/** The message of checkCondition's refusal, or 'accepted'. */
function checked(text: string | null | undefined, names = claimNamesOf({ properties: { a: {}, b: {}, unsigned: { properties: { dark: {} } } } })) {
  try {
    checkCondition('body.condition', text, names);
    return 'accepted';
  } catch (error) {
    return (error as Error).message;
  }
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

describe('condition grammar: bounds', () => {
  it('accepts 32 levels of ! and refuses 33, at the innermost level', () => {
    expect(() => parseCondition(`${'!'.repeat(32)}visitor.claims.a`)).not.toThrow();
    expect(refusal(`${'!'.repeat(33)}visitor.claims.a`)).toEqual({ at: 34, reason: 'nested deeper than 32 levels' });
  });

  it('counts && chains, ?: and equality as nesting, pointing at the start of the deepest operand', () => {
    expect(refusal(`${'visitor.claims.a && '.repeat(33)}true`)).toEqual({ at: 1, reason: 'nested deeper than 32 levels' });
    expect(() => parseCondition(`${'visitor.claims.a && '.repeat(31)}true`)).not.toThrow();
    expect(refusal(`${'visitor.claims.a ? true : '.repeat(33)}true`).reason).toBe('nested deeper than 32 levels');
    expect(refusal(`${'!'.repeat(32)}visitor.claims.a ? 1 : 2`).reason).toBe('nested deeper than 32 levels');
    expect(() => parseCondition(`${'!'.repeat(31)}visitor.claims.a ? 1 : 2`)).not.toThrow();
    expect(refusal(`${'visitor.claims.a ? '.repeat(33)}true${' : true'.repeat(33)}`).reason).toBe('nested deeper than 32 levels');
    expect(refusal(`${'!(visitor.claims.a == '.repeat(17)}true${')'.repeat(17)}`).reason).toBe('nested deeper than 32 levels');
    expect(() => parseCondition(`${'!(visitor.claims.a == '.repeat(16)}true${')'.repeat(16)}`)).not.toThrow();
  });

  it('counts parentheses and brackets that are open, not those already closed', () => {
    const group = (name: string) => `${'('.repeat(20)}visitor.claims.${name}${')'.repeat(20)}`;
    expect(() => parseCondition(`${group('a')} && ${group('b')}`)).not.toThrow();
    // 40 computed members in a row are one claim path, never more than one bracket open.
    expect(() => parseCondition(`visitor.claims${'["a"]'.repeat(40)}`)).not.toThrow();
    expect(refusal(`${'['.repeat(40)}1${']'.repeat(40)}`)).toEqual({ at: 33, reason: 'nested deeper than 32 levels' });
  });

  it('accepts exactly the longest condition', () => {
    const longest = `visitor.claims.${'a'.repeat(MAX_CONDITION_LENGTH - 'visitor.claims.'.length)}`;
    expect(longest).toHaveLength(MAX_CONDITION_LENGTH);
    expect(() => parseCondition(longest)).not.toThrow();
    expect(refusal(`${longest}b`)).toEqual({ at: 2001, reason: 'longer than 2000 characters' });
  });
});

describe('condition grammar: what a refusal names', () => {
  it('reads `undefined` as a literal, not as a claim', () => {
    expect(parseCondition('visitor.claims.x === undefined')).toStrictEqual({
      kind: 'equal',
      left: { kind: 'claim', path: ['x'], at: [15] },
      right: { kind: 'literal', value: undefined },
    });
  });

  it('names the offending segment of a claim chain', () => {
    expect(refusal('visitor')).toEqual({ at: 1, reason: 'visitor alone is not a value: conditions read visitor.claims.<name>' });
    expect(refusal('visitor.x')).toEqual({ at: 9, reason: '`x` is not a property of visitor: conditions read visitor.claims.<name>' });
    expect(refusal('visitor.claims.constructor')).toEqual({ at: 16, reason: '`constructor` cannot be a claim name' });
    expect(refusal('visitor.claims.a.prototype')).toEqual({ at: 18, reason: '`prototype` cannot be a claim name' });
    expect(refusal('visitor.claims[1]')).toEqual({ at: 16, reason: expect.stringContaining('string literal') });
    expect(refusal('[1]')).toEqual({ at: 1, reason: 'arrays are not in the grammar' });
    expect(refusal('this')).toEqual({ at: 1, reason: '`this` is not in the grammar: conditions read visitor.claims.<name>' });
  });

  it('finds segment positions in order, also for a segment hidden in an earlier one', () => {
    // `ims` is inside `claims`: its position is searched after `claims`, so it is the 16th character.
    expect(checked('visitor.claims.ims')).toBe(
      "Invalid request: body.condition: at character 16: claim `ims` is not defined by the site's adaptive schema (claims: a, b)",
    );
    // A name written with an escape is not in the source as such: the position stays after the last found.
    expect(checked('visitor.claims["\\n"]')).toMatch(/^Invalid request: body.condition: at character 15: claim `\n` is not defined/);
  });

  it('names operators and calls after a number, a string or a member', () => {
    expect(refusal('2 > visitor.claims.a')).toEqual({ at: 3, reason: expect.stringContaining('operator `>`') });
    expect(refusal('12 == 3 && visitor.claims.a > 1')).toEqual({ at: 29, reason: expect.stringContaining('operator `>`') });
    expect(refusal('.5 + 1')).toEqual({ at: 4, reason: expect.stringContaining('operator `+`') });
    expect(refusal('visitor.claims[">"] > 1')).toEqual({ at: 21, reason: expect.stringContaining('operator `>`') });
    expect(refusal('"a(" == visitor.claims.f(1)')).toEqual({ at: 25, reason: 'function calls are not in the grammar' });
    expect(refusal('1 == 1 visitor.claims.a')).toEqual({ at: 8, reason: expect.stringContaining('one expression expected') });
    expect(refusal('(visitor.claims.a && visitor.claims.b) visitor.claims.c')).toEqual({ at: 40, reason: expect.stringContaining('one expression expected') });
    expect(refusal('visitor.claims.a == 1 visitor.claims.b').at).toBe(23);
    expect(refusal('visitor.claims.a ==').at).toBe(20);
    expect(refusal('visitor.claims.a == @').reason).not.toBe('does not parse');
    expect(refusal('visitor.claims.a == @').at).toBeLessThanOrEqual(21);
  });
});

describe('claim names checked against the adaptive schema', () => {
  it('reads the names of a schema, of none, and of several', () => {
    expect(claimNamesOf(null)).toBeUndefined();
    expect(claimNamesOf(undefined)).toBeUndefined();
    expect(claimNamesOf({ properties: { a: {} } })).toEqual({ signed: new Set(['a']), unsigned: new Set() });
    expect(claimNamesOf({})).toEqual({ signed: new Set(), unsigned: new Set() });
    expect(mergeClaimNames([undefined, undefined])).toBeUndefined();
    expect(mergeClaimNames([])).toBeUndefined();
    expect(
      mergeClaimNames([claimNamesOf({ properties: { a: {}, unsigned: { properties: { x: {} } } } }), undefined, claimNamesOf({ properties: { b: {} } })]),
    ).toEqual({ signed: new Set(['a', 'b']), unsigned: new Set(['x']) });
  });

  it('checks claims in every kind of node', () => {
    for (const text of [
      'visitor.claims.zz ? true : false',
      'true ? visitor.claims.zz : false',
      'true ? false : visitor.claims.zz',
      'visitor.claims.zz && true',
      'true || visitor.claims.zz',
      '!(true == visitor.claims.zz)',
      'visitor.claims.zz != 1',
    ]) {
      expect(checked(text), text).toMatch(/claim `zz` is not defined by the site's adaptive schema \(claims: a, b\)$/);
    }
    expect(checked('true ? visitor.claims.a : visitor.claims.unsigned.dark')).toBe('accepted');
  });

  it('lists the defined names sorted, or none', () => {
    expect(checked('visitor.claims.c', claimNamesOf({ properties: { b: {}, a: {} } }))).toMatch(/\(claims: a, b\)$/);
    expect(checked('visitor.claims.c', claimNamesOf({ properties: {} }))).toMatch(/\(claims: none\)$/);
    expect(checked('visitor.claims.unsigned.c', claimNamesOf({ properties: {} }))).toMatch(/\(unsigned claims: none\)$/);
  });

  it('refuses the unsigned set itself and a segment below an unsigned claim', () => {
    expect(checked('visitor.claims.unsigned')).toBe(
      'Invalid request: body.condition: at character 16: visitor.claims.unsigned is the set of unsigned claims: name one',
    );
    expect(checked('visitor.claims.unsigned.dark.x')).toBe(
      'Invalid request: body.condition: at character 30: unsigned claim `dark` is a boolean: it has no `x`',
    );
  });

  it('takes null, undefined and blank text as no condition, and refuses other text outside the grammar', () => {
    expect(checked(null)).toBe('accepted');
    expect(checked(undefined)).toBe('accepted');
    expect(checked('   ')).toBe('accepted');
    expect(checked('visitor.claims.a > 1')).toMatch(/^Invalid request: body.condition: at character 18: operator `>`/);
  });
});

describe('condition evaluation', () => {
  const visitor = { claims: { yes: true, no: false, tier: 2, text: 'abc', nothing: null, unsigned: { dark: true } } };
  const holds = (text: string | null | undefined) => conditionHolds(text, visitor);

  it('follows the truth tables of !, &&, ||, ==, != and ?:', () => {
    expect([holds('visitor.claims.yes && visitor.claims.yes'), holds('visitor.claims.yes && visitor.claims.no'), holds('visitor.claims.no && visitor.claims.yes')]).toEqual([true, false, false]);
    expect([holds('visitor.claims.no || visitor.claims.yes'), holds('visitor.claims.yes || visitor.claims.no'), holds('visitor.claims.no || visitor.claims.no')]).toEqual([true, true, false]);
    expect([holds('visitor.claims.tier == 2'), holds('visitor.claims.tier === 3'), holds('visitor.claims.tier != 3'), holds('visitor.claims.tier !== 2')]).toEqual([true, false, true, false]);
    expect([holds('!visitor.claims.no'), holds('!visitor.claims.yes')]).toEqual([true, false]);
    expect([holds('visitor.claims.yes ? visitor.claims.yes : visitor.claims.no'), holds('visitor.claims.no ? visitor.claims.yes : visitor.claims.no')]).toEqual([true, false]);
    expect(holds('visitor.claims.unsigned.dark')).toBe(true);
  });

  it('shows an item only when its condition is exactly true', () => {
    expect(holds('visitor.claims.tier')).toBe(false);
    expect(holds('visitor.claims.text')).toBe(false);
    expect(holds('"yes"')).toBe(false);
    expect(holds('true')).toBe(true);
  });

  it('reads only own claims of objects: no properties of strings, null or prototypes', () => {
    expect(holds('visitor.claims.text.length == 3')).toBe(false);
    expect(holds('visitor.claims.text.length === undefined')).toBe(true);
    expect(holds('visitor.claims.nothing.x === undefined')).toBe(true);
    expect(holds('visitor.claims.toString != undefined')).toBe(false);
    expect(holds('visitor.claims.missing === undefined')).toBe(true);
    expect(holds('visitor.claims.tier === undefined')).toBe(false);
  });

  it('shows items without a condition, hides those outside the grammar, the same on every read', () => {
    for (let i = 0; i < 2; i++) {
      expect([holds(null), holds(undefined), holds(''), holds('  ')]).toEqual([true, true, true, true]);
      expect([holds('visitor.claims.yes > 0'), holds('visitor.claims.yes ==')]).toEqual([false, false]);
      expect(holds('visitor.claims.yes')).toBe(true);
    }
  });
});
