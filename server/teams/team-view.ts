// The API form of a team, with its member count and the caller's team role from the same query.
import { and, eq, sql } from 'drizzle-orm';
import type { components } from '../../generated/types.js';
import { atLeast, type Role } from '../auth/roles.js';
import { teamMembers, teams } from '../db/schema/index.js';

export type Team = components['schemas']['Team'];

/** The columns a team query selects: the team, its member count, and the caller's role in it. */
export function teamFields(callerId: string) {
  return {
    team: teams,
    memberCount: sql<number>`(SELECT count(*) FROM ${teamMembers} WHERE ${teamMembers.teamId} = ${teams.id})`.mapWith(Number),
    callerTeamRole: sql<string | null>`(SELECT ${teamMembers.role} FROM ${teamMembers} WHERE ${and(eq(teamMembers.teamId, teams.id), eq(teamMembers.userId, callerId))})`,
  };
}

export interface TeamRow {
  team: typeof teams.$inferSelect;
  memberCount: number;
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
    // Content is not shared with teams (no per-team grants are stored), so a team reaches no space of its own.
    spaces: 0,
    createdAt: row.team.createdAt.toISOString(),
    permissions: { admin: managesTeam(orgRole, row.callerTeamRole), view: true },
  };
}
