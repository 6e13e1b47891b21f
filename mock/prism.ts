// Starts Prism on the published document, as a child process, and resolves once it answers.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const prismBin = path.join(root, 'node_modules/.bin/prism');
export const specFile = path.join(root, 'generated/openapi.json');

export interface RunningPrism {
  /** Where Prism itself listens: the spec's paths at the root. */
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export interface PrismOptions {
  /** Generate answers from the schemas (`-d`) instead of returning the documented examples. */
  dynamic?: boolean;
  timeoutMs?: number;
}

/**
 * The published document as Prism reads it: GitBook's Document family (JSONDocument and its `Document*` node
 * schemas, recursive through dozens of unions) stands as an object whose shape the document describes, because
 * Prism resolves every reference of it before it starts and did not start within minutes. Answers are the
 * documented examples (or, with `--dynamic`, an object where a Document goes); the real server checks Documents.
 */
function prismSpecFile(): string {
  const spec = JSON.parse(readFileSync(specFile, 'utf8'));
  for (const name of Object.keys(spec.components.schemas)) {
    if (name === 'JSONDocument' || name === 'Document' || /^Document(Block|Inline|Text|Mark|Fragment|Table|Action)/.test(name)) {
      spec.components.schemas[name] = { type: 'object', description: spec.components.schemas[name].description ?? `GitBook's ${name}.` };
    }
  }
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'prism-')), 'openapi.json');
  writeFileSync(file, JSON.stringify(spec));
  return file;
}

/** Starts `prism mock` (CORS on) on the given port; rejects if it has not started within `timeoutMs`. */
export function startPrism(port: number, host = '127.0.0.1', { dynamic = false, timeoutMs = 60_000 }: PrismOptions = {}): Promise<RunningPrism> {
  const args = ['mock', prismSpecFile(), '--port', String(port), '--host', host, '--cors', ...(dynamic ? ['--dynamic'] : [])];
  const child = spawn(prismBin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = `http://${host}:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`Prism did not start within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        // The front logs every request in words; Prism's own log is not needed past start-up.
        child.stdout.off('data', onData);
        child.stderr.off('data', onData);
        child.stdout.resume();
        child.stderr.resume();
        resolve({ url, process: child, stop });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited with code ${code}:\n${output}`));
    });
  });
}

/**
 * Prism on a port free when asked: the port is probed, then let go for Prism to take, so another process may
 * take it first (EADDRINUSE); then Prism starts again on another one, up to `attempts` times.
 */
export async function startPrismOnFreePort(host: string, options: PrismOptions = {}, attempts = 3): Promise<RunningPrism> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startPrism(await freePort(host), host, options);
    } catch (err) {
      if (attempt >= attempts || !/EADDRINUSE/.test((err as Error).message)) throw err;
    }
  }
}

/** A free TCP port on `host`, for a backend the front forwards to. */
export async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}
