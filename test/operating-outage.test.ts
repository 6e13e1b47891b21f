// DATABASE OUTAGE (PostgreSQL only; runs in CI's PostgreSQL pass). The real server as a child process
// talks to PostgreSQL through a TCP proxy the test cuts and restores (the shared PostgreSQL server keeps
// running: other test files use it). While cut, requests under load get 503 with the error body and
// Retry-After, /health stays 200, /ready is 503, and the process does not crash; once restored, requests
// succeed again without a restart.
import { createServer, type Server, type Socket, connect } from 'node:net';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../server/db/scratch-database.js';
import { call, freePort, killChild, startChildServer, type ChildServer } from './support/child-server.js';

const adminUrl = process.env.DATABASE_URL;

/** A TCP proxy to `target` that can drop every connection and refuse new ones (cut), then accept again (restore). */
class CuttableProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  async restore(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const [a, b] of [[client, upstream], [upstream, client]] as const) {
        this.sockets.add(a);
        a.on('error', () => b.destroy());
        a.on('close', () => (this.sockets.delete(a), b.destroy()));
        a.pipe(b);
      }
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}

let child: ChildServer | undefined;
let scratch: ScratchDatabase | undefined;
let proxy: CuttableProxy | undefined;
afterAll(async () => {
  await killChild(child);
  await proxy?.cut();
  await scratch?.dispose();
});

describe.skipIf(!adminUrl)('database outage (PostgreSQL)', () => {
  it('answers 503 with Retry-After while the database is unreachable, never crashes, and recovers without a restart', { timeout: 120_000 }, async () => {
    scratch = await createScratchDatabase(adminUrl!, { prefix: 'dwapi_operating', template: inject('postgresTemplate'), poolSize: 1 });
    const direct = new URL(scratch.url);
    proxy = new CuttableProxy(await freePort(), { host: direct.hostname, port: Number(direct.port || 5432) });
    await proxy.restore();
    const viaProxy = new URL(scratch.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    child = await startChildServer({ DATABASE_URL: viaProxy.toString(), DB_CONNECT_TIMEOUT_MS: '1000' });
    const base = child.url;
    const org = (await call(base, 'GET', '/orgs')).body.items[0].id as string;
    const space = (await call(base, 'POST', `/orgs/${org}/spaces`, { title: 'Before the outage' })).body.id as string;

    // Load: 8 clients reading and writing until told to stop.
    const statuses: number[] = [];
    const bad: string[] = [];
    let load = true;
    const clients = Array.from({ length: 8 }, async (_, n) => {
      for (let i = 0; load; i++) {
        const res = i % 2 === 0 ? await call(base, 'GET', `/spaces/${space}`) : await call(base, 'POST', `/orgs/${org}/spaces`, { title: `Load ${n}-${i}` });
        statuses.push(res.status);
        if (res.status === 503) {
          if (res.headers.get('retry-after') !== '5' || res.body?.error?.code !== 503 || typeof res.body.error.message !== 'string') bad.push(JSON.stringify(res.body));
        } else if (res.status !== 200 && res.status !== 201) bad.push(`${res.status} ${JSON.stringify(res.body)}`);
        if (res.status === 503) await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });

    await new Promise((resolve) => setTimeout(resolve, 500));
    await proxy.cut();
    const cutAt = statuses.length;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect((await fetch(`${base}/health`)).status).toBe(200);
    const notReady = await fetch(`${base}/ready`);
    expect(notReady.status).toBe(503);
    expect(notReady.headers.get('retry-after')).toBe('5');
    const during = statuses.slice(cutAt);
    expect(during.filter((s) => s === 503).length).toBeGreaterThan(0);

    await proxy.restore();
    // Recovers on its own: the pool opens new connections on the next queries.
    const recoveredBy = Date.now() + 15_000;
    while ((await call(base, 'GET', `/spaces/${space}`)).status !== 200) {
      expect(Date.now()).toBeLessThan(recoveredBy);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const restoredAt = statuses.length;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    load = false;
    await Promise.all(clients);

    expect(bad).toEqual([]);
    const after = statuses.slice(restoredAt);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((s) => s === 200 || s === 201)).toBe(true);
    expect((await fetch(`${base}/ready`)).status).toBe(200);
    expect(child.child.exitCode).toBeNull();
    // No 500: every failure was recognized as the database being unavailable.
    expect(child.output()).not.toContain('unexpected error');
    child.kill('SIGTERM');
    expect((await child.exited).code).toBe(0);
  });
});
