// Random sequences of writes and reads on the collections and spaces of a fresh organization, checked
// against a small model: no 5xx, every answer allowed by the document (`send`), the status the model
// expects, and a read after a successful write that shows the write (title, parent, deleted or not,
// the spaces a collection lists). FUZZ_RUNS / 4 sequences (FUZZ_SEED fixes them, as in fuzz.test.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiClient, ApiResponse } from './support/api.js';
import { FUZZ_RUNS, fuzzParameters } from './support/fuzz-world.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

interface Item {
  id: string;
  title: string;
  parent: string | null;
  deleted: boolean;
}
interface Model {
  collections: Item[];
  spaces: Item[];
}
interface Real {
  api: ApiClient;
  organizationId: string;
}
type Cmd = fc.AsyncCommand<Model, Real>;

/** Titles without leading or trailing whitespace (padding is a known discrepancy, see fuzz.test.ts). */
const title = fc
  .string({ minLength: 1, maxLength: 50, unit: fc.oneof(fc.constantFrom(' ', 'é', '🚀'), fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c))) })
  .map((s) => s.trim())
  .filter((s) => s.length > 0 && [...s].length <= 50);

const pick = <T>(items: T[], n: number): T | undefined => (items.length === 0 ? undefined : items[n % items.length]);
const live = (items: Item[]) => items.filter((i) => !i.deleted);

function expectStatus(res: ApiResponse, status: number, what: string) {
  expect(res.status, `${what} -> ${res.status} ${JSON.stringify(res.body)}`).toBe(status);
}

/** The collection and every collection nested in it, per the model. */
function subtree(m: Model, id: string): Set<string> {
  const ids = new Set([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const c of m.collections) if (!c.deleted && c.parent && ids.has(c.parent) && !ids.has(c.id)) grew = ids.add(c.id).size > 0;
  }
  return ids;
}

async function expectSpace(r: Real, s: Item) {
  const res = await r.api.get(`/spaces/${s.id}`);
  if (s.deleted) return expectStatus(res, 404, `GET deleted space ${s.id}`);
  expectStatus(res, 200, `GET space ${s.id}`);
  expect(res.body.title).toBe(s.title);
  expect(res.body.parent ?? null).toBe(s.parent);
}

async function expectCollection(r: Real, c: Item) {
  const res = await r.api.get(`/collections/${c.id}`);
  if (c.deleted) return expectStatus(res, 404, `GET deleted collection ${c.id}`);
  expectStatus(res, 200, `GET collection ${c.id}`);
  expect(res.body.title).toBe(c.title);
  expect(res.body.parent ?? null).toBe(c.parent);
}

const command = (describe: string, check: (m: Readonly<Model>) => boolean, run: (m: Model, r: Real) => Promise<void>): Cmd => ({
  check,
  run,
  toString: () => describe,
});

const always = () => true;
const hasCollections = (m: Readonly<Model>) => m.collections.length > 0;
const hasSpaces = (m: Readonly<Model>) => m.spaces.length > 0;

