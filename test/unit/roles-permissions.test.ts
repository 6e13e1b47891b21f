// The permissions each role grants (server/auth/roles.ts), as tables written from docs/permissions.md and
// not from the code: one row per role, every permission of organizations, collections and spaces.
import { describe, expect, it } from 'vitest';
import { asDefaultLevel, asRole, collectionPermissions, isRole, organizationPermissions, spacePermissions, strongest, type Role } from '../../server/auth/roles.js';

const ladder: (Role | null)[] = [null, 'read', 'comment', 'edit', 'review', 'create', 'admin'];
/** The roles of the ladder at or above `role`. */
const from = (role: Role) => ladder.slice(ladder.indexOf(role));
const row = (role: Role | null, at: Record<string, Role>) => Object.fromEntries(Object.entries(at).map(([name, least]) => [name, role !== null && from(least).includes(role)]));

describe('permissions by role', () => {
  it('on an organization, for members and for a caller outside it', () => {
    for (const role of ladder) {
      const least = { admin: 'admin', ownTeam: 'create', createContent: 'create', createOpenAPISpec: 'create', ingestConversations: 'admin', viewBilling: 'admin', listInstallations: 'admin', installIntegration: 'admin' } as const;
      expect(organizationPermissions(role, true), String(role)).toEqual({
        view: true,
        // GitBook's `access`: a member reaches the organization, as `view` says.
        access: true,
        ...row(role, least),
        listMembers: role !== null,
        listTeams: role !== null,
        listIntegrations: role !== null,
      });
    }
    // Not a member (a caller reaching content only through grants): neither sees nor lists the organization.
    expect(organizationPermissions(null, false)).toMatchObject({ view: false, access: false, listMembers: false, listTeams: false, listIntegrations: false, admin: false });
    expect(organizationPermissions('admin', false)).toMatchObject({ view: false, listMembers: false });
  });

  it('on a collection', () => {
    for (const role of ladder) {
      expect(collectionPermissions(role), String(role)).toEqual(row(role, { view: 'read', admin: 'admin', viewInviteLinks: 'admin', create: 'create' }));
    }
  });

  it('on a space', () => {
    for (const role of ladder) {
      expect(spacePermissions(role), String(role)).toEqual(
        row(role, {
          view: 'read',
          access: 'read',
          admin: 'admin',
          viewInviteLinks: 'admin',
          edit: 'edit',
          triggerGitSync: 'edit',
          comment: 'comment',
          merge: 'review',
          review: 'review',
          installIntegration: 'admin',
        }),
      );
    }
  });
});

describe('stored roles and levels', () => {
  it('reads a stored role: one of the six, else none', () => {
    for (const role of ladder.slice(1)) expect([isRole(role), asRole(role)]).toEqual([true, role]);
    for (const other of ['owner', 'Admin', '', 'constructor', 'toString', null, undefined]) {
      expect([isRole(other), asRole(other)], String(other)).toEqual([false, null]);
    }
  });

  it('reads a stored default level: a role, inherit, or nothing', () => {
    expect(asDefaultLevel('inherit')).toBe('inherit');
    expect(asDefaultLevel('edit')).toBe('edit');
    expect(asDefaultLevel(null)).toBeNull();
    expect(asDefaultLevel('nothing')).toBeNull();
  });

  it('keeps the first of equally strong roles and skips guests', () => {
    expect(strongest(null, 'read', null)).toBe('read');
    expect(strongest('review', 'create', 'review')).toBe('create');
    expect(strongest()).toBeNull();
  });
});
