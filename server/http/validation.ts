// The one formatter of validation errors: a 400 naming each offending field.
import type { z } from 'zod';
import { BadRequest } from './errors.js';

export type RequestPart = 'params' | 'query' | 'body';

/** Parses one part of a request with its contract schema; throws a BadRequest naming the fields. */
export function validatePart<T>(part: RequestPart, schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys.map((k) => [...issue.path, k].join('.')) : [];
    const field = [part, ...issue.path.map(String)].join('.');
    return keys.length > 0 ? `${part}.${keys.join(', ')}: unknown field` : `${field}: ${issue.message}`;
  });
  throw new BadRequest(`Invalid request: ${problems.join('; ')}`);
}
