// A Git Sync import of a repository holding 152 MB of incompressible assets while the real server, a child
// process, is watched: the pack goes to disk as it arrives and each asset from it to the file store as it
// is read, so the server's memory stays well under the repository's size (bench/git-sync.ts imports
// 500 MB). Then an asset over 64 MiB that Git sends as a delta of another: it is rebuilt in a file beside
// the pack, not in memory. The folder file store; the Git server is `git http-backend` in this process.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, killChild, startChildServer, type ChildServer } from './support/child-server.js';
import { startGitHttpServer, type GitHttpServer } from './support/git-http-server.js';

const MB = 1024 * 1024;
const ASSETS = 38;
const ASSET_BYTES = 4_000_000; // under the format's 4 MiB per asset
/** Over the 64 MiB the pack reader rebuilds in memory (server/git-sync/pack-reader.ts MAX_IN_MEMORY_BYTES). */
const VIDEO_BYTES = 68_000_000;

function rssOf(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
}

let server: ChildServer | undefined;
let git: GitHttpServer;
let dataDir: string;
const hashes = new Map<string, string>();

beforeAll(async () => {
  git = await startGitHttpServer();
  dataDir = mkdtempSync(path.join(tmpdir(), 'git-sync-memory-'));
  // The server boots while the repositories are made.
  const starting = startChildServer({
    DATA_DIR: dataDir,
    FILES_BACKEND: 'folder',
    ALLOW_PRIVATE_FETCH: 'true',
    // As test/blobs-memory.test.ts and docs/operating.md: a small young generation, two malloc arenas.
    NODE_OPTIONS: '--max-semi-space-size=4',
    MALLOC_ARENA_MAX: '2',
  });
  const files: Record<string, string | Uint8Array> = {
    'README.md': '# Screenshots\n\n![The first](.gitbook/assets/shot-0.gif)\n',
    'SUMMARY.md': '# Table of contents\n\n* [Screenshots](README.md)\n',
  };
  for (let n = 0; n < ASSETS; n++) {
    const bytes = randomBytes(ASSET_BYTES);
    files[`.gitbook/assets/shot-${n}.gif`] = bytes;
    hashes.set(`shot-${n}.gif`, createHash('sha256').update(bytes).digest('hex'));
  }
  // Random bytes neither compress nor delta: Git is told not to try (`store`), so the commit and the pack stay fast.
  git.createRepository('small', { store: true });
  git.commit('small', { 'README.md': '# Small\n\n![A](.gitbook/assets/a.gif)\n', '.gitbook/assets/a.gif': randomBytes(10_000) }, 'Small');
  git.createRepository('big', { store: true });
  git.commit('big', files, 'Screenshots');
  // Two recordings alike but for their last bytes: Git sends one as a delta of the other.
  const video = randomBytes(VIDEO_BYTES);
  const longer = Buffer.concat([video, Buffer.from('the longer cut')]);
  hashes.set('demo.mp4', createHash('sha256').update(video).digest('hex'));
  hashes.set('demo-long.mp4', createHash('sha256').update(longer).digest('hex'));
  git.createRepository('videos', { store: true, deltas: true });
  git.commit(
    'videos',
    {
      'README.md': '# Videos\n\n{% file src=".gitbook/assets/demo.mp4" %}\n\n{% file src=".gitbook/assets/demo-long.mp4" %}\n',
      'SUMMARY.md': '# Table of contents\n\n* [Videos](README.md)\n',
      '.gitbook/assets/demo.mp4': video,
      '.gitbook/assets/demo-long.mp4': longer,
    },
    'Videos',
  );
  server = await starting;
}, 120_000);