const commands: fc.Arbitrary<Cmd>[] = [
  fc.record({ title: fc.option(title, { nil: undefined }), parent: fc.option(fc.nat(), { nil: undefined }) }).map(({ title: t, parent }) =>
    command(`createCollection(${JSON.stringify(t)}, parent #${parent})`, always, async (m, r) => {
      const into = parent === undefined ? undefined : pick(live(m.collections), parent);
      const res = await r.api.post(`/orgs/${r.organizationId}/collections`, { ...(t !== undefined && { title: t }), ...(into && { parent: into.id }) });
      expectStatus(res, 201, 'createCollection');
      const item = { id: res.body.id, title: t ?? 'Untitled', parent: into?.id ?? null, deleted: false };
      m.collections.push(item);
      await expectCollection(r, item);
    }),
  ),
  fc.record({ title: fc.option(title, { nil: undefined }), parent: fc.option(fc.nat(), { nil: undefined }) }).map(({ title: t, parent }) =>
    command(`createSpace(${JSON.stringify(t)}, parent #${parent})`, always, async (m, r) => {
      const into = parent === undefined ? undefined : pick(live(m.collections), parent);
      const res = await r.api.post(`/orgs/${r.organizationId}/spaces`, { ...(t !== undefined && { title: t }), ...(into && { parent: into.id }) });
      expectStatus(res, 201, 'createSpace');
      const item = { id: res.body.id, title: t ?? 'Untitled', parent: into?.id ?? null, deleted: false };
      m.spaces.push(item);
      await expectSpace(r, item);
    }),
  ),
  fc.tuple(fc.nat(), title).map(([n, t]) =>
    command(`updateSpace(#${n}, title ${JSON.stringify(t)})`, hasSpaces, async (m, r) => {
      const s = pick(m.spaces, n)!;
      const res = await r.api.patch(`/spaces/${s.id}`, { title: t });
      expectStatus(res, s.deleted ? 404 : 200, 'updateSpaceById');
      if (!s.deleted) s.title = t;
      await expectSpace(r, s);
    }),
  ),
  fc.tuple(fc.nat(), title).map(([n, t]) =>
    command(`updateCollection(#${n}, title ${JSON.stringify(t)})`, hasCollections, async (m, r) => {
      const c = pick(m.collections, n)!;
      const res = await r.api.patch(`/collections/${c.id}`, { title: t });
      expectStatus(res, c.deleted ? 404 : 200, 'updateCollectionById');
      if (!c.deleted) c.title = t;
      await expectCollection(r, c);
    }),
  ),
  fc.tuple(fc.nat(), fc.option(fc.nat(), { nil: null })).map(([n, target]) =>
    command(`moveCollection(#${n}, into #${target})`, hasCollections, async (m, r) => {
      const c = pick(m.collections, n)!;
      const into = target === null ? undefined : pick(live(m.collections), target);
      const res = await r.api.post(`/collections/${c.id}/move`, { parent: into?.id ?? null });
      const expected = c.deleted ? 404 : into && subtree(m, c.id).has(into.id) ? 409 : 200;
      expectStatus(res, expected, 'moveCollection');
      if (expected === 200) c.parent = into?.id ?? null;
      await expectCollection(r, c);
    }),
  ),
  fc.nat().map((n) =>
    command(`deleteSpace(#${n})`, hasSpaces, async (m, r) => {
      const s = pick(m.spaces, n)!;
      expectStatus(await r.api.delete(`/spaces/${s.id}`), 204, 'deleteSpaceById');
      s.deleted = true;
      await expectSpace(r, s);
    }),
  ),
  fc.nat().map((n) =>
    command(`restoreSpace(#${n})`, hasSpaces, async (m, r) => {
      const s = pick(m.spaces, n)!;
      expectStatus(await r.api.post(`/spaces/${s.id}/restore`), 200, 'restoreSpace');
      // Back in its collection if that still exists, at the top level otherwise.
      if (s.deleted && s.parent && !live(m.collections).some((c) => c.id === s.parent)) s.parent = null;
      s.deleted = false;
      await expectSpace(r, s);
    }),
  ),
  fc.nat().map((n) =>
    command(`deleteCollection(#${n})`, hasCollections, async (m, r) => {
      const c = pick(m.collections, n)!;
      expectStatus(await r.api.delete(`/collections/${c.id}`), 204, 'deleteCollectionById');
      if (!c.deleted) {
        const gone = subtree(m, c.id);
        for (const x of m.collections) if (gone.has(x.id)) x.deleted = true;
        // Their spaces go to the trash, at the top level.
        for (const s of m.spaces) {
          if (s.parent && gone.has(s.parent)) {
            s.deleted = true;
            s.parent = null;
          }
        }
      }
      await expectCollection(r, c);
    }),
  ),
  fc.nat().map((n) =>
    command(`listSpacesInCollection(#${n})`, hasCollections, async (m, r) => {
      const c = pick(m.collections, n)!;
      const res = await r.api.get(`/collections/${c.id}/spaces`, { limit: 1000 });
      expectStatus(res, c.deleted ? 404 : 200, 'listSpacesInCollectionById');
      if (c.deleted) return;
      const expected = live(m.spaces).filter((s) => s.parent === c.id);
      expect(res.body.items.map((s: { id: string }) => s.id).sort()).toEqual(expected.map((s) => s.id).sort());
      expect(res.body.count).toBe(expected.length);
    }),
  ),
];

describe('fuzz: sequences of operations on collections and spaces', () => {
  const runs = Math.max(1, Math.round(FUZZ_RUNS / 4));
  it(`${runs} random sequences agree with the model`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 30, size: 'max' }), async (cmds) => {
        const admin = await h.current.newAdmin();
        const setup = () => ({ model: { collections: [], spaces: [] }, real: { api: admin.api, organizationId: admin.organizationId } });
        await fc.asyncModelRun(setup, cmds);
      }),
      fuzzParameters(runs),
    );
  }, 180_000);
});
