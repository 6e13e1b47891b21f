// The server process's life as an operator sees it (real child processes; slow-ish, ~1 min):
// exclusive DATA_DIR (PGlite), graceful SIGTERM (requests in flight finish, new connections refused,
// the job in progress finishes, exit 0), the shutdown deadline, and a job interrupted by kill -9 taken
// up again by the next start (at once on PGlite; after the short lease on PostgreSQL).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../server/db/scratch-database.js';
import { petstoreYaml } from './support/matrix/openapi.js';
import { call, CHILD_TOKEN, freePort, killChild, startChildServer, type ChildServer } from './support/child-server.js';

const onPostgres = Boolean(process.env.DATABASE_URL);
const children: ChildServer[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const child of children) await killChild(child);
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function start(env: Record<string, string>, options?: { port?: number; freshDataDir?: boolean }) {
  const server = await startChildServer(env, options);
  children.push(server);
  return server;
}

/** A fresh storage of the current kind: a temp DATA_DIR, or a database copied from the migrated template. */
async function freshStorage(): Promise<Record<string, string>> {
  if (onPostgres) {
    const scratch: ScratchDatabase = await createScratchDatabase(process.env.DATABASE_URL!, { prefix: 'dwapi_operating', template: inject('postgresTemplate'), poolSize: 1 });
    cleanups.push(() => scratch.dispose());
    return { DATABASE_URL: scratch.url };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'dwapi-lifecycle-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return { DATA_DIR: dir };
}

/** A stand-in for a spec source that holds each request until the test releases it. */
let source: Server;
let sourceUrl: string;
const held: { res: import('node:http').ServerResponse; at: number }[] = [];
let requestsSeen = 0;
beforeAll(async () => {
  source = createServer((_req, res) => {
    requestsSeen++;
    held.push({ res, at: Date.now() });
  });
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}/pets.yaml`;
  cleanups.push(async () => {
    source.closeAllConnections();
    await new Promise((resolve) => source.close(resolve));
  });
});

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts a POST whose body is sent in two parts: the request is in flight until `finish()`. */
function slowPost(base: string, pathname: string, body: object) {
  const payload = Buffer.from(JSON.stringify(body));
  const url = new URL(`/v1${pathname}`, base);
  const req = request(url, { method: 'POST', headers: { authorization: `Bearer ${CHILD_TOKEN}`, 'content-type': 'application/json', 'content-length': payload.length }, agent: false });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res: IncomingMessage) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', reject);
  });
  req.write(payload.subarray(0, 5));
  return { response, finish: () => req.end(payload.subarray(5)) };
}

async function homeOrganization(base: string): Promise<string> {
  return (await call(base, 'GET', '/orgs')).body.items[0].id;
}

describe.skipIf(onPostgres)('exclusive DATA_DIR (embedded storage)', () => {
  it('refuses a second server on the same folder naming the folder and the holder, takes over after kill -9, and releases on exit', { timeout: 120_000 }, async () => {
    const env = await freshStorage();
    // A first start on an empty folder, as `npm start` on a new machine makes: initdb and every migration.
    const first = await start(env, { freshDataDir: true });
    const holderPid = first.child.pid!;
    const created = await call(first.url, 'POST', `/orgs/${await homeOrganization(first.url)}/spaces`, { title: 'Before the crash' });
    expect(created.status).toBe(201);

    const second = await startChildServer(env, { waitForListening: false });
    children.push(second);
    const { code } = await second.exited;
    expect(code).toBe(1);
    expect(second.output()).toContain(`DATA_DIR ${path.resolve(env.DATA_DIR!)} is in use by process ${holderPid}`);
    // The first one is unharmed.
    expect((await call(first.url, 'GET', `/spaces/${created.body.id}`)).status).toBe(200);

    first.kill('SIGKILL');
    await first.exited;
    expect(existsSync(path.join(env.DATA_DIR!, '.server.lock'))).toBe(true); // left behind by the crash
    const third = await start(env);
    expect((await call(third.url, 'GET', `/spaces/${created.body.id}`)).body.title).toBe('Before the crash');
    expect(JSON.parse(readFileSync(path.join(env.DATA_DIR!, '.server.pid'), 'utf8')).pid).toBe(third.child.pid);

    third.kill('SIGTERM');
    expect((await third.exited).code).toBe(0);
    expect(existsSync(path.join(env.DATA_DIR!, '.server.lock'))).toBe(false);
    expect(existsSync(path.join(env.DATA_DIR!, '.server.pid'))).toBe(false);
  });
});

describe('graceful shutdown', () => {
  it('on SIGTERM refuses new connections, finishes the request in flight and the job in progress, and exits 0', { timeout: 120_000 }, async () => {
    const env = await freshStorage();
    const server = await start({ ...env, ALLOW_PRIVATE_FETCH: 'true' });
    const org = await homeOrganization(server.url);
    // A job in progress: the spec source holds the fetch until released.
    const seenBefore = requestsSeen;
    expect((await call(server.url, 'POST', `/orgs/${org}/openapi`, { slug: 'graceful', source: { url: sourceUrl } })).status).toBe(201);
    await until(() => requestsSeen > seenBefore);
    // A request in flight: headers sent, body not finished.
    const inFlight = slowPost(server.url, `/orgs/${org}/spaces`, { title: 'In flight at SIGTERM' });
    await new Promise((resolve) => setTimeout(resolve, 300));

    server.kill('SIGTERM');
    await until(() => server.output().includes('shutting down'));
    // No new connections.
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
    expect(server.child.exitCode).toBeNull();

    inFlight.finish();
    const answered = await inFlight.response;
    expect(answered.status).toBe(201);
    // Still waiting for the job; release it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.child.exitCode).toBeNull();
    held.shift()!.res.writeHead(200, { 'content-type': 'application/yaml' }).end(petstoreYaml);
    expect((await server.exited).code).toBe(0);
    expect(server.output()).toContain('"msg":"stopped"');

    // The job finished before the exit, and the request's write is there.
    const again = await start(env);
    const spec = await call(again.url, 'GET', `/orgs/${org}/openapi/graceful`);
    expect(spec.body).toMatchObject({ processingState: 'complete' });
    expect(spec.body.lastVersion).toEqual(expect.any(String));
    const space = JSON.parse(answered.body);
    expect((await call(again.url, 'GET', `/spaces/${space.id}`)).body.title).toBe('In flight at SIGTERM');
    again.kill('SIGTERM');
    expect((await again.exited).code).toBe(0);
  });

  it('stops waiting for a request that never finishes after SHUTDOWN_TIMEOUT_MS', { timeout: 60_000 }, async () => {
    const env = await freshStorage();
    const server = await start({ ...env, SHUTDOWN_TIMEOUT_MS: '1000' });
    const stuck = slowPost(server.url, `/orgs/${await homeOrganization(server.url)}/spaces`, { title: 'Never finished' });
    stuck.response.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const signalledAt = Date.now();
    server.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(10_000);
    expect(server.output()).toContain('shutdown timeout');
  });
});

describe('a job interrupted by a crash', () => {
  it(`is run again by the next start (${onPostgres ? 'once its lease, no longer renewed, expires' : 'at once: the DATA_DIR lock proves its worker dead'})`, { timeout: 120_000 }, async () => {
    const env = { ...(await freshStorage()), ALLOW_PRIVATE_FETCH: 'true', JOB_LEASE_MS: '3000' };
    const port = await freePort();
    const server = await start(env, { port });
    const org = await homeOrganization(server.url);
    const seenBefore = requestsSeen;
    expect((await call(server.url, 'POST', `/orgs/${org}/openapi`, { slug: 'crashed', source: { url: sourceUrl } })).status).toBe(201);
    await until(() => requestsSeen > seenBefore);
    server.kill('SIGKILL');
    await server.exited;
    // The dead worker's fetch is dropped; the next start fetches again.
    held.shift()!.res.destroy();

    const restarted = await start(env, { port });
    await until(() => requestsSeen > seenBefore + 1, 30_000);
    held.shift()!.res.writeHead(200, { 'content-type': 'application/yaml' }).end(petstoreYaml);
    await until(async () => (await call(restarted.url, 'GET', `/orgs/${org}/openapi/crashed`)).body.processingState === 'complete');
    const spec = await call(restarted.url, 'GET', `/orgs/${org}/openapi/crashed`);
    expect(spec.body.lastVersion).toEqual(expect.any(String));
    expect(spec.body.lastProcessErrorCode).toBeUndefined();
    restarted.kill('SIGTERM');
    expect((await restarted.exited).code).toBe(0);
  });
});
