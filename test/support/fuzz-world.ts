// Shared by the fuzz tests: their settings (seed, number of runs), the operations the server really
// implements, and a world of real resources, made through the API, whose ids the generated requests use.
//
// The world has two layers:
//   - a base made before each fuzzed operation: an admin of two organizations (A and B) and a third one
//     (C) they are not in; collections and spaces at several levels, one space deleted; one member of A
//     per role and a guest (for the recipes that need them);
//   - for the operation under test, coherent sets of its path parameters ("tuples": a site and a section
//     of that site, a space and a change request of that space, …) made by the same recipes the access
//     matrix uses (test/support/matrix/*: one function per path parameter name, plus a minimal valid body
//     or query where `{}` is not one). Adding a resource kind to the fuzz world is adding its recipe
//     there; nothing here names an operation.
// Valid requests take their path from a tuple most of the time (else from random text mixed with world
// ids), and their body from the recipe's body, the recipe's body with generated optional properties, or
// a fully generated one. Property and parameter names that carry ids (`spaceId`, `parent`, `organization`,
// …) draw from every id the world holds.
import fc from 'fast-check';
import { expect } from 'vitest';
import { addMember, createOrganization } from '../../server/auth/bootstrap.js';
import type { Role } from '../../server/auth/roles.js';
import { handlers } from '../../server/handlers.js';
import { isImplemented } from '../../server/http/not-implemented.js';
import type { Account, Harness } from './harness.js';
import { matrixFixtures, type MatrixWorld } from './matrix/index.js';
import { specOperations, type SpecOperation } from './spec.js';

export function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw new Error(`${name} must be an integer, got ${raw}`);
  return n;
}

/** Today's date as a number (UTC), e.g. 20261123: the default seed, so each day explores new inputs. */
const today = Number(new Date().toISOString().slice(0, 10).replaceAll('-', ''));

/** The seed of every fuzz property: `FUZZ_SEED=<n>` pins it (to replay a failure); by default it changes daily. */
export const FUZZ_SEED = intFromEnv('FUZZ_SEED', today);
/** Generated requests per operation; `FUZZ_RUNS=<n>` for a longer hunt. */
export const FUZZ_RUNS = intFromEnv('FUZZ_RUNS', 20);
/** fast-check's replay path of a failure (printed with it), with FUZZ_SEED, to run exactly the failing case first. */
const FUZZ_PATH = process.env.FUZZ_PATH || undefined;

console.info(`fuzz: seed ${FUZZ_SEED}${process.env.FUZZ_SEED ? ' (FUZZ_SEED)' : ' (today\'s; FUZZ_SEED=<n> pins one)'}, ${FUZZ_RUNS} runs`);

/**
 * fast-check parameters shared by the fuzz properties. No time limit: every run is made (a run that
 * stopped at a limit would count as passed with fewer cases than it claims); the test's own timeout fails
 * a run that is too slow, and FUZZ_RUNS sizes the runs to finish.
 */
export function fuzzParameters<T>(runs = FUZZ_RUNS): fc.Parameters<T> {
  return { seed: FUZZ_SEED, numRuns: runs, ...(FUZZ_PATH && { path: FUZZ_PATH }) };
}

/** Operations with a real handler: the others answer 501 and are skipped until their area lands. */
export const implementedOperations: SpecOperation[] = specOperations.filter((op) =>
  isImplemented((handlers as Record<string, unknown>)[op.operationId]),
);

type Params = Record<string, string>;

/** One coherent set of path parameters for an operation, with the recipe's body and query for them. */
export interface Tuple {
  params: Params;
  body?: unknown;
  /**
   * A body recipe that gives another body each time it is asked (a fresh unique key, such as a redirect's
   * source): the fuzz asks it again for every request, since a create refuses a key it already holds (409).
   */
  freshBody?: () => unknown;
  query?: Record<string, string>;
}

/** Real ids, by the name of the path parameter that carries them (`spaceId`, `siteId`, …). */
export interface World {
  admin: Account;
  /** The world as the matrix recipes see it (admin of A, a member of A per role, an outsider). */
  matrix: MatrixWorld;
  ids: Record<string, string[]>;
}

/** Property and parameter names that carry an id of another kind than their own name says. */
const aliases: Record<string, string> = {
  organization: 'organizationId',
  parent: 'collectionId',
  space: 'spaceId',
  sectionId: 'siteSectionId',
  siteSection: 'siteSectionId',
  siteSpace: 'siteSpaceId',
  defaultSiteSpace: 'siteSpaceId',
  defaultTeam: 'teamId',
  conversation: 'conversationId',
  changeRequest: 'changeRequestId',
  site: 'siteId',
  team: 'teamId',
};

