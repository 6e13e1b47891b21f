// The access layer: before a handler runs, the operation's declared rule (contract/access.ts) is checked
// from one query that returns the resource with the caller's effective role on it. The handler gets that
// grant and keeps only the conditional rules (e.g. `editMode` needs admin).
import type { Access } from '../../contract/access.js';
import type { Ctx } from '../context.js';
import type { collections, organizations, spaces } from '../db/schema/index.js';
import { Forbidden, NotFound } from '../errors.js';
import type { AttachedRead } from '../db/attached-select.js';
import { readCollectionGrant, readOrganizationGrant, readOrganizationSiteGrant, readSiteOrganizationGrant, readSpaceGrant, type PublishedPlace } from './grants.js';
import { asRole, atLeast, contentRole, strongest, type Inherited, type Role } from './roles.js';

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
  /**
   * For an operation on a site (`{siteId}` in its path): the caller's role on that site, their
   * organization role raised by their and their teams' grants on it (absent otherwise).
   */
  siteRole?: Role | null;
  /** The row of the grant query with what the operation attached to it (AccessOptions `attach`), when it did. */
  attached?: Record<string, unknown>;
}

/**
 * The ingredients of the caller's role on content (docs/permissions.md), so a handler can recompute it
 * after a change (a new default level, a move).
 */
export interface RoleBasis {
  /** Whether the caller is an (enabled) member of the content's organization, guests included. */
  member: boolean;
  /** The caller's organization role (null: guest, or not a member). */
  orgRole: Role | null;
  /** The strongest grant of the caller or of their teams on the content itself. */
  granted: Role | null;
  /** What it inherits from the collections around it (for a space, only when in-collection). */
  inherited: Inherited | undefined;
}

/** Content with the ingredients of the caller's role, so a handler can recompute it after a change. */
export interface ContentGrant<Row> extends RoleBasis {
  row: Row;
  /** The caller's effective role on the content. */
  role: Role | null;
}

export interface CollectionGrant extends ContentGrant<CollectionRow> {
  /** The row of the grant query with what the operation attached to it (AccessOptions `attach`), when it did. */
  attached?: Record<string, unknown>;
}
export interface SpaceGrant extends ContentGrant<SpaceRow> {
  /** The counters the Space shows, read with it (absent for grants read another way). */
  counts?: SpaceCounts;
  /**
   * Where published sites publish the space (server/auth/grants.ts `publishedPlacesOf`), read with it so
   * that reading a space builds its published URL with no other query (absent for grants read another
   * way: then look).
   */
  publishedOn?: PublishedPlace[];
  /** The row of the grant query with what the operation attached to it (AccessOptions `attach`), when it did. */
  attached?: Record<string, unknown>;
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

/** The caller's role on a space: its own default level and grants, and its collections' when in-collection. */
export function spaceRole(basis: RoleBasis, row: Pick<SpaceRow, 'defaultLevel' | 'visibility'>): Role | null {
  return contentRole(basis.member, basis.orgRole, row.defaultLevel, basis.granted, row.visibility === 'in-collection' ? basis.inherited : undefined);
}

/** The caller's role on a collection: its own default level and grants, and those of the collections enclosing it. */
export function collectionRole(basis: RoleBasis, row: Pick<CollectionRow, 'defaultLevel'>): Role | null {
  return contentRole(basis.member, basis.orgRole, row.defaultLevel, basis.granted, basis.inherited);
}

/** What a child of `parent` (a collection, or a space in-collection) inherits: the parent's level and the grants on it and above. */
export function inheritedUnder(parent: CollectionGrant | undefined): Inherited | undefined {
  if (!parent) return undefined;
  // An inherited level of null (a collection above gives nothing) stays null, as in collection_chain_access;
  // only a parent at the top (nothing inherited) passes `inherit` on, to the organization role.
  const level = parent.row.defaultLevel === 'inherit' ? (parent.inherited ? parent.inherited.level : 'inherit') : parent.row.defaultLevel;
  return { level, granted: strongest(parent.granted, parent.inherited?.granted) };
}

/** The `{level, granted}` pair the SQL function collection_chain_access returns, read. */
export function inheritedOf(raw: (string | null)[] | null | undefined): Inherited | undefined {
  return raw ? { level: raw[0] ?? null, granted: asRole(raw[1]) } : undefined;
}

/** The role basis of a grant query's row. */
function basisOf(found: { memberRole: string | null; isMember: boolean; granted: string | null; inherited: (string | null)[] | null }): RoleBasis {
  return { member: found.isMember, orgRole: asRole(found.memberRole), granted: asRole(found.granted), inherited: inheritedOf(found.inherited) };
}

/** The basis of a role for a member of an organization (lists built from an organization grant), before grants. */
export function memberBasis(org: OrganizationGrant, inherited?: Inherited): RoleBasis {
  return { member: true, orgRole: org.role, granted: null, inherited };
}

/**
 * A refusal (403) of a caller the grant's statement found: what the operation attached to it comes with it, for
 * an operation whose answer to a refused caller depends on it (ui-render.store.ts: an integration they cannot
 * see is a 404 first).
 */
export class RefusedGrant extends Forbidden {
  declare readonly attached: Record<string, unknown> | undefined;

