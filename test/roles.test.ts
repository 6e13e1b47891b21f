import { describe, expect, it } from 'vitest';
import { atLeast, contentRole, organizationPermissions, spacePermissions, strongest } from '../server/auth/roles.js';

describe('roles', () => {
  it('orders roles admin > create > review > edit > comment > read > guest', () => {
    expect(atLeast('admin', 'create')).toBe(true);
    expect(atLeast('review', 'edit')).toBe(true);
    expect(atLeast('edit', 'review')).toBe(false);
    expect(atLeast('read', 'read')).toBe(true);
    expect(atLeast(null, 'read')).toBe(false);
    expect(strongest('comment', 'edit')).toBe('edit');
    expect(strongest(null, 'read')).toBe('read');
    expect(strongest('read', 'admin', 'edit')).toBe('admin');
    expect(strongest(null, undefined)).toBeNull();
  });

  it('gives a member the content default level, a guest only grants, an admin admin (docs/permissions.md)', () => {
    // A level is what every member gets: it can raise or lower the organization role.
    expect(contentRole(true, 'read', 'edit', null, undefined)).toBe('edit');
    expect(contentRole(true, 'edit', 'read', null, undefined)).toBe('read');
    // Organization admins keep admin, whatever the level.
    expect(contentRole(true, 'admin', null, null, undefined)).toBe('admin');
    // null: nothing, so only a grant reaches it; inherit at the top: the organization role.
    expect(contentRole(true, 'edit', null, null, undefined)).toBeNull();
    expect(contentRole(true, 'edit', null, 'comment', undefined)).toBe('comment');
    expect(contentRole(true, 'comment', 'inherit', null, undefined)).toBe('comment');
    // inherit inside a collection: what the collection gives (its level, or inherit up to the organization role).
    expect(contentRole(true, 'edit', 'inherit', null, { level: 'read', granted: null })).toBe('read');
    expect(contentRole(true, 'edit', 'inherit', null, { level: null, granted: null })).toBeNull();
    expect(contentRole(true, 'edit', 'inherit', null, { level: 'inherit', granted: null })).toBe('edit');
    // Grants on the collections around it count, whatever the content's own level.
    expect(contentRole(true, 'read', null, null, { level: null, granted: 'review' })).toBe('review');
    // A guest gets no level, only grants; a non-member nothing at all.
    expect(contentRole(true, null, 'admin', null, undefined)).toBeNull();
    expect(contentRole(true, null, 'inherit', 'read', { level: 'edit', granted: null })).toBe('read');
    expect(contentRole(false, null, 'admin', 'admin', undefined)).toBeNull();
  });

  it('computes space permissions from a role', () => {
    expect(spacePermissions('comment')).toMatchObject({ view: true, comment: true, edit: false });
    expect(spacePermissions('review')).toMatchObject({ edit: true, review: true, merge: true, admin: false });
    expect(Object.values(spacePermissions(null)).every((v) => v === false)).toBe(true);
  });

  it('computes organization permissions from a membership', () => {
    expect(organizationPermissions('admin', true)).toMatchObject({ admin: true, viewBilling: true, createContent: true });
    expect(organizationPermissions('create', true)).toMatchObject({ admin: false, createContent: true, listMembers: true });
    expect(organizationPermissions(null, true)).toMatchObject({ view: true, listMembers: false, createContent: false });
  });
});
