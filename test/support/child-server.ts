// The real server (server/main.ts) as a child process, for the operating tests (test/operating-*.test.ts):
// started on a port of its own with a given DATA_DIR or DATABASE_URL, killed or stopped like an operator
// would, its output kept for the assertions.
//
// Three things keep the many starts of these tests cheap: the server runs from its esbuild bundle
// (scripts/source-bundle.mjs, as `npm run mock` does) instead of module by module under tsx, and an empty
// DATA_DIR is first filled with the suite's migrated PGlite template (test/support/global-setup.ts) instead of
// running initdb and every migration in WebAssembly, each saving seconds a start on this machine; and Node's
// compile cache (NODE_COMPILE_CACHE, beside the bundle's cache) keeps the bytecode of the bundle and of the
// packages it loads from one start to the next: 3.1 s to listening instead of 4.0 s, under load.
// `{ freshDataDir: true }` leaves an empty folder empty, for the test of a first start.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { inject } from 'vitest';
import { sourceBundle } from '../../scripts/source-bundle.mjs';
import { expectDocumentedAnswer } from './api.js';
import { recordChildOutput, recordToken } from './suite-log.js';

const root = path.resolve(import.meta.dirname, '../..');
// Node keeps a folder per Node version inside, so the passes on Node 22 and 26 never share one.
const compileCache = path.join(root, 'node_modules/.cache/docs-workspace-api/compile-cache');
export const CHILD_TOKEN = 'operating-test-token-0123456789';

export interface ChildServer {
  child: ChildProcess;
  url: string;
  /** stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
}

/** A port free at the time of asking (so a restarted server can take the same one). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * Spawns the server with `env` on top of a clean environment (no DATABASE_URL unless given) and
 * resolves once it listens, or rejects with its output when it exits first.
 */
export async function startChildServer(
  env: Record<string, string>,
  options: { port?: number; waitForListening?: boolean; freshDataDir?: boolean } = {},
): Promise<ChildServer> {
  try {
    return await startOnce(env, options);
  } catch (error) {
    // The port was free when freePort asked, but another process of the suite may take it before the child
    // listens (seen once in a CI run): a port we chose is chosen again, once.
    if (options.port !== undefined || !String((error as Error).message).includes('EADDRINUSE')) throw error;
    return startOnce(env, options);
  }
}

async function startOnce(
  env: Record<string, string>,
  { port, waitForListening = true, freshDataDir = false }: { port?: number; waitForListening?: boolean; freshDataDir?: boolean },
): Promise<ChildServer> {
  const chosen = port ?? (await freePort());
  if (env.DATA_DIR && !freshDataDir && readdirSync(env.DATA_DIR).length === 0) execFileSync('tar', ['xf', inject('pgliteTemplate'), '-C', env.DATA_DIR]);
  const entry = await sourceBundle('server/main.ts', { name: 'server' });
  const child = spawn(process.execPath, [entry], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      HOST: '127.0.0.1',
      PORT: String(chosen),
      BOOTSTRAP_TOKEN: CHILD_TOKEN,
      LOG_LEVEL: 'info',
      // The operating tests send thousands of requests with one token; those about the limit set their own.
      RATE_LIMIT_PER_MINUTE: '1000000',
      NODE_COMPILE_CACHE: compileCache,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  recordToken(CHILD_TOKEN);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      // Its log lines join the suite's, which scripts/check-secrets.ts searches for tokens.
      recordChildOutput(String(child.pid), output);
      resolve({ code, signal });
    }),
  );
  const server: ChildServer = {
    child,
    url: `http://127.0.0.1:${chosen}`,
    output: () => output,
    exited,
    kill: (signal) => void child.kill(signal),
  };
  if (!waitForListening) return server;
  const listening = new Promise<void>((resolve) => {
    const check = () => {
      if (output.includes('"msg":"listening"')) {
        child.stdout!.off('data', check);
        resolve();
      }
    };
    child.stdout!.on('data', check);
  });
  const early = exited.then(({ code, signal }) => {
    throw new Error(`server exited (${code ?? signal}) before listening:\n${output}`);
  });
  await Promise.race([listening, early]);
  return server;
}

/** Stops a child that may still run: SIGKILL, then waits for its exit. For afterAll. */
export async function killChild(server: ChildServer | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.kill('SIGKILL');
  await server.exited;
}

/** `fetch` with the bootstrap token and a JSON body. */
export async function call(base: string, method: string, pathname: string, body?: unknown, init: { signal?: AbortSignal } = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${base}/v1${pathname}`, {
    method,
    headers: { authorization: `Bearer ${CHILD_TOKEN}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: init.signal,
  });
  const text = await res.text();
  const parsed = text ? JSON.parse(text) : undefined;
  // The child's answers are checked against the document like those `send` gets in process.
  expectDocumentedAnswer(method, `/v1${pathname.split('?')[0]}`, res.status, parsed, res.headers);
  return { status: res.status, body: parsed, headers: res.headers };
}