  constructor(message: string, attached: Record<string, unknown> | undefined) {
    super(message);
    // Not enumerable: the row (an integration's script and secrets, say) is never written out with the error.
    Object.defineProperty(this, 'attached', { value: attached, enumerable: false });
  }
}

function refuse(what: string, role: Role, rule: { role: Role }, attached?: Record<string, unknown>): never {
  throw new RefusedGrant(`You need the ${rule.role} role on this ${what} (you have ${role})`, attached);
}

/** The organization grant of a caller `found` as a member: NotFound for anyone else, Forbidden below `required`. */
function organizationDecision(
  organizationId: string,
  required: Role | 'guest',
  found: { organization?: OrganizationRow; memberRole: string | null; isMember: boolean; attached?: Record<string, unknown> } | undefined,
): OrganizationGrant {
  // A caller never learns whether another organization exists. (A member's row always has its organization.)
  if (!found?.isMember) throw new NotFound(`Organization ${organizationId} not found`);
  const role = asRole(found.memberRole);
  if (required !== 'guest' && !atLeast(role, required)) {
    throw new RefusedGrant(`You need the ${required} role in this organization (you have ${role ?? 'guest access'})`, found.attached);
  }
  return { organization: found.organization!, role, ...(found.attached && { attached: found.attached }) };
}

async function organizationGrant(ctx: Ctx, organizationId: string, required: Role | 'guest', siteId?: string, attach?: AttachedRead): Promise<OrganizationGrant> {
  if (siteId !== undefined) return organizationSiteGrant(ctx, organizationId, required, siteId, attach);
  return organizationDecision(organizationId, required, await readOrganizationGrant(ctx.db, organizationId, ctx.caller.userId, attach, required));
}

/**
 * An operation on a site: the caller's role there is their organization role raised by their and their
 * teams' grants on the site (an admin keeps admin), and that is what the rule's role is checked against.
 */
async function organizationSiteGrant(ctx: Ctx, organizationId: string, required: Role | 'guest', siteId: string, attach?: AttachedRead): Promise<OrganizationGrant> {
  const found = await readOrganizationSiteGrant(ctx.db, organizationId, ctx.caller.userId, siteId, attach, required);
  if (!found?.isMember) throw new NotFound(`Organization ${organizationId} not found`);
  const role = asRole(found.memberRole);
  const siteRole = role === 'admin' ? role : strongest(role, asRole(found.siteGranted));
  if (required !== 'guest' && !atLeast(siteRole, required)) {
    throw new Forbidden(`You need the ${required} role on this site (you have ${siteRole ?? 'guest access'})`);
  }
  return { organization: found.organization, role, siteRole, ...(found.attached && { attached: found.attached }) };
}

async function collectionGrant(ctx: Ctx, collectionId: string, attach?: AttachedRead): Promise<CollectionGrant | undefined> {
  const found = await readCollectionGrant(ctx.db, collectionId, ctx.caller.userId, attach);
  if (!found) return undefined;
  const grant = { row: found.collection, ...basisOf(found), ...(found.attached && { attached: found.attached }) };
  const role = collectionRole(grant, found.collection);
  return atLeast(role, 'read') ? { ...grant, role } : undefined;
}

async function spaceGrant(ctx: Ctx, spaceId: string, rule: { role: Role; deleted?: boolean }, options: AccessOptions): Promise<SpaceGrant | undefined> {
  const found = await readSpaceGrant(ctx.db, spaceId, ctx.caller.userId, options.spaceCounters, options.attach, rule);
  if (!found || (found.space.deletedAt && rule.deleted !== true)) return undefined;
  const grant = { row: found.space, ...basisOf(found), counts: found.counts, publishedOn: found.publishedOn, attached: found.attached };
  const role = spaceRole(grant, found.space);
  return atLeast(role, 'read') ? { ...grant, role } : undefined;
}

/** What the operation's handler needs read with its grant. */
export interface AccessOptions {
  /**
   * The space's counters and where published sites publish it (SpaceGrant `counts`,
   * `publishedOn`): only the operations answering a Space show them; the others would read them for nothing.
   */
  spaceCounters: boolean;
  /** What the operation reads besides its space, collection or organization, in the grant's statement (attached-read.ts). */
  attach?: AttachedRead;
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
      return { grant: await organizationGrant(ctx, params.organizationId, rule.role, params.siteId, options.attach) };
    case 'collection': {
      const grant = await collectionGrant(ctx, params.collectionId, options.attach);
      if (!grant) {
        if (rule.missing === 'no-content') return { noContent: true };
        throw new NotFound(`Collection ${params.collectionId} not found`);
      }
      if (!atLeast(grant.role, rule.role)) refuse('collection', grant.role!, rule);
      return { grant };
    }
    case 'space': {
      const grant = await spaceGrant(ctx, params.spaceId, rule, options);
      if (!grant) {
        if (rule.missing === 'no-content') return { noContent: true };
        throw new NotFound(`Space ${params.spaceId} not found`);
      }
      if (!atLeast(grant.role, rule.role)) refuse('space', grant.role!, rule, grant.attached);
      return { grant };
    }
  }
}

