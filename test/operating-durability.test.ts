// DURABILITY UNDER kill -9 (slow: about a minute; runs in `npm test`, on PGlite and again on PostgreSQL in CI).
// The real server as a child process; 16 clients send writes until 2,000 have been acknowledged; at
// 1,000 the server is SIGKILLed, then restarted on the same DATA_DIR / database while the clients wait.
// Afterwards every acknowledged write must be there, and no multi-row change may be half applied:
// a collection and everything inside it share one organization (transfers), and a change request is
// merged exactly when the space's revision is its merge revision and holds its page (merges).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../server/db/scratch-database.js';
import { call, freePort, killChild, startChildServer, type ChildServer } from './support/child-server.js';

const TOTAL_ACKED = 2000;
const KILL_AT = 1000;
const CLIENTS = 16;

let server: ChildServer | undefined;
let dataDir: string | undefined;
let scratch: ScratchDatabase | undefined;
afterAll(async () => {
  await killChild(server);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await scratch?.dispose();
});

async function storageEnv(): Promise<Record<string, string>> {
  const url = process.env.DATABASE_URL;
  if (url) {
    scratch = await createScratchDatabase(url, { prefix: 'dwapi_operating', template: inject('postgresTemplate'), poolSize: 1 });
    return { DATABASE_URL: scratch.url };
  }
  dataDir = mkdtempSync(path.join(tmpdir(), 'dwapi-durability-'));
  return { DATA_DIR: dataDir };
}

class ServerDown extends Error {}

interface Ledger {
  /** Acknowledged space creations: id → title. */
  spaces: Map<string, string>;
  /** Transfer units: the top collection, its child, its space, and the organizations it may be in. */
  transfers: { top: string; child: string; space: string; expected: string; pendingTo?: string }[];
  /** Merge units: change request, its space and page title; `acked` once its merge was acknowledged. */
  merges: { space: string; changeRequest: string; title: string; acked: boolean }[];
}

