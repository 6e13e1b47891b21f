// The API form of an organization member, with the per-member counts computed in the same query.
import { sql } from 'drizzle-orm';
import type { components } from '../../generated/types.js';
import { asRole } from '../auth/roles.js';
import { memberSpaceCount, memberSpaceCountInSight } from '../auth/space-reach.js';
import { members, teamMembers, users } from '../db/schema/index.js';
import type { Urls } from '../urls.js';
import { toUser } from '../users/users.store.js';

export type Member = components['schemas']['Member'];

/**
 * The columns a member query of `organizationId` selects (members joined with users): the membership, the
 * user, and the counts. A member's `spaces` is the number of live spaces they can see (docs/permissions.md)
 * that the viewer (`viewerId`, the caller; null for an installation, which sees them all) can see too, so a
 * count never tells of a space its reader cannot see. `inSight`: the query joins viewerSightTable (a list's
 * page: its counts share what the statement computes once); a single member's read leaves it out.
 */
export function memberFields(organizationId: string, viewerId: string | null, inSight = false) {
  return {
    member: members,
    user: users,
    teamCount: sql<number>`(SELECT count(*) FROM ${teamMembers} WHERE ${teamMembers.organizationId} = ${members.organizationId} AND ${teamMembers.userId} = ${members.userId})`.mapWith(Number),
    // The outer columns are written qualified (Drizzle renders a single-table select's columns unqualified).
    // Set-wise (server/auth/space-reach.ts): a role per space and member made a page of 100 members in an
    // organization of 100 spaces take 6 s (bench/scale.ts).
    spaceCount: (inSight
      ? memberSpaceCountInSight(organizationId, sql`"members"."user_id"`, sql`"members"."role"`)
      : memberSpaceCount(organizationId, viewerId, sql`"members"."user_id"`, sql`"members"."role"`)
    ).mapWith(Number),
    // Every member with a role sees every site of the organization (a site's level is the organization role);
    // a guest sees the sites granted to them or to their teams.
    siteCount: sql<number>`(SELECT count(*) FROM sites st
      WHERE st.organization_id = ${organizationId}
        AND ("members"."role" IS NOT NULL OR EXISTS (SELECT 1 FROM content_grants g WHERE g.site_id = st.id
          AND (g.user_id = "members"."user_id" OR g.team_id IN (SELECT tm.team_id FROM team_members tm WHERE tm.organization_id = st.organization_id AND tm.user_id = "members"."user_id")))))`.mapWith(Number),
  };
}

/**
 * The viewer whose sight bounds the counts of `memberFields`: the caller, or null when the caller sees every
 * live space of the organization (an installation, or an admin: `space_role_of` is 'admin' for them on
 * every space, so their sight needs no role computed per space counted). `callerRole`: the caller's
 * organization role, when known.
 */
export function viewerOf(caller: { userId: string; installation?: unknown }, callerRole?: string | null): string | null {
  return caller.installation || callerRole === 'admin' ? null : caller.userId;
}

export interface MemberRow {
  member: typeof members.$inferSelect;
  user: typeof users.$inferSelect;
  teamCount: number;
  spaceCount: number;
  siteCount: number;
}

/** The API form of a member row. */
export function toMember(row: MemberRow, urls: Urls): Member {
  return {
    object: 'member',
    id: row.member.userId,
    role: asRole(row.member.role),
    user: toUser(row.user, urls),
    disabled: row.member.disabled,
    joinedAt: row.member.joinedAt.toISOString(),
    ...(row.member.lastSeenAt && { lastSeenAt: row.member.lastSeenAt.toISOString() }),
    sso: row.member.sso,
    spaces: row.spaceCount,
    teams: row.teamCount,
    sites: row.siteCount,
  };
}
