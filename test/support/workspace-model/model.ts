// The reference model of the model-based test (test/fuzz-sequences.test.ts): what one organization holds
// and what each call should answer, written from the API description, independently of the server's code.
// Commands (the other files of this folder) run a real call, compare its answer with the model, update the
// model, then compare the relevant reads.
import fc from 'fast-check';
import { expect } from 'vitest';
import type { ApiResponse } from '../api.js';
import type { Account, Harness } from '../harness.js';

/** Roles from the weakest to the strongest; `null` is a guest (a member with no role). */
export const roleOrder = ['read', 'comment', 'edit', 'review', 'create', 'admin'] as const;
export type Role = (typeof roleOrder)[number];

/** What a space's or collection's `defaultLevel` gives every member: a role, `inherit` (its collection's, at the top the organization role), or nothing. */
export type Level = Role | 'inherit' | null;

export interface TreeItem {
  id: string;
  title: string;
  parent: string | null;
  deleted: boolean;
  defaultLevel: Level;
}

export interface Page {
  title: string;
  text: string;
}

export interface ChangeRequest {
  id: string;
  number: number;
  subject: string;
  status: 'open' | 'merged';
  /** The space's pages when it was created (its base). */
  base: Page[];
  /** The pages it inserts. */
  added: Page[];
}

export interface Comment {
  id: string;
  text: string;
  replies: number;
  deleted: boolean;
}

export interface SpaceItem extends TreeItem {
  /** The pages of its current revision, in order. */
  pages: Page[];
  changeRequests: ChangeRequest[];
  comments: Comment[];
}

export interface Member {
  userId: string;
  role: Role | null;
  removed: boolean;
}

export interface Site {
  id: string;
  title: string;
  /** The spaces it publishes (its site spaces), in the order they were added. */
  spaces: string[];
  published: boolean;
  deleted: boolean;
}

export interface Team {
  id: string;
  /** User ids of its members. */
  members: string[];
  deleted: boolean;
}

export type Resource = 'space' | 'collection' | 'site';

/** A role given on a space, collection or site to a member (guests included) or a team. */
export interface Grant {
  resource: Resource;
  resourceId: string;
  principal: 'user' | 'team';
  principalId: string;
  role: Role;
}

export interface Integration {
  name: string;
  /** The installation in the organization, when installed. */
  installation: string | null;
}

export interface Model {
  collections: TreeItem[];
  spaces: SpaceItem[];
  /** Members added during the run (the organization's owner, an admin, is not among them). */
  members: Member[];
  sites: Site[];
  integrations: Integration[];
  teams: Team[];
  /** At most one per resource and principal (giving again replaces the role). */
  grants: Grant[];
}

export interface Real {
  h: Harness;
  /** The owner of the organization, an admin. */
  admin: Account;
  /** The accounts of the members the run added, by user id. */
  accounts: Map<string, Account>;
  /** The admin of a second organization, and a space of it (made on first use): nothing of one organization reaches the other. */
  other: Account;
  otherSpace?: string;
}

export type Cmd = fc.AsyncCommand<Model, Real>;

export const emptyModel = (): Model => ({ collections: [], spaces: [], members: [], sites: [], integrations: [], teams: [], grants: [] });

/** How many times each kind of command ran (passed its precondition), over the whole test file. */
export const commandsRun = new Map<string, number>();
/** The milliseconds each kind of command took, together (printed with the counts: where the test's time goes). */
export const commandsTime = new Map<string, number>();

export const command = (describe: string, check: (m: Readonly<Model>) => boolean, run: (m: Model, r: Real) => Promise<void>): Cmd => ({
  check,
  run: async (m, r) => {
    const kind = describe.replace(/\(.*$/, '');
    commandsRun.set(kind, (commandsRun.get(kind) ?? 0) + 1);
    const started = performance.now();
    try {
      await run(m, r);
    } finally {
      commandsTime.set(kind, (commandsTime.get(kind) ?? 0) + performance.now() - started);
    }
  },
  toString: () => describe,
});

export const always = () => true;

/** The n-th of `items` (modulo their number), or undefined when there are none. */
export const pick = <T>(items: T[], n: number): T | undefined => (items.length === 0 ? undefined : items[n % items.length]);
export const live = <T extends { deleted: boolean }>(items: T[]) => items.filter((i) => !i.deleted);

export function expectStatus(res: ApiResponse, status: number, what: string): void {
  expect(res.status, `${what} -> ${res.status} ${JSON.stringify(res.body)}`).toBe(status);
}

/** Titles of printable ASCII, accents and an emoji, without padding. */
export const title = fc
  .string({ minLength: 1, maxLength: 50, unit: fc.oneof(fc.constantFrom(' ', 'é', '🚀'), fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c))) })
  .map((s) => s.trim())
  .filter((s) => s.length > 0 && [...s].length <= 50);

