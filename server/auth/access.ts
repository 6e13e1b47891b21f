// The access layer: before a handler runs, the operation's declared rule (contract/access.ts) is checked
// from one query that returns the resource with the caller's effective role on it. The handler gets that
// grant and keeps only the conditional rules (e.g. `editMode` needs admin).
import type { Access } from '../../contract/access.js';
import type { Ctx } from '../context.js';
import type { collections, organizations, spaces } from '../db/schema/index.js';
import { Forbidden, NotFound } from '../errors.js';
import { readCollectionGrant, readOrganizationGrant, readSpaceGrant } from './grants.js';
import { asRole, atLeast, contentRole, type Role } from './roles.js';

export type OrganizationRow = typeof organizations.$inferSelect;
export type CollectionRow = typeof collections.$inferSelect;
export type SpaceRow = typeof spaces.$inferSelect;

/** The counters a Space shows (its change requests by status, its open comments), read with its grant. */
export interface SpaceCounts {
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
  comments: number;
}

export interface OrganizationGrant {
  organization: OrganizationRow;
  /** The caller's role in the organization; null for a guest. */
  role: Role | null;
}

/** Content with the ingredients of the caller's role, so a handler can recompute it after a change. */
export interface ContentGrant<Row> {
  row: Row;
  /** The caller's organization role (null: guest). */
  orgRole: Role | null;
  /** Default levels inherited from enclosing collections (for a space, only when in-collection). */
  inherited: Role[];
  /** The caller's effective role on the content. */
  role: Role | null;
}

export type CollectionGrant = ContentGrant<CollectionRow>;
export interface SpaceGrant extends ContentGrant<SpaceRow> {
  /** The counters the Space shows, read with it (absent for grants read another way). */
  counts?: SpaceCounts;
  /**
   * Whether a published site publishes the space, read with it so that reading a space looks for its
   * published URL only when it has one (absent for grants read another way: then look).
   */
  onPublishedSite?: boolean;
}

/** The grant each kind of access rule hands to the handler. */
export interface Grants {
  caller: undefined;
  organization: OrganizationGrant;
  collection: CollectionGrant;
  space: SpaceGrant;
}

/** What the access check decided: go on with a grant, or answer 204 right away (idempotent delete). */
export type AccessDecision = { grant: Grants[keyof Grants] } | { noContent: true };

/** The caller's role on a space, from its own default level and, when in-collection, its collection's. */
export function spaceRole(grant: Pick<SpaceGrant, 'orgRole' | 'inherited'>, row: Pick<SpaceRow, 'defaultLevel' | 'visibility'>): Role | null {
  return contentRole(grant.orgRole, asRole(row.defaultLevel), ...(row.visibility === 'in-collection' ? grant.inherited : []));
}

/** The caller's role on a collection, from its own default level and those of the collections enclosing it. */
export function collectionRole(grant: Pick<CollectionGrant, 'orgRole' | 'inherited'>, row: Pick<CollectionRow, 'defaultLevel'>): Role | null {
  return contentRole(grant.orgRole, asRole(row.defaultLevel), ...grant.inherited);
}

/** The levels a child of `parent` inherits (a collection, or a space in-collection): the parent's own and those above it. */
export function inheritedUnder(parent: CollectionGrant | undefined): Role[] {
  return parent ? [asRole(parent.row.defaultLevel), ...parent.inherited].filter((r): r is Role => r !== null) : [];
}

/** Stored levels as roles (unknown values dropped). */
export function levels(values: string[] | null): Role[] {
  return (values ?? []).map(asRole).filter((r): r is Role => r !== null);
}

function refuse(what: string, role: Role, rule: { role: Role }): never {
  throw new Forbidden(`You need the ${rule.role} role on this ${what} (you have ${role})`);
}

async function organizationGrant(ctx: Ctx, organizationId: string, required: Role | 'guest'): Promise<OrganizationGrant> {
  const found = await readOrganizationGrant(ctx.db, organizationId, ctx.caller.userId);
  // A caller never learns whether another organization exists.
  if (!found?.isMember) throw new NotFound(`Organization ${organizationId} not found`);
  const role = asRole(found.memberRole);
  if (required !== 'guest' && !atLeast(role, required)) {
    throw new Forbidden(`You need the ${required} role in this organization (you have ${role ?? 'guest access'})`);
  }
  return { organization: found.organization, role };
}

async function collectionGrant(ctx: Ctx, collectionId: string): Promise<CollectionGrant | undefined> {
  const found = await readCollectionGrant(ctx.db, collectionId, ctx.caller.userId);
  if (!found) return undefined;
  const grant = { row: found.collection, orgRole: asRole(found.memberRole), inherited: levels(found.inherited) };
  const role = collectionRole(grant, found.collection);
  return atLeast(role, 'read') ? { ...grant, role } : undefined;
}

async function spaceGrant(ctx: Ctx, spaceId: string, includeDeleted: boolean, withCounters: boolean): Promise<SpaceGrant | undefined> {
  const found = await readSpaceGrant(ctx.db, spaceId, ctx.caller.userId, withCounters);
  if (!found || (found.space.deletedAt && !includeDeleted)) return undefined;
  const grant = { row: found.space, orgRole: asRole(found.memberRole), inherited: levels(found.inherited), counts: found.counts, onPublishedSite: found.onPublishedSite };
  const role = spaceRole(grant, found.space);
  return atLeast(role, 'read') ? { ...grant, role } : undefined;
}

/** What the operation's handler needs read with its grant. */
export interface AccessOptions {
  /**
   * The space's counters and whether a published site publishes it (SpaceGrant `counts`,
   * `onPublishedSite`): only the operations answering a Space show them; the others would read them for nothing.
   */
  spaceCounters: boolean;
}

/**
 * Applies an access rule to a request: the grant for the handler, or `noContent` for an idempotent delete
 * of something the caller cannot see. Throws NotFound for what the caller cannot see, Forbidden for too
 * low a role.
 */
export async function checkAccess(ctx: Ctx, rule: Access, params: Record<string, string>, options: AccessOptions = { spaceCounters: true }): Promise<AccessDecision> {
  switch (rule.to) {
    case 'caller':
      return { grant: undefined };
    case 'organization':
      return { grant: await organizationGrant(ctx, params.organizationId, rule.role) };
    case 'collection': {
      const grant = await collectionGrant(ctx, params.collectionId);
      if (!grant) {
        if (rule.missing === 'no-content') return { noContent: true };
        throw new NotFound(`Collection ${params.collectionId} not found`);
      }
      if (!atLeast(grant.role, rule.role)) refuse('collection', grant.role!, rule);
      return { grant };
    }
    case 'space': {
      const grant = await spaceGrant(ctx, params.spaceId, rule.deleted === true, options.spaceCounters);
      if (!grant) {
        if (rule.missing === 'no-content') return { noContent: true };
        throw new NotFound(`Space ${params.spaceId} not found`);
      }
      if (!atLeast(grant.role, rule.role)) refuse('space', grant.role!, rule);
      return { grant };
    }
  }
}

/** A grant on another collection than the operation's (a move's target parent); undefined when not visible. */
export async function findCollectionGrant(ctx: Ctx, collectionId: string): Promise<CollectionGrant | undefined> {
  return collectionGrant(ctx, collectionId);
}

/** A grant on another organization than the operation's (a transfer's target); throws NotFound or Forbidden. */
export async function requireOrganizationGrant(ctx: Ctx, organizationId: string, required: Role | 'guest'): Promise<OrganizationGrant> {
  return organizationGrant(ctx, organizationId, required);
}
