// Starts Prism on the published document, as a child process, and resolves once it answers.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { servePrefixed } from './v1-prefix.js';

const root = path.resolve(import.meta.dirname, '..');
const prismBin = path.join(root, 'node_modules/.bin/prism');
export const specFile = path.join(root, 'generated/openapi.yaml');

export interface RunningMock {
  /** Where Prism itself listens: the spec's paths at the root. */
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `prism mock` (CORS on) on the given port; rejects if it has not started within `timeoutMs`. */
export function startPrism(port: number, host = '127.0.0.1', timeoutMs = 60_000): Promise<RunningMock> {
  const child = spawn(prismBin, ['mock', specFile, '--port', String(port), '--host', host, '--cors'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = `http://${host}:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
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

export interface ServedMock {
  /** Base URL of the API, ending in /v1, as for the real server. */
  baseUrl: string;
  stop(): Promise<void>;
}

/** Prism on a free internal port, served under `/v1` on `port` (0: any free port). */
export async function startMock(port: number, host = '127.0.0.1'): Promise<ServedMock & { prism: RunningMock }> {
  const prism = await startPrism(await freePort(host), host);
  const front: Server = await servePrefixed(new URL(prism.url), port, host).catch(async (err) => {
    await prism.stop();
    throw err;
  });
  const { port: actual } = front.address() as AddressInfo;
  return {
    baseUrl: `http://${host}:${actual}/v1`,
    prism,
    stop: async () => {
      await new Promise((resolve) => front.close(resolve));
      await prism.stop();
    },
  };
}

async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}