/** The kind of id a name carries, when the world has ids of it. */
function kindOf(world: World, name: string): string | undefined {
  for (const kind of [aliases[name], name, `${name}Id`]) if (kind && world.ids[kind]?.length) return kind;
  return undefined;
}

/**
 * Page cursors shaped like the server's (base64url of a JSON list of keys) but with made-up keys, so that
 * the fuzzer gets past the cursor's decoding into the query that uses it.
 */
const forgedCursors = fc
  .array(fc.oneof(fc.string({ unit: 'binary' }), fc.constant('a\u0000b'), fc.integer(), fc.double(), fc.constant(null)), { maxLength: 3 })
  .map((keys) => Buffer.from(JSON.stringify(keys)).toString('base64url'));

/**
 * Hints for the generator, by parameter or property name: ids that exist in the world, and forged page
 * cursors; undefined when the name carries nothing we know.
 */
export function idsFor(world: World, name: string): fc.Arbitrary<string> | undefined {
  if (name === 'page') return forgedCursors;
  const kind = kindOf(world, name);
  return kind ? fc.constantFrom(...world.ids[kind]) : undefined;
}

function remember(world: World, name: string, id: string) {
  const list = (world.ids[name] ??= []);
  if (!list.includes(id)) list.push(id);
}

async function created(account: Account, path: string, body: object): Promise<string> {
  const res = await account.api.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

const roles: Role[] = ['read', 'comment', 'edit', 'review', 'create', 'admin'];

/** The accounts of the world: an admin of A and B, the owner of B, a stranger (C), a member of A per role and a guest. */
export interface Accounts {
  admin: Account;
  ownerB: Account;
  stranger: Account;
  members: MatrixWorld['members'];
}

export async function createAccounts(h: Harness): Promise<Accounts> {
  const admin = await h.newAdmin();
  const ownerB = await h.newAdmin();
  const stranger = await h.newAdmin();
  await addMember(h.db, ownerB.organizationId, admin.userId, 'admin');
  const members = { guest: await h.newMember(admin.organizationId, null) } as MatrixWorld['members'];
  for (const role of roles) members[role] = await h.newMember(admin.organizationId, role);
  return { admin, ownerB, stranger, members };
}

/**
 * The base world: in A a collection with a nested one and spaces at each level, one of them deleted;
 * a collection and space in B and in C. Made through the API.
 */
export async function createWorld(h: Harness, accounts: Accounts): Promise<World> {
  const { admin, ownerB, stranger, members } = accounts;
  const [a, b, c] = [admin.organizationId, ownerB.organizationId, stranger.organizationId];

  const shelf = await created(admin, `/orgs/${a}/collections`, { title: 'Shelf' });
  const nested = await created(admin, `/orgs/${a}/collections`, { title: 'Nested', parent: shelf });
  const inB = await created(admin, `/orgs/${b}/collections`, { title: 'In B' });
  const inC = await created(stranger, `/orgs/${c}/collections`, { title: 'Foreign' });
  const spaces = [
    await created(admin, `/orgs/${a}/spaces`, { title: 'Top' }),
    await created(admin, `/orgs/${a}/spaces`, { title: 'On the shelf', parent: shelf }),
    await created(admin, `/orgs/${a}/spaces`, { title: 'Deep', parent: nested }),
    await created(admin, `/orgs/${b}/spaces`, { title: 'In B', parent: inB }),
    await created(stranger, `/orgs/${c}/spaces`, { title: 'Foreign' }),
  ];
  const trashed = await created(admin, `/orgs/${a}/spaces`, { title: 'Trashed' });
  expect((await admin.api.delete(`/spaces/${trashed}`)).status).toBe(204);

  return {
    admin,
    matrix: { h, admin, outsider: stranger, members },
    ids: {
      organizationId: [a, b, c],
      collectionId: [shelf, nested, inB, inC],
      spaceId: [...spaces, trashed],
      userId: [admin.userId, ownerB.userId, members.read.userId],
    },
  };
}

/** The recipe for a path parameter, a body or a query of the matrix fixtures (test/support/matrix/). */
const recipe = {
  param: (name: string) => matrixFixtures.find((f) => f.params?.[name])?.params?.[name],
  body: (operationId: string) => matrixFixtures.find((f) => f.bodies?.[operationId])?.bodies?.[operationId],
  query: (operationId: string) => matrixFixtures.find((f) => f.queries?.[operationId])?.queries?.[operationId],
  list: (operationId: string) => matrixFixtures.find((f) => f.lists?.[operationId])?.lists?.[operationId],
  prepare: (operationId: string) => matrixFixtures.find((f) => f.prepare?.[operationId])?.prepare?.[operationId],
};

/**
 * The matrix world again in an organization of its own: the world's admin owns it, and the world's members
 * (a guest, one per role) are in it with the same roles. The recipes make everything of a tuple in the
 * organization of the world they are given, so a write on one tuple (to the organization itself: its
 * settings, members, teams, invites) leaves the other tuples' organizations as they were.
 */
async function organizationWorld(world: World): Promise<MatrixWorld> {
  const { h, admin, members } = world.matrix;
  const organization = await createOrganization(h.db, { title: `Fuzz tuple ${world.ids.organizationId?.length ?? 0}`, ownerId: admin.userId });
  const inIt = {} as MatrixWorld['members'];
  for (const [role, account] of Object.entries(members) as [keyof MatrixWorld['members'], Account][]) {
    await addMember(h.db, organization.id, account.userId, role === 'guest' ? null : role);
    inIt[role] = { ...account, organizationId: organization.id };
  }
  remember(world, 'organizationId', organization.id);
  return { ...world.matrix, admin: { ...admin, organizationId: organization.id }, members: inIt };
}

/**
 * `count` coherent sets of the operation's path parameters, each made fresh by the recipes (so that a
 * delete or move in one leaves the others), with the recipe's body and query for each; their ids join
 * the world's. With `ownOrganizations` (the writes), each tuple after the first is made in an organization
 * of its own (`organizationWorld`): no tuple's state depends on a write to another's. Fails naming the
 * path parameter that has no recipe.
 */
export async function tuplesFor(world: World, op: SpecOperation, count = 2, ownOrganizations = false): Promise<Tuple[]> {
  const tuples: Tuple[] = [];
  for (let i = 0; i < count; i++) {
    const matrix = ownOrganizations && i > 0 ? await organizationWorld(world) : world.matrix;
    const params: Params = {};
    for (const [, name] of op.path.matchAll(/\{(\w+)\}/g)) {
      const make = recipe.param(name);
      if (!make) throw new Error(`No recipe for the path parameter ${name}: add one under test/support/matrix/ (it serves the access matrix and the fuzz world)`);
      params[name] = await make(matrix, params);
      remember(world, name, params[name]);
    }
    const makeBody = op.operation.requestBody ? recipe.body(op.operationId) : undefined;
    const made = makeBody?.(matrix, params);
    const body = await made;
    // A recipe answering at once, and differently when asked again, makes fresh keys: kept to be asked again.
    const again = made instanceof Promise ? undefined : makeBody?.(matrix, params);
    const freshBody = again !== undefined && !(again instanceof Promise) && JSON.stringify(again) !== JSON.stringify(body) ? () => makeBody!(matrix, params) : undefined;
    const query = await recipe.query(op.operationId)?.(matrix, params);
    await recipe.prepare(op.operationId)?.(matrix, params);
    await fillList(world, op, params);
    tuples.push({ params, ...(body !== undefined && { body }), ...(freshBody && { freshBody }), ...(query && { query }) });
  }
  return tuples;
}

/**
 * For a list, one item made by the create operation at the same path (`POST /orgs/{organizationId}/sites`
 * for `GET` of it) with its recipe's body, or by the recipe of the item's path parameter, or by the list's
 * own recipe (`lists` in test/support/matrix/): so the list answers an item whose properties the drift check
 * compares with the example's. A create the recipe cannot make leaves the list empty (the fuzz test
 * names the lists that never answered an item).
 */
async function fillList(world: World, op: SpecOperation, params: Params) {
  if (op.method !== 'get') return;
  const own = recipe.list(op.operationId);
  if (own) return void (await own(world.matrix, { ...params }));
  const create = specOperations.find((o) => o.method === 'post' && o.path === op.path);
  if (!create) {
    // Else the recipe of the item's own path parameter (`{fileId}` for `/spaces/{spaceId}/content/files`),
    // which makes one under the parents already in `params`.
    const item = specOperations.map((o) => o.path.match(/^(.*)\/\{(\w+)\}$/)).find((m) => m?.[1] === op.path)?.[2];
    const make = item && !params[item] ? recipe.param(item) : undefined;
    if (make) await make(world.matrix, { ...params });
    return;
  }
  const body = (await recipe.body(create.operationId)?.(world.matrix, params)) ?? {};
  const path = create.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name]);
  const res = await world.admin.api.post(path, body);
  if (res.status >= 300) console.info(`fuzz world: ${create.operationId} for ${op.operationId} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
}

/** Whether an operation has the recipes the fuzz world needs (a path parameter without one fails tuplesFor). */
export function missingRecipes(op: SpecOperation): string[] {
  return [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name).filter((name) => !recipe.param(name));
}
