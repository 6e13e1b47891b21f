import type { Access } from './access.js';
import type { z } from './zod.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Error statuses an operation may declare; each maps to one shared response component. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 429 | 500 | 503;

export interface SuccessResponse {
  description: string;
  /** Absent for responses with no body (204). */
  schema?: z.ZodType;
  /** Required whenever there is a schema: the mock answers with it. */
  example?: unknown;
  /** Response headers, e.g. `Location` on a 201. */
  headers?: Record<string, { description: string; example: string }>;
  /** A body that is not JSON (a file's bytes, a PDF, an image): its media types, documented as bytes. Without `schema`. */
  mediaTypes?: string[];
  /**
   * A body that is text of a media type (YAML): documented as a string of that type (`contentMediaType`),
   * which is what a client reading it as text gets. Without `schema` or `mediaTypes`.
   */
  text?: { mediaType: string; description: string; example: string };
}

/**
 * One HTTP operation of the API. The key it is stored under in an area's operation table is its
 * operationId; the generator, the router and the request validation all read this one object.
 */
export interface Operation {
  method: HttpMethod;
  /** OpenAPI-style path without the `/v1` prefix, e.g. `/spaces/{spaceId}`. */
  path: string;
  tag: string;
  summary: string;
  description: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Realistic request body for the documentation and the mock test. */
  bodyExample?: unknown;
  /** Whether the request body may be omitted entirely (it is then validated as `{}`). */
  bodyOptional?: boolean;
  /** Largest accepted request body in bytes, when it must exceed the default (larger bodies get 413). */
  maxBodyBytes?: number;
  responses: Partial<Record<200 | 201 | 202 | 204 | 205, SuccessResponse>>;
  /** Error statuses beyond those every operation declares (see `errorsOf`). */
  errors?: ErrorStatus[];
  /** Who may call it: the resource it acts on and the role needed there, enforced before the handler. */
  access: Access;
  /**
   * Its statement budget: the most SQL statements one request of it may send after authentication
   * (transaction control not counted). A target, stated in its description; every test request is held to it.
   */
  statements: number;
}

/**
 * A path of the API served without a bearer token, beside the operations: a link whose URL is its own
 * permission (made by an operation, e.g. a file's `downloadURL`), or something public (an integration's
 * images, the published document). Published like an operation, so the mock, the typed client and the
 * breaking-change gate know it; answered by its own route (server/api.ts), not by a handler, without the
 * operations' authentication and rate limit.
 */
export interface LinkOperation {
  method: 'get';
  /** As an operation's: OpenAPI-style, without the `/v1` prefix. */
  path: string;
  tag: string;
  summary: string;
  description: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  responses: { 200: SuccessResponse };
  /** Every error it answers (500 included); no 401 nor 429. */
  errors: ErrorStatus[];
  /** `signed`: the URL carries its permission (expired: 410); `public`: anyone may read it. Every caller, with a token or not, gets the same answer. */
  permission: 'signed' | 'public';
}

/** Keeps the literal table type while checking each entry. */
export function linkOperations<const T extends Record<string, LinkOperation>>(table: T): T {
  return table;
}

/** Largest request body an operation accepts unless it says otherwise. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Keeps the literal operation table type while checking each entry. */
export function operations<const T extends Record<string, Operation>>(table: T): T {
  return table;
}

/** The sentence the published description gives an operation's statement budget. */
export function describeStatementBudget(statements: number): string {
  return `Budget: at most ${statements} SQL ${statements === 1 ? 'statement' : 'statements'} per request.`;
}

/** The error statuses its access rule can answer: 404 for a resource the caller cannot see, 403 for too low a role. */
function accessErrors(rule: Access): ErrorStatus[] {
  if (rule.to === 'caller') return [];
  const notFound: ErrorStatus[] = 'missing' in rule && rule.missing === 'no-content' ? [] : [404];
  // Seeing content takes `read`, and any member sees the organization: a lower bar cannot be refused.
  const tooLow: ErrorStatus[] = rule.role === 'guest' || (rule.to !== 'organization' && rule.role === 'read') ? [] : [403];
  return [...notFound, ...tooLow];
}

/**
 * The error statuses an operation documents: 401, 403 (an installation token outside its integration's scopes or
 * installation, whatever the operation), 429 (over the rate limit), 500 and 503 (the database unreachable) everywhere, 400 when it takes any input,
 * 413/415 when it takes a body, those of its access rule, plus those it declares itself.
 */
export function errorsOf(op: Operation): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>([401, 403, 429, 500, 503, ...accessErrors(op.access), ...(op.errors ?? [])]);
  if (op.params || op.query || op.body) statuses.add(400);
  if (op.body) {
    statuses.add(413);
    statuses.add(415);
  }
  return [...statuses].sort((a, b) => a - b);
}