describe('durability under kill -9', () => {
  it(`keeps every one of ${TOTAL_ACKED} acknowledged writes from ${CLIENTS} clients across a SIGKILL, with no half-applied transfer or merge`, { timeout: 240_000 }, async () => {
    const env = await storageEnv();
    const port = await freePort();
    server = await startChildServer(env, { port });
    const base = server.url;

    const orgs = await call(base, 'GET', '/orgs');
    const home = orgs.body.items[0].id as string;
    const other = (await call(base, 'POST', '/orgs', { title: 'Transfer target' })).body.id as string;

    const ledger: Ledger = { spaces: new Map(), transfers: [], merges: [] };
    let acked = 0;
    let killed = false;
    let restarted: Promise<void> | undefined;
    const failures: string[] = [];

    /** One write; counts the acknowledgement; ServerDown when there was no answer (the kill). */
    async function write(method: string, pathname: string, body?: unknown) {
      let res;
      try {
        res = await call(base, method, pathname, body, { signal: AbortSignal.timeout(30_000) });
      } catch {
        throw new ServerDown();
      }
      if (res.status >= 300) {
        failures.push(`${method} ${pathname} → ${res.status} ${JSON.stringify(res.body)}`);
        throw new Error('unexpected status');
      }
      acked++;
      if (acked >= KILL_AT && !killed) {
        killed = true;
        server!.kill('SIGKILL');
        restarted = (async () => {
          await server!.exited;
          server = await startChildServer(env, { port });
        })();
      }
      return res.body;
    }

    async function transferUnit(client: number, i: number) {
      const top = (await write('POST', `/orgs/${home}/collections`, { title: `T${client}-${i}` })).id as string;
      const child = (await write('POST', `/orgs/${home}/collections`, { title: `C${client}-${i}`, parent: top })).id as string;
      const space = (await write('POST', `/orgs/${home}/spaces`, { title: `S${client}-${i}`, parent: child })).id as string;
      const unit = { top, child, space, expected: home } as Ledger['transfers'][number];
      ledger.transfers.push(unit);
      for (const to of [other, home]) {
        unit.pendingTo = to;
        await write('POST', `/collections/${top}/transfer`, { organization: to });
        unit.expected = to;
        unit.pendingTo = undefined;
      }
    }

    async function mergeUnit(client: number, i: number) {
      const space = (await write('POST', `/orgs/${home}/spaces`, { title: `M${client}-${i}` })).id as string;
      const cr = (await write('POST', `/spaces/${space}/change-requests`, { subject: `Merge ${client}-${i}` })).id as string;
      const title = `Page ${client}-${i}`;
      await write('POST', `/spaces/${space}/change-requests/${cr}/content?compat=false`, {
        changes: [{ operation: 'insert_page', document: { markdown: `# ${title}\n\nWritten by client ${client}.` } }],
      });
      const unit = { space, changeRequest: cr, title, acked: false };
      ledger.merges.push(unit);
      await write('POST', `/spaces/${space}/change-requests/${cr}/merge`);
      unit.acked = true;
    }

    async function client(n: number) {
      for (let i = 0; acked < TOTAL_ACKED && failures.length === 0; i++) {
        try {
          if (i % 10 === 3) await transferUnit(n, i);
          else if (i % 10 === 7) await mergeUnit(n, i);
          else {
            const title = `Space ${n}-${i}`;
            const created = await write('POST', `/orgs/${home}/spaces`, { title });
            ledger.spaces.set(created.id, title);
          }
        } catch (err) {
          if (!(err instanceof ServerDown)) throw err;
          // The kill: this write's outcome is unknown; wait for the restart and go on.
          if (!killed) throw new Error('the server stopped answering before it was killed');
          await restarted;
        }
      }
    }

    await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));
    expect(failures).toEqual([]);
    expect(killed).toBe(true);
    expect(acked).toBeGreaterThanOrEqual(TOTAL_ACKED);
    const after = server!.url;

    // Every acknowledged space, by id and title.
    const missing: string[] = [];
    const ids = [...ledger.spaces];
    for (let i = 0; i < ids.length; i += 32) {
      await Promise.all(
        ids.slice(i, i + 32).map(async ([id, title]) => {
          const res = await call(after, 'GET', `/spaces/${id}`);
          if (res.status !== 200 || res.body.title !== title) missing.push(`${id} ${res.status}`);
        }),
      );
    }
    expect(missing).toEqual([]);

    // Transfers: all or nothing, and the acknowledged ones in place.
    for (const unit of ledger.transfers) {
      const [top, child, space] = await Promise.all([
        call(after, 'GET', `/collections/${unit.top}`),
        call(after, 'GET', `/collections/${unit.child}`),
        call(after, 'GET', `/spaces/${unit.space}`),
      ]);
      expect([top.status, child.status, space.status]).toEqual([200, 200, 200]);
      const org = top.body.organization;
      expect({ unit: unit.top, child: child.body.organization, space: space.body.organization }).toEqual({ unit: unit.top, child: org, space: org });
      expect([unit.expected, unit.pendingTo].filter(Boolean)).toContain(org);
    }

    // Merges: merged ⇔ the space is at the merge revision and shows the page.
    for (const unit of ledger.merges) {
      const [cr, space, pages] = await Promise.all([
        call(after, 'GET', `/spaces/${unit.space}/change-requests/${unit.changeRequest}`),
        call(after, 'GET', `/spaces/${unit.space}`),
        call(after, 'GET', `/spaces/${unit.space}/content/pages`),
      ]);
      const titles = JSON.stringify(pages.body);
      const merged = cr.body.status === 'merged';
      if (unit.acked) expect(merged).toBe(true);
      expect({ cr: unit.changeRequest, merged, atMergeRevision: space.body.revision === cr.body.revisionMerged, hasPage: titles.includes(unit.title) }).toEqual({
        cr: unit.changeRequest,
        merged,
        atMergeRevision: merged,
        hasPage: merged,
      });
    }
    expect(ledger.transfers.length).toBeGreaterThan(0);
    expect(ledger.merges.length).toBeGreaterThan(0);

    server!.kill('SIGTERM');
    expect((await server!.exited).code).toBe(0);
  });
});
