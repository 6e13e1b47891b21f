// Shared by the fuzz tests: their settings (seed, number of runs), the operations the server really
// implements, and a small world of real resources whose ids the generated requests mix with random ones.
import fc from 'fast-check';
import { expect } from 'vitest';
import { addMember } from '../../server/auth/bootstrap.js';
import { handlers } from '../../server/handlers.js';
import { isImplemented } from '../../server/http/not-implemented.js';
import type { Account, Harness } from './harness.js';
import { specOperations, type SpecOperation } from './spec.js';

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw new Error(`${name} must be an integer, got ${raw}`);
  return n;
}

/** Fixed in CI so failures reproduce; `FUZZ_SEED=<n>` explores elsewhere (the seed of a failure is printed). */
export const FUZZ_SEED = intFromEnv('FUZZ_SEED', 20260314);
/** Generated requests per operation; `FUZZ_RUNS=<n>` for a longer hunt. */
export const FUZZ_RUNS = intFromEnv('FUZZ_RUNS', 50);

/** fast-check parameters shared by the fuzz properties. */
export function fuzzParameters<T>(runs = FUZZ_RUNS): fc.Parameters<T> {
  // Past 150 s (a large FUZZ_RUNS), stop generating, or stop shrinking and report the failure as it is.
  return { seed: FUZZ_SEED, numRuns: runs, interruptAfterTimeLimit: 150_000 };
}

/** Operations with a real handler: the others answer 501 and are skipped until their area lands. */
export const implementedOperations: SpecOperation[] = specOperations.filter((op) =>
  isImplemented((handlers as Record<string, unknown>)[op.operationId]),
);

/** Real ids, by the name of the parameter or property that carries them. */
export interface World {
  admin: Account;
  ids: Record<string, string[]>;
}

const idNames: Record<string, string> = {
  organizationId: 'organization',
  organization: 'organization',
  collectionId: 'collection',
  parent: 'collection',
  spaceId: 'space',
  space: 'space',
};

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
  const kind = idNames[name];
  const ids = kind ? world.ids[kind] : undefined;
  return ids && ids.length > 0 ? fc.constantFrom(...ids) : undefined;
}

async function created(account: Account, path: string, body: object): Promise<string> {
  const res = await account.api.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

/**
 * An admin of two organizations (A and B) and a third organization (C) they are not in; in A a
 * collection with a nested one and spaces at each level, one of them deleted; a collection and space in
 * B and in C. Created through the API where it can be (organizations and memberships have no
 * implemented operation yet).
 */
export async function createWorld(h: Harness): Promise<World> {
  const admin = await h.newAdmin();
  const ownerB = await h.newAdmin();
  const stranger = await h.newAdmin();
  await addMember(h.db, ownerB.organizationId, admin.userId, 'admin');
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
    ids: {
      organization: [a, b, c],
      collection: [shelf, nested, inB, inC],
      space: [...spaces, trashed],
    },
  };
}
