// Starts Prism on the published document, as a child process, and resolves once it answers.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
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

/** Starts `prism mock` (CORS on) on the given port; rejects if it has not started within `timeoutMs`. */
export function startPrism(port: number, host = '127.0.0.1', { dynamic = false, timeoutMs = 60_000 }: PrismOptions = {}): Promise<RunningPrism> {
  const args = ['mock', specFile, '--port', String(port), '--host', host, '--cors', ...(dynamic ? ['--dynamic'] : [])];
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
