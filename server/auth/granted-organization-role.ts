// The caller's organization role as the organization grant gives it (access.ts, installation-caller.ts), in a
// form a read attached to that grant (attached-read.ts) can use before the grant is known: the select
// computes the roles it shows from it in SQL, in the grant's own statement.
import { sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../context.js';

/**
 * An installation acts as an admin; a site's token reads with the `read` role (site-token-caller.ts); a member
 * has their membership's role, read in SQL as the organization grant reads it (a disabled member has none; a
 * guest's is null); undefined for an integration's own token, whose access is checked otherwise and whose
 * reads are not attached.
 */
export function grantedOrganizationRole(ctx: Ctx, organizationId: string): 'admin' | 'read' | SQL<string | null> | undefined {
  const { installation, site, integration } = ctx.caller;
  if (installation) return 'admin';
  if (site) return 'read';
  if (integration) return undefined;
  return sql<string | null>`(SELECT m.role FROM members m WHERE m.organization_id = ${organizationId} AND m.user_id = ${ctx.caller.userId} AND NOT m.disabled)`;
}

/**
 * The role on content that `role` computes for a member whose organization role is `orgRole` (a role, or SQL
 * that reads it), but 'admin' for an organization admin, who keeps admin on everything (roles.ts
 * contentRole), without computing `role` for them: what it reads runs only in the CASE's branch that needs it.
 */
export function unlessAdmin(orgRole: string | null | SQL, role: SQL<string | null>): SQL<string | null> {
  if (orgRole === 'admin') return sql<string | null>`'admin'::text`;
  if (orgRole === null || typeof orgRole === 'string') return role;
  return sql<string | null>`(CASE WHEN ${orgRole} = 'admin' THEN 'admin'::text ELSE ${role} END)`;
}
