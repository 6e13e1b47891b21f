// The caller's right to read a space's content (the `read` rule of getCurrentRevision), written as SQL over a
// row `x` of spaces, for a statement that reads other spaces than the request's own in the same round trip
// (server/revisions/other-spaces-attached.ts: the spaces a dereferenced document includes content of). The
// same rule as a request to the space would apply, by caller:
// - a user: their role on it (SQL function space_role_of, the rule of docs/permissions.md that access.ts
//   applies in code), on a live space;
// - an installation: its scopes allow the read (checked here, in code), and the space is live, of its
//   organization and one it covers (installation-caller.ts);
// - a site token: not expired (checked here), and the space is live, one the token names, of its organization,
//   in a site space of its site while the site is published (site-token-caller.ts).
import type { Ctx } from '../context.js';
import { isIntegrationOwnOperation, scopesAllowing } from './installation-scopes.js';

/** SQL deciding whether the caller may read the space `x`: `join` after `x` in FROM, `condition` in WHERE. */
export interface SpaceReadSql {
  /** Names the SQL's text (statements are prepared by it). */
  kind: 'user' | 'installation' | 'site' | 'none';
  /** Its parameters, as `condition`'s, numbered from `first`. */
  join: (first: number) => string;
  /** Its parameters numbered from `first`. */
  condition: (first: number) => string;
  params: unknown[];
}

/** The operation whose rule a read of another space's content applies: reading its current revision. */
const READ_OPERATION = 'getCurrentRevision';

const nothing: SpaceReadSql = { kind: 'none', join: () => '', condition: () => 'false', params: [] };

/** The rule of a space read for the caller of `ctx`, as SQL over the spaces row `x`. */
export function spaceReadSql(ctx: Ctx): SpaceReadSql {
  const { installation, site, userId } = ctx.caller;
  if (installation) {
    const allowing = scopesAllowing(READ_OPERATION);
    if (!isIntegrationOwnOperation(READ_OPERATION) && !allowing.some((scope) => installation.scopes.includes(scope))) return nothing;
    return {
      kind: 'installation',
      join: () => '',
      condition: (first) =>
        `x.deleted_at IS NULL AND x.organization_id = $${first}::text AND ($${first + 1}::int = 1 OR x.id IN (SELECT jsonb_array_elements_text($${first + 2}::jsonb)))`,
      // 1 or 0: a prepared statement on PGlite takes no booleans.
      params: [installation.organizationId, installation.spaceSelection === 'all' ? 1 : 0, JSON.stringify(installation.spaceIds)],
    };
  }
  if (site) {
    if (ctx.now().getTime() >= site.expiresAt) return nothing;
    return {
      kind: 'site',
      join: () => '',
      condition: (first) =>
        `x.deleted_at IS NULL AND x.organization_id = $${first}::text AND x.id IN (SELECT jsonb_array_elements_text($${first + 2}::jsonb))
          AND EXISTS (SELECT 1 FROM site_spaces ss JOIN sites t ON t.id = ss.site_id WHERE ss.space_id = x.id AND t.id = $${first + 1}::text AND t.published)`,
      params: [site.organizationId, site.siteId, JSON.stringify(site.spaceIds)],
    };
  }
  return {
    kind: 'user',
    // Disabled members count as none, as in the grant queries (grants.ts).
    join: (first) => `LEFT JOIN members xm ON xm.organization_id = x.organization_id AND xm.user_id = $${first}::text AND NOT xm.disabled`,
    condition: (first) => `x.deleted_at IS NULL AND space_role_of(x, $${first}::text, xm.user_id IS NOT NULL, xm.role) IS NOT NULL`,
    params: [userId],
  };
}
