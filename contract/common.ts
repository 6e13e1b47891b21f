// Building blocks shared by every area of the contract: roles, timestamps, the list envelope,
// pagination parameters, query coercion and the error body.
import { z } from './zod.js';

export const roles = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;

export const MemberRole = z
  .enum(roles)
  .openapi('MemberRole', {
    description:
      'Role in an organization, strongest first: admin (administrate content, create and delete spaces), create, review, edit (live or change requests), comment, read.',
    example: 'edit',
  });

/**
 * A role, or null for guests. Written as a union rather than `MemberRole.nullable()`, which
 * zod-to-openapi renders as a bare `$ref` (dropping the null) once MemberRole is a component.
 */
export const NullableRole = z.union([MemberRole, z.null()]);

/**
 * The level a piece of content (collection, space) gives every organization member, as the public API's
 * `DefaultLevel`: a role; null, nothing (only those granted reach it: a private space); or `inherit`, what the
 * enclosing collection gives (the member's organization role at the top level). New content inherits.
 * Guests get no level, only what they are granted; organization admins keep admin (docs/permissions.md).
 */
export const DefaultLevel = z.union([MemberRole, z.null(), z.literal('inherit')]).openapi('DefaultLevel', {
  description:
    'Level every organization member has on the content: a role; null for nothing (only the users and teams granted a role reach it); ' +
    '`inherit` for what the enclosing collection gives, or the member\'s organization role at the top level. ' +
    'A member\'s role on content is the strongest of this level, their own grant, their teams\' grants and the grants on the collections around it; ' +
    'organization admins keep admin; guests reach only what they are granted.',
  example: 'inherit',
});

export const TeamMemberRole = z
  .enum(['owner', 'member'])
  .openapi('TeamMemberRole', { description: 'Role in a team: owners manage the team members.', example: 'member' });

export const DateTime = z.iso.datetime({ offset: true }).openapi({ example: '2026-03-14T09:26:53.000Z' });

export const PageCursor = z
  .string()
  .min(1)
  .max(512)
  .openapi({
    description:
      'Opaque identifier of the page of results to fetch, from `next.page` of the previous page; any other value is refused (400).',
  });

/** Default page size when `limit` is absent: the public API declares none, we chose 100. */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

/**
 * `limit`: the query string carries text, so a decimal number is turned into a number before
 * validation. Only decimal notation: `Number()` would also read `0x10`, ` 5` or `0b11`, which are not
 * integers in the published document.
 */
export const PageLimit = z
  .preprocess((v) => (typeof v === 'string' && /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(v) ? Number(v) : v), z.number().int().min(1).max(MAX_PAGE_SIZE))
  .openapi({
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    description: `Maximum number of items to return (1–${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE}).`,
    example: 20,
  });

/** `page` and `limit`, for every list operation. */
export const paginationQuery = { page: PageCursor.optional(), limit: PageLimit.optional() };

/**
 * A boolean query parameter: the query string only carries text, so `true`/`false` are turned into
 * booleans before validation; anything else is refused with the parameter named.
 */
export function queryBoolean(description: string) {
  return z
    .preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean())
    .openapi({ type: 'boolean', description });
}

/** The list envelope: `{ next?: { page }, count, items }`. */
export function listOf<T extends z.ZodType>(name: string, item: T) {
  return z
    .object({
      next: z
        .object({ page: z.string().openapi({ description: 'Pass as `page` to fetch the next page.' }) })
        .optional()
        .openapi({ description: 'Absent on the last page.' }),
      count: z.number().int().openapi({ description: 'Total number of items across all pages.' }),
      items: z.array(item),
    })
    .openapi(name);
}

/** An example list page holding the given items. */
export function listExample<T>(items: T[]) {
  return { next: { page: 'eyJhZnRlciI6WyJzcGNfOHd2UkhtN1prVnRhIl19' }, count: items.length + 20, items };
}

export const errorStatusNames = {
  400: 'BadRequestError',
  401: 'UnauthorizedError',
  403: 'ForbiddenError',
  404: 'NotFoundError',
  409: 'ConflictError',
  410: 'GoneError',
  413: 'PayloadTooLargeError',
  415: 'UnsupportedMediaTypeError',
  429: 'TooManyRequestsError',
  500: 'UnexpectedError',
  503: 'ServiceUnavailableError',
} as const;

export const errorExamples: Record<keyof typeof errorStatusNames, string> = {
  400: 'Invalid request: body.title: Too big: expected string to have <=50 characters',
  401: 'Missing or invalid access token',
  403: 'You do not have the permission to perform this action',
  404: 'Space spc_8wvRHm7ZkVta not found',
  409: 'The request conflicts with the current state of the resource',
  410: 'This file link has expired; read the file again from the API for a new one',
  413: 'Request body is larger than this operation accepts',
  415: 'Request body must be application/json',
  429: 'Too many requests: at most 1200 a minute; retry after 42 s',
  500: 'An unexpected error occurred',
  503: 'The database is unavailable; retry shortly',
};

export const languages = [
  'en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'zh-tw', 'yue', 'ko', 'ar', 'hi', 'nl', 'pl', 'tr', 'sv',
  'no', 'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi', 'id', 'ms', 'he', 'uk', 'sk', 'bg', 'hr', 'lt', 'lv', 'et', 'sl',
] as const;

export const TranslationLanguage = z
  .enum(languages)
  .openapi('TranslationLanguage', { description: 'Language of content.', example: 'en' });

/**
 * Where to put a moved item among its siblings: before or after another item of the given type. Both
 * at once are refused; the published schema says so with `maxProperties: 1` (its only two properties).
 */
export function positionOf<K extends string, F extends string>(type: K, field: F, example: string) {
  const anchor = z.strictObject({ type: z.literal(type), [field]: z.string().min(1) } as {
    type: z.ZodLiteral<K>;
  } & Record<F, z.ZodString>);
  return z
    .strictObject({ before: anchor.optional(), after: anchor.optional() })
    .refine((p) => !(p.before && p.after), { message: 'give either before or after, not both' })
    .openapi({
      description: 'Either `before` or `after`, not both.',
      maxProperties: 1,
      example: { before: { type, [field]: example } },
    });
}

/**
 * An array query parameter (`?authors=a&authors=b`): a single occurrence arrives as a string and is
 * turned into a one-item array before validation.
 */
export function queryArray<T extends z.ZodType>(item: T, description: string, maxItems = 100) {
  return z
    .preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(item).max(maxItems))
    .openapi({ description });
}

/**
 * Text that is stored trimmed. The lengths apply to the text as sent (as the published `minLength` and
 * `maxLength` say); with a minimum, it must also hold a non-blank character (the published `pattern`).
 */
export function trimmedText(min: number, max?: number) {
  let text = z.string().min(min);
  if (max !== undefined) text = text.max(max);
  if (min > 0) text = text.regex(/\S/, 'must not be blank');
  return text.trim();
}
