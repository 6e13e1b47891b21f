// Upload and download throughput of file bytes on each file store backend (server/blobs/): the database
// (PGlite, in memory), a folder, and S3 (a local s3rver in this process, so its own work is counted too).
// Each round uploads a file given by URL (served from here, streamed to the store) and downloads it whole
// through this server (S3 proxied: presigned redirects off), on one server listening on loopback.
//
//   npx tsx bench/blobs.ts [--mb 64] [--rounds 3]
//
// Results: bench/results/blobs.json (median MB/s of the rounds per backend and direction; the load with them).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { createApp } from '../server/app.js';
import { createOrganization, createUser, issueToken } from '../server/auth/bootstrap.js';
import { blobStoreFrom, configureBlobStore } from '../server/blobs/store.js';
import { createDb } from '../server/db/client.js';
import { startLocalS3 } from '../test/support/s3-server.js';

const { values: opts } = parseArgs({ options: { mb: { type: 'string', default: '64' }, rounds: { type: 'string', default: '3' } } });
const size = Number(opts.mb) * 1024 * 1024;
const rounds = Number(opts.rounds);
process.env.ALLOW_PRIVATE_FETCH = 'true';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mbps = (bytes: number, ms: number) => Math.round((bytes / 1024 / 1024 / (ms / 1000)) * 10) / 10;

async function main() {
  const source = createServer((req, res) => {
    // Distinct bytes for each request (the round in the path), so no upload is a dedupe.
    const seed = createHash('sha256').update(req.url ?? '').digest();
    const block = Buffer.alloc(64 * 1024);
    for (let i = 0; i < block.length; i++) block[i] = seed[i % 32]! ^ (i & 0xff);
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(size) });
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const part = block.subarray(0, Math.min(block.length, size - sent));
        sent += part.length;
        if (!res.write(part)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;

  const database = createDb({ kind: 'pglite' });
  await database.migrate();
  const app = createApp({ db: database.db, logger: pino({ level: 'silent' }), publicUrl: 'http://placeholder' });
  const listening = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => listening.once('listening', resolve));
  const base = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
  const owner = await createUser(database.db, { email: 'owner@bench.example', displayName: 'Owner' });
  const organization = await createOrganization(database.db, { title: 'Bench', ownerId: owner.id });
  const token = await issueToken(database.db, owner.id, 'bench');
  const api = async (method: string, pathname: string, body?: unknown) => {
    const res = await fetch(`${base}/v1${pathname}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    if (res.status >= 300) throw new Error(`${method} ${pathname}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<any>;
  };
  const space = await api('POST', `/orgs/${organization.id}/spaces`, { title: 'Bench' });
  const cr = await api('POST', `/spaces/${space.id}/change-requests`, { subject: 'Bench' });

  const dir = mkdtempSync(path.join(tmpdir(), 'bench-files-'));
  const s3 = await startLocalS3();
  const results: Record<string, { uploadMBps: number; downloadMBps: number; uploadsMs: number[]; downloadsMs: number[] }> = {};
  for (const backend of ['database', 'folder', 's3'] as const) {
    configureBlobStore(blobStoreFrom({ backend, dir, s3: { ...s3.settings, presignSeconds: 0 }, maxBytes: size, graceMs: 86_400_000 }));
    const uploadsMs: number[] = [];
    const downloadsMs: number[] = [];
    for (let round = 0; round < rounds; round++) {
      let started = performance.now();
      const done = await api('POST', `/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
        changes: [{ operation: 'insert_files', files: [{ name: `${backend}-${round}.bin`, url: `${origin}/${backend}/${round}` }] }],
      });
      uploadsMs.push(performance.now() - started);
      // The link is made for `publicUrl`: asked of this server at its own address.
      const link = new URL(done.insertedFiles[0].downloadURL);
      started = performance.now();
      const res = await fetch(`${base}${link.pathname}${link.search}`);
      let received = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) received += chunk.byteLength;
      downloadsMs.push(performance.now() - started);
      if (res.status !== 200 || received !== size) throw new Error(`${backend}: download answered ${res.status} with ${received} bytes`);
    }
    results[backend] = { uploadMBps: mbps(size, median(uploadsMs)), downloadMBps: mbps(size, median(downloadsMs)), uploadsMs: uploadsMs.map(Math.round), downloadsMs: downloadsMs.map(Math.round) };
    console.log(`${backend}: upload ${results[backend]!.uploadMBps} MB/s, download ${results[backend]!.downloadMBps} MB/s (median of ${rounds}, ${opts.mb} MB)`);
  }
  const record = { date: new Date().toISOString(), fileMB: Number(opts.mb), rounds, cpus: cpus().length, loadavg: loadavg().map((l) => Math.round(l * 100) / 100), node: process.version, results };
  writeFileSync(path.join(import.meta.dirname, 'results', 'blobs.json'), `${JSON.stringify(record, null, 2)}\n`);
  listening.close();
  source.close();
  await s3.stop();
  await database.close();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
