// The API form of an organization member, with the per-member counts computed in the same query.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { components } from '../../generated/types.js';
import { asRole } from '../auth/roles.js';
import { members, spaces, teamMembers, users } from '../db/schema/index.js';
import type { Urls } from '../urls.js';
import { toUser } from '../users/users.store.js';

export type Member = components['schemas']['Member'];

/**
 * The columns a member query of `organizationId` selects (members joined with users): the membership, the user, and the
 * counts. Every role sees every live space of its organization (the description has no per-user grants on content), so
 * a member's `spaces` is the organization's live spaces, and 0 for a guest.
 */
export function memberFields(organizationId: string) {
  return {
    member: members,
    user: users,
    teamCount: sql<number>`(SELECT count(*) FROM ${teamMembers} WHERE ${teamMembers.organizationId} = ${members.organizationId} AND ${teamMembers.userId} = ${members.userId})`.mapWith(Number),
    // Not correlated with the member row, so the database counts the organization's spaces once per
    // query, not once per listed member (that was 100 counts of every space for a page of 100).
    spaceCount: sql<number>`CASE WHEN ${members.role} IS NULL THEN 0 ELSE (SELECT count(*) FROM ${spaces} WHERE ${and(eq(spaces.organizationId, organizationId), isNull(spaces.deletedAt))}) END`.mapWith(Number),
  };
}

export interface MemberRow {
  member: typeof members.$inferSelect;
  user: typeof users.$inferSelect;
  teamCount: number;
  spaceCount: number;
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
  };
}
