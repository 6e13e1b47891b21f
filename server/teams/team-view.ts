// The API form of a team, with its member count and the caller's team role from the same query.
import { and, eq, sql } from 'drizzle-orm';
import type { components } from '../../generated/types.js';
import { atLeast, type Role } from '../auth/roles.js';
import { teamSpaceCount, teamSpaceCountInSight } from '../auth/space-reach.js';
import { teamMembers, teams } from '../db/schema/index.js';

export type Team = components['schemas']['Team'];

/**
 * The columns a team query selects: the team, its member count, the number of live spaces its grants reach
 * (on the space, or on a collection around an in-collection space: docs/permissions.md) that the caller can
 * see too, and the caller's role in it. `inSightOf`: the organization whose list's long page (SIGHT_FROM_ROWS)
 * the rows are, the query joining the caller's sight of it (viewerSightTable): the counts share what the
 * statement computes once. A single team's read and a short page leave it out.
 */
export function teamFields(callerId: string, inSightOf?: string) {
  return {
    team: teams,
    memberCount: sql<number>`(SELECT count(*) FROM ${teamMembers} WHERE ${teamMembers.teamId} = ${teams.id})`.mapWith(Number),
    // The outer columns are written qualified (Drizzle renders a single-table select's columns unqualified).
    // Found from the team's grants (server/auth/space-reach.ts), the caller's role computed on those spaces
    // only: the chain of every space of the organization, per team, made a page of 100 teams take 0.7 s.
    spaceCount: (inSightOf === undefined
      ? teamSpaceCount(sql`"teams"."organization_id"`, sql`"teams"."id"`, callerId)
      : teamSpaceCountInSight(inSightOf, sql`"teams"."id"`)
    ).mapWith(Number),
    callerTeamRole: sql<string | null>`(SELECT ${teamMembers.role} FROM ${teamMembers} WHERE ${and(eq(teamMembers.teamId, teams.id), eq(teamMembers.userId, callerId))})`,
  };
}

export interface TeamRow {
  team: typeof teams.$inferSelect;
  memberCount: number;
  spaceCount: number;
  callerTeamRole: string | null;
}

/** Whether a caller with this organization role and team role may manage the team (rename, members). */
export function managesTeam(orgRole: Role | null, teamRole: string | null | undefined): boolean {
  return atLeast(orgRole, 'admin') || teamRole === 'owner';
}

/** The API form of a team row for a caller with `orgRole` in the organization. */
export function toTeam(row: TeamRow, orgRole: Role | null): Team {
  return {
    object: 'team',
    id: row.team.id,
    title: row.team.title,
    members: row.memberCount,
    spaces: row.spaceCount,
    createdAt: row.team.createdAt.toISOString(),
    permissions: { admin: managesTeam(orgRole, row.callerTeamRole), view: true },
  };
}