afterAll(async () => {
  await killChild(server);
  await git?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function importInto(spaceId: string, repository: string): Promise<void> {
  const requested = await call(server!.url, 'POST', `/spaces/${spaceId}/git/import`, { url: `${git.base}/${repository}.git`, ref: 'refs/heads/main' });
  expect(requested.status).toBe(204);
  for (;;) {
    const info = await call(server!.url, 'GET', `/spaces/${spaceId}/git/info`);
    expect(info.status).toBe(200);
    const operation = info.body.operation;
    if (operation?.state === 'success' || operation?.state === 'failure') {
      expect(operation, JSON.stringify(operation)).toMatchObject({ state: 'success', result: 'applied' });
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

let organizationId: string;

async function space(title: string): Promise<string> {
  organizationId ??= await call(server!.url, 'POST', '/orgs', { title: 'Memory' }).then((org) => {
    expect(org.status).toBe(201);
    return org.body.id as string;
  });
  const made = await call(server!.url, 'POST', `/orgs/${organizationId}/spaces`, { title });
  expect(made.status).toBe(201);
  return made.body.id as string;
}

/** How much the server's resident memory grew above its idle size while `work` ran. */
async function growthDuring(work: () => Promise<void>): Promise<{ grew: number; idle: number; peak: number }> {
  const pid = server!.child.pid!;
  // The idle size is the median of half a second's samples: one sample may fall before or after a collection.
  const samples: number[] = [];
  for (let i = 0; i < 10; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    samples.push(rssOf(pid));
  }
  const idle = samples.sort((a, b) => a - b)[5]!;
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 50);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return { grew: peak - idle, idle, peak };
}

/** The sha256 of a stored file, downloaded. */
async function downloadedHash(file: { downloadURL: string }): Promise<string> {
  const download = await fetch(file.downloadURL);
  expect(download.status).toBe(200);
  return createHash('sha256').update(Buffer.from(await download.arrayBuffer())).digest('hex');
}

it('imports 152 MB of assets with the server growing by less than half of that', { timeout: 120_000 }, async () => {
  // Warm: every path of the import taken once with a small repository, then the idle size.
  await importInto(await space('Small'), 'small');
  const big = await space('Big');
  const { grew, idle, peak } = await growthDuring(() => importInto(big, 'big'));
  const files = await call(server!.url, 'GET', `/spaces/${big}/content/files?limit=100`);
  expect(files.status).toBe(200);
  expect(files.body.items).toHaveLength(ASSETS);
  for (const file of files.body.items) expect(file.size).toBe(ASSET_BYTES);
  // The bytes stored are the repository's.
  expect(await downloadedHash(files.body.items.find((f: { name: string }) => f.name === 'shot-7.gif'))).toBe(hashes.get('shot-7.gif'));
  // Under half the repository: a server holding its pack (or its assets) would grow by all of it. The
  // growth that remains is the import's working set and its garbage, which spread from 4 to 56 MB between
  // runs whatever the repository's size, so the repository is large enough (152 MB) for half of it to clear it.
  expect(grew, `idle ${Math.round(idle / MB)} MB, peak ${Math.round(peak / MB)} MB`).toBeLessThan((ASSETS * ASSET_BYTES) / 2);
});

it('imports an asset over 64 MiB that Git sent as a delta, rebuilt on disk, not in memory', { timeout: 120_000 }, async () => {
  const videos = await space('Videos');
  const { grew, idle, peak } = await growthDuring(() => importInto(videos, 'videos'));
  const files = await call(server!.url, 'GET', `/spaces/${videos}/content/files?limit=100`);
  expect(files.status).toBe(200);
  expect(files.body.items.map((f: { name: string }) => f.name).sort()).toEqual(['demo-long.mp4', 'demo.mp4']);
  for (const file of files.body.items) expect(await downloadedHash(file), file.name).toBe(hashes.get(file.name));
  // Rebuilt in memory, the delta's base and the object it makes would be held together: 136 MB. Through
  // files what grows is the import's working set and its garbage, as in the test above: this file's imports
  // grew the server by 4 to 73 MB over eight runs on a loaded machine, so the bound lies between the two.
  expect(grew, `idle ${Math.round(idle / MB)} MB, peak ${Math.round(peak / MB)} MB`).toBeLessThan(100 * MB);
});
