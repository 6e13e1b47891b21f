// The one formatter of validation errors: a 400 naming each offending field.
import type { z } from 'zod';
import { BadRequest } from '../errors.js';

export type RequestPart = 'params' | 'query' | 'body';

const NUL = '\u0000';

/** A path segment as shown in a message, with U+0000 written out so the message stays readable. */
const shown = (key: PropertyKey) => String(key).replaceAll(NUL, '\\u0000');

/** At most this many NUL problems are listed, each path at most this long: a message stays readable. */
const MAX_NUL_PROBLEMS = 10;
const MAX_PATH_LENGTH = 200;

/**
 * One rule for every string of every request: U+0000 is refused, in values and in object keys
 * (PostgreSQL text and jsonb cannot store it). Walks the raw input without recursion, so that a deeply
 * nested body cannot exhaust the stack; returns one problem per offending field.
 */
function nulProblems(part: RequestPart, value: unknown): string[] {
  const found: string[] = [];
  const problem = (path: string) => {
    const shortPath = path.length > MAX_PATH_LENGTH ? `${path.slice(0, MAX_PATH_LENGTH)}…` : path;
    found.push(`${shortPath}: must not contain the NUL character (U+0000)`);
  };
  const stack: { value: unknown; path: string }[] = [{ value, path: part }];
  while (stack.length > 0) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes(NUL)) problem(path);
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i];
        // Paths past the limit are not shown: stop extending them (a deep body would make them huge).
        const childPath = path.length > MAX_PATH_LENGTH ? path : `${path}.${shown(key)}`;
        if (key.includes(NUL)) problem(childPath);
        stack.push({ value: child, path: childPath });
      }
    }
  }
  const more = found.length - MAX_NUL_PROBLEMS;
  return more > 0 ? [...found.slice(0, MAX_NUL_PROBLEMS), `and ${more} more field(s) containing U+0000`] : found;
}

/** Parses one part of a request with its contract schema; throws a BadRequest naming the fields. */
export function validatePart<T>(part: RequestPart, schema: z.ZodType<T>, value: unknown): T {
  const nul = nulProblems(part, value);
  const result = schema.safeParse(value);
  if (result.success && nul.length === 0) return result.data;
  const problems = result.success
    ? []
    : result.error.issues.map((issue) => {
        const keys = issue.code === 'unrecognized_keys' ? issue.keys.map((k) => [...issue.path, k].map(shown).join('.')) : [];
        const field = [part, ...issue.path.map(shown)].join('.');
        return keys.length > 0 ? `${part}.${keys.join(', ')}: unknown field` : `${field}: ${issue.message}`;
      });
  throw new BadRequest(`Invalid request: ${[...nul, ...problems].join('; ')}`);
}
