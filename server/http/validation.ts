// The one formatter of validation errors: a 400 naming each offending field.
import type { z } from 'zod';
import { Document } from '../../contract/document.js';
import { BadRequest } from '../errors.js';

export type RequestPart = 'params' | 'query' | 'body';

const NUL = '\u0000';

/** A path segment as shown in a message, with U+0000 written out so the message stays readable. */
const shown = (key: PropertyKey) => String(key).replaceAll(NUL, '\\u0000');

/** At most this many text problems are listed, each path at most this long: a message stays readable. */
const MAX_TEXT_PROBLEMS = 10;
const MAX_PATH_LENGTH = 200;
/**
 * Deepest nesting of arrays and objects any request part may have, checked before the schema (whose
 * recursive validation of a Document exhausts the stack somewhere under 1,000 levels). No schema of the
 * API comes near it: a Document block inside 30 lists is about 100 levels.
 */
export const MAX_NESTING = 256;

/** Whether a string holds a UTF-16 surrogate without its pair (JSON's `"\ud800"`), which no Unicode text holds. */
const hasLoneSurrogate = (s: string) => !(s as string & { isWellFormed(): boolean }).isWellFormed();

/**
 * One rule for every string of every request: U+0000 and lone surrogates are refused, in values and in
 * object keys (PostgreSQL text and jsonb cannot store U+0000; a lone surrogate would be stored as U+FFFD,
 * silently altered); and nothing may nest deeper than MAX_NESTING. Walks the raw input without recursion,
 * so that a deeply nested body cannot exhaust the stack; returns one problem per offending field, and
 * whether the nesting limit was passed (then the schema must not see the value).
 */
function textProblems(part: RequestPart, value: unknown): { problems: string[]; tooDeep: boolean } {
  const found: string[] = [];
  let tooDeep = false;
  const problem = (path: string, what: string) => {
    const shortPath = path.length > MAX_PATH_LENGTH ? `${path.slice(0, MAX_PATH_LENGTH)}…` : path;
    found.push(`${shortPath}: ${what}`);
  };
  const check = (text: string, path: string) => {
    if (text.includes(NUL)) problem(path, 'must not contain the NUL character (U+0000)');
    if (hasLoneSurrogate(text)) problem(path, 'must not contain a lone surrogate (U+D800 to U+DFFF): not valid Unicode text');
  };
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: part, depth: 0 }];
  while (stack.length > 0) {
    const { value: v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      check(v, path);
    } else if (v !== null && typeof v === 'object') {
      if (depth >= MAX_NESTING) {
        if (!tooDeep) problem(path, `nested deeper than ${MAX_NESTING} levels`);
        tooDeep = true;
        continue;
      }
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i];
        // Paths past the limit are not shown: stop extending them (a deep body would make them huge).
        const childPath = path.length > MAX_PATH_LENGTH ? path : `${path}.${shown(key)}`;
        check(key, childPath);
        stack.push({ value: child, path: childPath, depth: depth + 1 });
      }
    }
  }
  const more = found.length - MAX_TEXT_PROBLEMS;
  const problems = more > 0 ? [...found.slice(0, MAX_TEXT_PROBLEMS), `and ${more} more field(s) with such problems`] : found;
  return { problems, tooDeep };
}

const valueAt = (value: unknown, path: readonly PropertyKey[]) => path.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined), value);

/**
 * A rich-text body (`{ markdown } | { document } | {}`) whose document is not a valid Document fails every
 * branch of its union, and Zod reports the `{}` branch's "unknown field: document" (or "Invalid input"). The document's own
 * problems say what is wrong (`….document.nodes.3.data.records: …`): they are reported instead.
 */
function documentProblems(part: RequestPart, issue: z.core.$ZodIssue, value: unknown): z.core.$ZodIssue[] | undefined {
  const unknownDocument = issue.code === 'unrecognized_keys' && issue.keys.length === 1 && issue.keys[0] === 'document';
  if (!unknownDocument && issue.code !== 'invalid_union') return undefined;
  const holder = valueAt(value, issue.path);
  if (holder === null || typeof holder !== 'object' || Object.keys(holder).length !== 1 || !('document' in holder)) return undefined;
  const checked = Document.safeParse((holder as { document: unknown }).document);
  if (checked.success) return undefined;
  return checked.error.issues.map((i) => ({ ...i, path: [...issue.path, 'document', ...i.path] }));
}

/**
 * A union of objects told apart by a `type` that is not a literal in each of them (a computed source:
 * `builtin:openapi`, or `integration:<name>:<source>`, which a discriminated union cannot name) reports
 * "Invalid input" for the whole object. When the value's `type` is accepted by exactly one branch, that
 * branch's problems say what is wrong (`….props.doc: …`): they are reported instead.
 */
function typedUnionProblems(issue: z.core.$ZodIssue, value: unknown): z.core.$ZodIssue[] | undefined {
  if (issue.code !== 'invalid_union' || issue.errors.length < 2) return undefined;
  const holder = valueAt(value, issue.path);
  if (holder === null || typeof holder !== 'object' || typeof (holder as { type?: unknown }).type !== 'string') return undefined;
  const atType = (i: z.core.$ZodIssue) => i.path.length === 1 && i.path[0] === 'type';
  const typed = issue.errors.filter((branch) => !branch.some(atType));
  if (typed.length === 1) return typed[0].map((i) => ({ ...i, path: [...issue.path, ...i.path] }));
  if (typed.length > 0) return undefined;
  // No branch takes the type: what each would take.
  const wanted = issue.errors.flatMap((branch) => branch.filter(atType).map((i) => i.message));
  return [{ code: 'custom', input: holder, path: [...issue.path, 'type'], message: wanted.join('; or ') }];
}

/** Parses one part of a request with its contract schema; throws a BadRequest naming the fields. */
export function validatePart<T>(part: RequestPart, schema: z.ZodType<T>, value: unknown): T {
  const text = textProblems(part, value);
  if (text.tooDeep) throw new BadRequest(`Invalid request: ${text.problems.join('; ')}`);
  const nul = text.problems;
  const result = schema.safeParse(value);
  if (result.success && nul.length === 0) return result.data;
  const problems = result.success
    ? []
    : result.error.issues.flatMap((issue) => documentProblems(part, issue, value) ?? typedUnionProblems(issue, value) ?? [issue]).map((issue) => {
        const keys = issue.code === 'unrecognized_keys' ? issue.keys.map((k) => [...issue.path, k].map(shown).join('.')) : [];
        const field = [part, ...issue.path.map(shown)].join('.');
        return keys.length > 0 ? `${part}.${keys.join(', ')}: unknown field` : `${field}: ${issue.message}`;
      });
  throw new BadRequest(`Invalid request: ${[...nul, ...problems].join('; ')}`);
}
