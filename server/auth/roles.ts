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
  return value != null && value in strength;
}

/** A stored role column: a role, or null (guests, no default level). */
export function asRole(value: string | null | undefined): Role | null {
  return isRole(value) ? value : null;
}

/**
 * The caller's role on a piece of content (collection or space): the organization role, raised to the
 * content's default levels (its own and those it inherits). Guests and non-members (null) get nothing.
 */
export function contentRole(orgRole: Role | null, ...levels: (Role | null | undefined)[]): Role | null {
  return orgRole == null ? null : strongest(orgRole, ...levels);
}

export function organizationPermissions(role: Role | null, isMember: boolean) {
  const admin = atLeast(role, 'admin');
  const member = isMember && role != null;
  return {
    view: isMember,
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
