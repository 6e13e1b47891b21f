// The one formatter of validation errors (server/http/validation.ts): which text is refused, where the
// nesting limit lies, how fields are named (keys, unknown fields, long paths), and how many are listed.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BadRequest } from '../../server/errors.js';
import { Document } from '../../contract/document.js';
import { MAX_NESTING, validatePart } from '../../server/http/validation.js';

const anything = z.unknown();
/** The message of the refusal of `value` as `part`, or 'accepted'. */
function refusal(value: unknown, schema: z.ZodType = anything, part: 'params' | 'query' | 'body' = 'body'): string {
  try {
    validatePart(part, schema, value);
    return 'accepted';
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequest);
    return (error as BadRequest).message;
  }
}
const nul = 'must not contain the NUL character (U+0000)';
const lone = 'must not contain a lone surrogate (U+D800 to U+DFFF): not valid Unicode text';

/** `depth` arrays nested in one another around `inner`. */
const nested = (depth: number, inner: unknown = 'x'): unknown => {
  let value = inner;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

describe('validatePart', () => {
  it('returns what the schema parsed', () => {
    expect(validatePart('query', z.object({ n: z.coerce.number() }), { n: '3' })).toEqual({ n: 3 });
    expect(validatePart('body', anything, { ok: ['a', { b: 'c' }] })).toEqual({ ok: ['a', { b: 'c' }] });
  });

  it('refuses NUL and lone surrogates in values and keys, naming each field', () => {
    expect(refusal({ title: 'a\u0000b' })).toBe(`Invalid request: body.title: ${nul}`);
    expect(refusal({ list: ['ok', '\ud800'] }, anything, 'query')).toBe(`Invalid request: query.list.1: ${lone}`);
    expect(refusal({ 'a\u0000': 1 })).toBe(`Invalid request: body.a\\u0000: ${nul}`);
    expect(refusal({ ['\udc00']: 1 })).toBe(`Invalid request: body.\udc00: ${lone}`);
    expect(refusal('\u0000\ud800')).toBe(`Invalid request: body: ${nul}; body: ${lone}`);
    expect(refusal({ a: 'fine', b: '\ud83d\ude00 a pair' })).toBe('accepted');
  });

  it('lists text problems in document order, before the schema problems', () => {
    const schema = z.object({ a: z.string(), b: z.number() }).strict();
    expect(refusal({ a: '\u0000', b: 'x', c: 1 }, schema)).toBe(
      `Invalid request: body.a: ${nul}; body.b: Invalid input: expected number, received string; body.c: unknown field`,
    );
    expect(refusal({ b: 1, a: 'x\u0000', c: ['\u0000'] })).toBe(`Invalid request: body.a: ${nul}; body.c.0: ${nul}`);
  });

  it('names the problems of the branch of a union whose `type` the value has, or what each branch takes as `type`', () => {
    // As a computed source: a literal type, or a pattern the literal does not match (checked first, aborting).
    const schema = z.object({
      source: z.union([
        z.strictObject({ type: z.literal('builtin'), props: z.strictObject({ doc: z.enum(['a', 'b']) }) }),
        z.strictObject({ type: z.string().regex(/^plugin:/, { abort: true }), props: z.record(z.string(), z.unknown()) }),
      ]),
    });
    expect(refusal({ source: { type: 'builtin', props: { doc: 'c' } } }, schema)).toMatch(/^Invalid request: body\.source\.props\.doc: /);
    expect(refusal({ source: { type: 'plugin:x', props: 3 } }, schema)).toMatch(/^Invalid request: body\.source\.props: /);
    expect(refusal({ source: { type: 'other', props: {} } }, schema)).toBe(
      'Invalid request: body.source.type: Invalid input: expected "builtin"; or Invalid string: must match pattern /^plugin:/',
    );
    expect(refusal({ source: { type: 'plugin:x', props: {} } }, schema)).toBe('accepted');
  });

  it("names a rich text's Document problems, not the union's, when the document is the body's only field", () => {
    // As a page's content: `{ markdown } | { document } | {}`.
    const rich = z.union([z.strictObject({ markdown: z.string() }), z.strictObject({ document: Document }), z.strictObject({})]);
    const paragraph = (text: unknown) => ({ object: 'block', type: 'paragraph', isVoid: false, data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });
    const valid = { object: 'document', data: {}, nodes: [paragraph('hi')] };
    const invalid = { object: 'document', data: {}, nodes: [paragraph(5)] };
    const leaf = 'document.nodes.0.nodes.0.leaves.0.text: Invalid input: expected string, received number';
    expect(refusal({ content: { document: valid } }, z.object({ content: rich }))).toBe('accepted');
    expect(refusal({ content: { document: invalid } }, z.object({ content: rich }))).toBe(`Invalid request: body.content.${leaf}`);
    expect(refusal({ document: invalid }, rich)).toBe(`Invalid request: body.${leaf}`);
    // Where the document is not the only field, or not there, the union's own problems stand.
    expect(refusal({ content: { document: invalid, x: 1 } }, z.object({ content: rich }))).toBe('Invalid request: body.content.document, content.x: unknown field');
    expect(refusal({ content: null }, z.object({ content: rich }))).toBe('Invalid request: body.content: Invalid input');
    expect(refusal({ content: 'text' }, z.object({ content: rich }))).toBe('Invalid request: body.content: Invalid input');
    // A body that takes no document: an invalid one is named by its problems, a valid one as an unknown field.
    expect(refusal({ document: invalid }, z.strictObject({}))).toBe(`Invalid request: body.${leaf}`);
    expect(refusal({ document: valid }, z.strictObject({}))).toBe('Invalid request: body.document: unknown field');
    expect(refusal({ document: invalid, y: 2 }, z.strictObject({}))).toBe('Invalid request: body.document, y: unknown field');
    expect(refusal({ documents: invalid }, z.strictObject({}))).toBe('Invalid request: body.documents: unknown field');
  });

  it('keeps the union\'s own refusal when no `type` tells its branches apart', () => {
    const untyped = z.object({ source: z.union([z.strictObject({ type: z.string(), a: z.number() }), z.strictObject({ type: z.string(), b: z.number() })]) });
    // Both branches take the type: neither is the one meant.
    expect(refusal({ source: { type: 'x' } }, untyped)).toBe('Invalid request: body.source: Invalid input');
    // A value without a text `type`, or no object at all.
    expect(refusal({ source: { type: 3 } }, untyped)).toBe('Invalid request: body.source: Invalid input');
    expect(refusal({ source: { a: 1, b: 2 } }, untyped)).toBe('Invalid request: body.source: Invalid input');
    expect(refusal({ source: null }, untyped)).toBe('Invalid request: body.source: Invalid input');
    expect(refusal({ source: 'builtin' }, untyped)).toBe('Invalid request: body.source: Invalid input');
    // A `type` that is not text (an object) is no branch's tag either.
    expect(refusal({ source: { type: { kind: 'a' } } }, untyped)).toBe('Invalid request: body.source: Invalid input');
  });

  it('names unknown fields with their path, and nested schema problems with theirs', () => {
    const schema = z.object({ inner: z.object({ x: z.string() }).strict() }).strict();
    expect(refusal({ inner: { x: 'a', y: 1, z: 2 } }, schema)).toBe('Invalid request: body.inner.y, inner.z: unknown field');
    expect(refusal({ inner: { x: 1 } }, schema, 'params')).toBe('Invalid request: params.inner.x: Invalid input: expected string, received number');
  });

  it('lists at most ten text problems, then how many more', () => {
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}`, '\u0000']));
    const message = refusal(many);
    expect(message.split('; ')).toHaveLength(11);
    expect(message).toContain(`body.f9: ${nul}; and 2 more field(s) with such problems`);
    expect(message).not.toContain('body.f10');
    const ten = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}`, '\u0000']));
    expect(refusal(ten)).not.toContain('more field(s)');
  });

  it(`accepts ${MAX_NESTING} levels of nesting and refuses one more, without asking the schema`, () => {
    expect(MAX_NESTING).toBe(256);
    expect(refusal(nested(MAX_NESTING))).toBe('accepted');
    // Values that are not containers are no level: a number, a boolean or null at the deepest place is fine.
    expect(refusal(nested(MAX_NESTING, 1))).toBe('accepted');
    expect(refusal(nested(MAX_NESTING, null))).toBe('accepted');
    expect(refusal({ a: null, b: false, c: 0 })).toBe('accepted');
    const schemaSeen: unknown[] = [];
    const spy = z.unknown().superRefine((v) => void schemaSeen.push(v));
    const tooDeep = refusal(nested(MAX_NESTING + 1), spy);
    expect(tooDeep).toMatch(/^Invalid request: body(\.0)+…?: nested deeper than 256 levels$/);
    expect(schemaSeen).toEqual([]);
    // One problem however deep and however many branches pass the limit.
    expect(refusal({ a: nested(400), b: nested(400) })).toMatch(/^Invalid request: [^;]*nested deeper than 256 levels$/);
    // A NUL found before the depth is passed is listed with it.
    expect(refusal({ a: '\u0000', b: nested(300) })).toMatch(new RegExp(`^Invalid request: body.a: ${nul.replace(/[()+]/g, '\\$&')}; body.b(\\.0)+…: nested deeper than 256 levels$`));
  });

  it('shortens a path past 200 characters, and stops extending it', () => {
    const deepKey = nested(150, '\u0000');
    const message = refusal(deepKey);
    const [path] = message.replace('Invalid request: ', '').split(': ');
    // body + 150 × ".0" is 304 characters: shown as its first 200 and an ellipsis.
    expect(path).toBe(`${`body${'.0'.repeat(150)}`.slice(0, 200)}…`);
    expect(path).toHaveLength(201);
    // Exactly 200 characters are shown whole.
    const exact = `body.${'k'.repeat(195)}`;
    expect(refusal({ ['k'.repeat(195)]: '\u0000' })).toBe(`Invalid request: ${exact}: ${nul}`);
    const long = 'k'.repeat(300);
    expect(refusal({ [long]: { x: '\u0000' } })).toBe(`Invalid request: ${`body.${long}`.slice(0, 200)}…: ${nul}`);
  });
});
