// The pure part of the access layer (server/auth/access.ts): a caller's role on a space or a collection
// from its default level, grants and what it inherits (docs/permissions.md); the database reads around it
// are proven by test/access-matrix.test.ts and test/access-inheritance.test.ts.
import { describe, expect, it } from 'vitest';
import { collectionRole, inheritedOf, inheritedUnder, memberBasis, spaceRole, type CollectionGrant, type RoleBasis } from '../../server/auth/access.js';

const basis = (over: Partial<RoleBasis> = {}): RoleBasis => ({ member: true, orgRole: 'read', granted: null, inherited: undefined, ...over });
const collection = (defaultLevel: string | null, over: Partial<CollectionGrant> = {}) =>
  ({ row: { defaultLevel }, member: true, orgRole: 'read', granted: null, inherited: undefined, role: null, ...over }) as unknown as CollectionGrant;

describe('roles on content', () => {
  it('a space in a collection inherits from it; a space outside does not', () => {
    const inherited = { level: 'edit', granted: 'review' as const };
    expect(spaceRole(basis({ inherited }), { defaultLevel: 'inherit', visibility: 'in-collection' })).toBe('review');
    expect(spaceRole(basis({ inherited }), { defaultLevel: 'inherit', visibility: 'public' })).toBe('read');
    expect(spaceRole(basis({ inherited: { level: 'edit', granted: null } }), { defaultLevel: 'inherit', visibility: 'in-collection' })).toBe('edit');
    expect(spaceRole(basis({ member: false, granted: 'admin' }), { defaultLevel: 'edit', visibility: 'public' })).toBeNull();
  });

  it('a collection takes its level, the grants on it and those it inherits', () => {
    expect(collectionRole(basis(), { defaultLevel: 'comment' })).toBe('comment');
    expect(collectionRole(basis({ granted: 'create' }), { defaultLevel: null })).toBe('create');
    expect(collectionRole(basis({ inherited: { level: null, granted: 'edit' } }), { defaultLevel: null })).toBe('edit');
    expect(collectionRole(basis({ orgRole: 'admin' }), { defaultLevel: null })).toBe('admin');
  });

  it('what a child inherits: the parent level (or what the parent inherits), and the strongest grant above', () => {
    expect(inheritedUnder(undefined)).toBeUndefined();
    expect(inheritedUnder(collection('edit', { granted: 'read' }))).toEqual({ level: 'edit', granted: 'read' });
    expect(inheritedUnder(collection('inherit', { inherited: { level: 'comment', granted: 'review' }, granted: 'edit' }))).toEqual({ level: 'comment', granted: 'review' });
    expect(inheritedUnder(collection('inherit', { inherited: { level: null, granted: null } }))).toEqual({ level: null, granted: null });
    expect(inheritedUnder(collection('inherit'))).toEqual({ level: 'inherit', granted: null });
    expect(inheritedUnder(collection(null, { granted: 'admin', inherited: { level: 'read', granted: 'edit' } }))).toEqual({ level: null, granted: 'admin' });
  });

  it('reads the pair the database function returns', () => {
    expect(inheritedOf(null)).toBeUndefined();
    expect(inheritedOf(undefined)).toBeUndefined();
    expect(inheritedOf(['inherit', 'edit'])).toEqual({ level: 'inherit', granted: 'edit' });
    expect(inheritedOf([null, null])).toEqual({ level: null, granted: null });
    expect(inheritedOf([])).toEqual({ level: null, granted: null });
    expect(inheritedOf(['read', 'nonsense'])).toEqual({ level: 'read', granted: null });
  });

  it('a member of the organization, before grants', () => {
    const org = { organization: {} as never, role: 'edit' as const };
    expect(memberBasis(org)).toEqual({ member: true, orgRole: 'edit', granted: null, inherited: undefined });
    expect(memberBasis(org, { level: 'read', granted: null })).toEqual({ member: true, orgRole: 'edit', granted: null, inherited: { level: 'read', granted: null } });
  });
});
