// The dependencies of an integration's computation, resolved for its script as GitBook's
// `ComputedContentDependencyResolved`: a `space` reference with the space and its current revision, an
// `openapi` reference with the specification of the space's organization and its last version; `value` is
// null when the caller cannot read what the reference names (a space they cannot see, a private
// specification for a caller with no role). Other kinds of reference are refused, naming the dependency.
import { and, eq } from 'drizzle-orm';
import { checkAccess, type SpaceGrant } from '../auth/access.js';
import type { Ctx } from '../context.js';
import { openAPISpecs } from '../db/schema/index.js';
import { BadRequest, Forbidden, NotFound } from '../errors.js';

type Ref = { kind: string } & Record<string, unknown>;

async function spaceValue(ctx: Ctx, spaceId: string) {
  try {
    const decision = await checkAccess(ctx, { to: 'space', role: 'read' }, { spaceId }, { spaceCounters: false });
    if (!('grant' in decision)) return null;
    const row = (decision.grant as SpaceGrant).row;
    return { object: 'space' as const, id: row.id, revision: row.revisionId };
  } catch (err) {
    if (err instanceof NotFound || err instanceof Forbidden) return null;
    throw err;
  }
}

async function specValue(ctx: Ctx, grant: SpaceGrant, slug: string) {
  const [spec] = await ctx.db
    .select()
    .from(openAPISpecs)
    .where(and(eq(openAPISpecs.organizationId, grant.row.organizationId), eq(openAPISpecs.slug, slug)));
  if (!spec || (spec.visibility !== 'public' && grant.orgRole === null)) return null;
  return {
    object: 'openapi-spec' as const,
    id: spec.id,
    slug: spec.slug,
    ...(spec.lastVersionId && { lastVersion: spec.lastVersionId }),
    visibility: spec.visibility as 'public' | 'private',
  };
}

/** Each dependency with its `value`, by name; BadRequest naming one of a kind that is not resolved here. */
export async function resolveDependencies(ctx: Ctx, grant: SpaceGrant, dependencies: Record<string, { ref: Ref }> | undefined) {
  const resolved: Record<string, { ref: Ref; value: unknown }> = {};
  for (const [name, { ref }] of Object.entries(dependencies ?? {})) {
    if (ref.kind === 'space' && typeof ref.space === 'string') resolved[name] = { ref, value: await spaceValue(ctx, ref.space) };
    else if (ref.kind === 'openapi' && typeof ref.spec === 'string') resolved[name] = { ref, value: await specValue(ctx, grant, ref.spec) };
    else throw new BadRequest(`body.source.dependencies.${name}.ref: a ${ref.kind} reference is not resolved here (only space and openapi)`);
  }
  return resolved;
}
