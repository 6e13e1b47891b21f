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

  it('raises a member to the content default level, never a guest', () => {
    expect(contentRole('read', 'edit')).toBe('edit');
    expect(contentRole('admin', 'read')).toBe('admin');
    expect(contentRole(null, 'admin')).toBeNull();
    // Levels inherited from enclosing collections raise the role too.
    expect(contentRole('read', null, 'comment', 'review')).toBe('review');
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