/** Words that survive Markdown and HTML unchanged, for page titles and text that are looked for in HTML. */
export const word = fc.stringMatching(/^[A-Z][a-z]{2,9}$/);

export const atLeast = (role: Role | null, needed: Role) => role !== null && roleOrder.indexOf(role) >= roleOrder.indexOf(needed);

/**
 * The status a member gets from an operation on the organization (`space` absent) or on a space, whose
 * access rule asks for `needed`: 404 when they are no longer a member, or for content they have no role on;
 * 403 below the role; `success` otherwise.
 */
export function expectedAccess(m: Model, member: Member, needed: Role | 'guest', success: number, space?: SpaceItem): number {
  if (member.removed) return 404;
  if (!space) return needed === 'guest' || atLeast(member.role, needed) ? success : 403;
  const role = roleOn(m, member, 'space', space);
  return role === null ? 404 : atLeast(role, needed as Role) ? success : 403;
}

/** The stronger of two roles (null: none). */
export const strongest = (a: Role | null, b: Role | null): Role | null => (a === null ? b : b === null ? a : roleOrder.indexOf(a) >= roleOrder.indexOf(b) ? a : b);

/** The live collection `id`, when there is one. */
const collectionOf = (m: Model, id: string | null) => (id === null ? undefined : m.collections.find((c) => c.id === id && !c.deleted));

/**
 * What a space's or collection's default level gives a member whose organization role is `orgRole`
 * (docs/permissions.md): its role; nothing for `null`; for `inherit`, what its collection gives (a space's
 * collection when it is in one: the model makes spaces only in-collection there), at the top the
 * organization role.
 */
function levelOf(m: Model, item: TreeItem, orgRole: Role): Role | null {
  if (item.defaultLevel !== 'inherit') return item.defaultLevel;
  const parent = collectionOf(m, item.parent);
  return parent ? levelOf(m, parent, orgRole) : orgRole;
}

/** The item and the collections around it (a space in a collection is in-collection: it gets them). */
function chainOf(m: Model, item: TreeItem): TreeItem[] {
  const chain = [item];
  for (let at = collectionOf(m, item.parent); at && !chain.includes(at); at = collectionOf(m, at.parent)) chain.push(at);
  return chain;
}

/** The user and the live teams they are in. */
function principalsOf(m: Model, userId: string): { principal: 'user' | 'team'; principalId: string }[] {
  return [{ principal: 'user', principalId: userId }, ...m.teams.filter((t) => !t.deleted && t.members.includes(userId)).map((t) => ({ principal: 'team' as const, principalId: t.id }))];
}

/** The strongest role given on `resourceId` to the user or one of their teams. */
function grantedOn(m: Model, resource: Resource, resourceId: string, userId: string): Role | null {
  const principals = principalsOf(m, userId);
  let role: Role | null = null;
  for (const g of m.grants) {
    if (g.resource === resource && g.resourceId === resourceId && principals.some((p) => p.principal === g.principal && p.principalId === g.principalId)) role = strongest(role, g.role);
  }
  return role;
}

/**
 * A member's role on a space or collection (docs/permissions.md, "The rule"): admins have admin; otherwise
 * the strongest of what its default level gives them (nothing for a guest), and the roles given to them
 * or their teams on it and on the collections around it. Null: they do not reach it.
 */
export function roleOn(m: Model, member: Member, kind: 'space' | 'collection', item: TreeItem): Role | null {
  if (member.removed) return null;
  if (member.role === 'admin') return 'admin';
  let role = member.role === null ? null : levelOf(m, item, member.role);
  for (const at of chainOf(m, item)) role = strongest(role, grantedOn(m, at === item ? kind : 'collection', at.id, member.userId));
  return role;
}

/** A member's role on a site: the organization role raised by the roles given on the site to them or their teams (admins keep admin). */
export function roleOnSite(m: Model, member: Member, site: Site): Role | null {
  if (member.removed) return null;
  if (member.role === 'admin') return 'admin';
  return strongest(member.role, grantedOn(m, 'site', site.id, member.userId));
}

/** The collection and every collection nested in it, per the model. */
export function subtree(m: Model, id: string): Set<string> {
  const ids = new Set([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const c of m.collections) if (!c.deleted && c.parent && ids.has(c.parent) && !ids.has(c.id)) grew = ids.add(c.id).size > 0;
  }
  return ids;
}

export function newSpaceItem(id: string, title: string, parent: string | null): SpaceItem {
  return { id, title, parent, deleted: false, defaultLevel: 'inherit', pages: [], changeRequests: [], comments: [] };
}
