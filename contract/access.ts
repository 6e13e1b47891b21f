// Who may call an operation, declared beside it: the resource it acts on (taken from its path) and the
// role the caller needs there. The server enforces it before the handler runs (server/auth/access.ts),
// the published description states it, and the access-matrix test checks it for every kind of caller.
import { roles } from './common.js';

export type Role = (typeof roles)[number];

export type Access =
  /** Any authenticated caller; the handler applies its own rules. */
  | { to: 'caller' }
  /** A member of the organization `{organizationId}` with at least `role` (`guest`: any member, guests included). */
  | { to: 'organization'; role: Role | 'guest' }
  /** The collection `{collectionId}` with at least `role` on it. */
  | { to: 'collection'; role: Role; missing?: 'no-content' }
  /**
   * The space `{spaceId}` with at least `role` on it. `missing: 'no-content'` answers 204 when the space
   * does not exist or is not visible (idempotent deletes); `deleted: true` also finds deleted spaces.
   */
  | { to: 'space'; role: Role; missing?: 'no-content'; deleted?: true };

export type AccessKind = Access['to'];

/** Shorthands for the declarations. */
export const access = {
  caller: (): Access => ({ to: 'caller' }),
  organization: (role: Role | 'guest'): Access => ({ to: 'organization', role }),
  collection: (role: Role, options: { missing?: 'no-content' } = {}): Access => ({ to: 'collection', role, ...options }),
  space: (role: Role, options: { missing?: 'no-content'; deleted?: true } = {}): Access => ({ to: 'space', role, ...options }),
};

/**
 * How a caller's role on a space or collection is decided (docs/permissions.md), as every operation on one
 * states it; a space or collection the caller has no role on is not found (404).
 */
export const CONTENT_ROLE_RULE =
  'the strongest of the level its `defaultLevel` gives organization members (`inherit`: what the enclosing collection gives, ' +
  'or their organization role at the top; `null`: nothing), the role given to the caller, to their teams, and on the collections around it ' +
  '(for a space, when `in-collection`); organization admins have `admin`; guests only what they were given. Without any role, it is not found (404).';

/** The sentence the published description gives an operation's access rule. */
export function describeAccess(rule: Access): string {
  switch (rule.to) {
    case 'caller':
      return 'Open to any authenticated caller.';
    case 'organization':
      return rule.role === 'guest'
        ? 'Requires membership of the organization (guests included).'
        : `Requires the \`${rule.role}\` role in the organization.`;
    case 'collection':
    case 'space':
      return `Requires the \`${rule.role}\` role on the ${rule.to}: ${CONTENT_ROLE_RULE}`;
  }
}
