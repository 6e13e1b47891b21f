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

export interface TreeItem {
  id: string;
  title: string;
  parent: string | null;
  deleted: boolean;
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
  // Grants (issue 35): per-space or per-collection roles given to members and teams go here, with the rule
  // that a member's role on content is the highest of the organization role and the grants inherited
  // through its collections (roleOnContent below is the one place that reads roles).
}

export interface Real {
  h: Harness;
  /** The owner of the organization, an admin. */
  admin: Account;
  /** The accounts of the members the run added, by user id. */
  accounts: Map<string, Account>;
}

export type Cmd = fc.AsyncCommand<Model, Real>;

export const emptyModel = (): Model => ({ collections: [], spaces: [], members: [], sites: [], integrations: [] });

/** How many times each kind of command ran (passed its precondition), over the whole test file. */
export const commandsRun = new Map<string, number>();

export const command = (describe: string, check: (m: Readonly<Model>) => boolean, run: (m: Model, r: Real) => Promise<void>): Cmd => ({
  check,
  run: async (m, r) => {
    const kind = describe.replace(/\(.*$/, '');
    commandsRun.set(kind, (commandsRun.get(kind) ?? 0) + 1);
    await run(m, r);
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
 * The status a member gets from an operation whose access rule is `rule` at `needed`: 404 when they are
 * no longer a member, or for content a guest cannot see; 403 below the role; `success` otherwise.
 */
export function expectedAccess(member: Member, rule: 'organization' | 'content', needed: Role | 'guest', success: number): number {
  if (member.removed) return 404;
  if (rule === 'organization') return needed === 'guest' || atLeast(member.role, needed) ? success : 403;
  return roleOnContent(member) === null ? 404 : atLeast(roleOnContent(member), needed as Role) ? success : 403;
}

/** A member's role on the organization's content: its organization role (no grants in the model yet). */
export function roleOnContent(member: Member): Role | null {
  return member.role;
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
  return { id, title, parent, deleted: false, pages: [], changeRequests: [], comments: [] };
}
