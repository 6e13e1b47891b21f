// Organization roles and the permissions they grant: plain functions, no database, no HTTP.
import { roles } from '../../contract/common.js';

export type Role = (typeof roles)[number];

const strength: Record<Role, number> = { read: 1, comment: 2, edit: 3, review: 4, create: 5, admin: 6 };

/** Whether `role` is at least `required` (null, a guest, is below every role). */
export function atLeast(role: Role | null | undefined, required: Role): boolean {
  return role != null && strength[role] >= strength[required];
}

/** The strongest of the given roles (null when there is none). */
export function strongest(...candidates: (Role | null | undefined)[]): Role | null {
  let best: Role | null = null;
  for (const role of candidates) if (role != null && (best === null || strength[role] > strength[best])) best = role;
  return best;
}

export function isRole(value: string | null | undefined): value is Role {
  // Own keys only: `constructor` or `toString` are "in" any object, and are no role.
  return value != null && Object.hasOwn(strength, value);
}

/** A stored role column: a role, or null (guests, no default level). */
export function asRole(value: string | null | undefined): Role | null {
  return isRole(value) ? value : null;
}

/**
 * What content inside a collection inherits from it: `level` is what the collection gives members (the first
 * default level up the chain that is not `inherit`: a role, or null for nothing; `inherit` when every
 * collection up to the top inherits, i.e. the organization role), `granted` the strongest grant of the
 * caller or of their teams on the collection and on those enclosing it.
 */
export interface Inherited {
  level: string | null;
  granted: Role | null;
}

/**
 * The caller's role on a piece of content (collection or space), the rule of docs/permissions.md (the
 * SQL function `content_role`, migration 0033, is the same rule for lists): nothing for a non-member;
 * admin for an organization admin; otherwise the strongest of the level the content gives members (its
 * `defaultLevel`: a role, null for nothing, `inherit` for what the enclosing collection gives, or the
 * organization role at the top; guests get no level), the caller's own and teams' grants on it, and
 * their grants on the collections around it.
 */
export function contentRole(member: boolean, orgRole: Role | null, defaultLevel: string | null, granted: Role | null, inherited: Inherited | undefined): Role | null {
  if (!member) return null;
  if (orgRole === 'admin') return 'admin';
  return strongest(orgRole === null ? null : memberLevel(orgRole, defaultLevel, inherited), granted, inherited?.granted);
}

/** The level content with `defaultLevel` gives a member whose organization role is `orgRole`. */
function memberLevel(orgRole: Role, defaultLevel: string | null, inherited: Inherited | undefined): Role | null {
  const level = defaultLevel === 'inherit' ? (inherited ? inherited.level : 'inherit') : defaultLevel;
  return level === 'inherit' ? orgRole : asRole(level);
}

export function organizationPermissions(role: Role | null, isMember: boolean) {
  const admin = atLeast(role, 'admin');
  const member = isMember && role != null;
  return {
    view: isMember,
    access: isMember,
    admin,
    ownTeam: atLeast(role, 'create'),
    createContent: atLeast(role, 'create'),
    createOpenAPISpec: atLeast(role, 'create'),
    ingestConversations: admin,
    viewBilling: admin,
    listMembers: member,
    listTeams: member,
    listIntegrations: member,
    listInstallations: admin,
    installIntegration: admin,
  };
}

export function collectionPermissions(role: Role | null) {
  return {
    view: atLeast(role, 'read'),
    admin: atLeast(role, 'admin'),
    viewInviteLinks: atLeast(role, 'admin'),
    create: atLeast(role, 'create'),
  };
}

export function spacePermissions(role: Role | null) {
  return {
    view: atLeast(role, 'read'),
    access: atLeast(role, 'read'),
    admin: atLeast(role, 'admin'),
    viewInviteLinks: atLeast(role, 'admin'),
    edit: atLeast(role, 'edit'),
    triggerGitSync: atLeast(role, 'edit'),
    comment: atLeast(role, 'comment'),
    merge: atLeast(role, 'review'),
    review: atLeast(role, 'review'),
    installIntegration: atLeast(role, 'admin'),
  };
}

/** A stored `default_level` as the API shows it: a role, `inherit`, or null (nothing). */
export function asDefaultLevel(value: string | null | undefined): Role | 'inherit' | null {
  return value === 'inherit' ? 'inherit' : asRole(value);
}
