// The caller's activity ping: records `lastSeenAt` and hands back signed visitor claims.
import { and, eq } from 'drizzle-orm';
import type { OrganizationGrant } from '../auth/access.js';
import type { Ctx } from '../context.js';
import { members } from '../db/schema/index.js';
import { signVisitorClaims } from './visitor-claims.js';

/** Sets the caller's last-seen time in the organization to now and returns its visitor claims token. */
export async function pingMember(ctx: Ctx, org: OrganizationGrant): Promise<{ serviceVisitorClaims: string }> {
  await ctx.db
    .update(members)
    .set({ lastSeenAt: ctx.now() })
    .where(and(eq(members.organizationId, org.organization.id), eq(members.userId, ctx.caller.userId)));
  const token = await signVisitorClaims(ctx, { userId: ctx.caller.userId, organizationId: org.organization.id, role: org.role });
  return { serviceVisitorClaims: token };
}