/**
 * The grant of an operation on the site `siteId` that names no organization (an integration's configuration
 * screen of a site): the site's organization, read with `attach` in one statement, its write made for a member
 * with `required` only. `attached` comes whatever the caller, for the operation to choose its answer's order;
 * `grant()` is the organization grant, as an operation naming that organization would be given it (NotFound,
 * RefusedGrant); no `grant` when there is no such site.
 */
export async function siteOrganizationGrant(ctx: Ctx, siteId: string, required: Role | 'guest', attach: AttachedRead) {
  const found = await readSiteOrganizationGrant(ctx.db, siteId, ctx.caller.userId, attach, required);
  const organization = found.organization;
  return { attached: found.attached, grant: organization && (() => organizationDecision(organization.id, required, found)) };
}

/** A grant on another collection than the operation's (a move's target parent); undefined when not visible. */
export async function findCollectionGrant(ctx: Ctx, collectionId: string): Promise<CollectionGrant | undefined> {
  return collectionGrant(ctx, collectionId);
}

/** A grant on another organization than the operation's (a transfer's target); throws NotFound or Forbidden. */
export async function requireOrganizationGrant(ctx: Ctx, organizationId: string, required: Role | 'guest'): Promise<OrganizationGrant> {
  return organizationGrant(ctx, organizationId, required);
}

/** The role another user (`userId`) has on a space, by the same rule as a caller's; null when they cannot see it. */
export async function roleOfUserOnSpace(ctx: Ctx, spaceId: string, userId: string): Promise<Role | null> {
  const found = await readSpaceGrant(ctx.db, spaceId, userId, false);
  return found && !found.space.deletedAt ? spaceRole(basisOf(found), found.space) : null;
}

/** The role another user (`userId`) has on a collection, by the same rule as a caller's; null when they cannot see it. */
export async function roleOfUserOnCollection(ctx: Ctx, collectionId: string, userId: string): Promise<Role | null> {
  const found = await readCollectionGrant(ctx.db, collectionId, userId);
  return found ? collectionRole(basisOf(found), found.collection) : null;
}
