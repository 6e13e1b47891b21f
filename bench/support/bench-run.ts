// What the HTTP benchmarks (http.ts, write-path.ts, published-site.ts) share: a scratch folder and a list
// of everything to undo, run on success, failure, Ctrl-C and a time limit alike; servers started in their
// own Node process; and a JSON API call that fails loudly.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface Server {
  url: string;
  pid: number;
  /** The server's log file (removed with the scratch folder when the run ends). */
  logFile: string;
  stop(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, '../..');

export async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  return port;
}

/** SIGINT (main.ts then closes the database and exits, which also writes a --cpu-prof profile), SIGKILL after 30 s. */
async function stopChild(child: ChildProcess, exited: Promise<unknown>) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

/**
 * A benchmark run named `name` (its scratch folder is bench-<name>-…), given up after `limitMs`;
 * `headers` go with every `call` and with the request that waits for a server to answer.
 */
export function benchRun(name: string, limitMs: number, headers: Record<string, string>) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), `bench-${name}-`));
  // Everything to undo, newest first.
  const cleanups: (() => Promise<void> | void)[] = [() => rmSync(tmp, { recursive: true, force: true })];
  async function cleanUp() {
    while (cleanups.length > 0) await Promise.resolve(cleanups.pop()!()).catch((err) => console.error('cleanup:', err));
  }
  async function abort(message: string, code: number) {
    console.error(message);
    await cleanUp();
    process.exit(code);
  }
  process.on('SIGINT', () => void abort('interrupted', 130));
  process.on('SIGTERM', () => void abort('terminated', 143));
  setTimeout(() => void abort(`bench/${name}: gave up after ${limitMs / 1000} s`, 1), limitMs).unref();

  /**
   * Starts `script` in its own Node process and waits until it answers HTTP. Its stdout and stderr go to a
   * file, not a pipe: the request log is part of the server's real cost, but a pipe not drained fast
   * enough would slow it down (back-pressure) and skew the numbers.
   */
  async function startServer(serverName: string, script: string, env: Record<string, string>, nodeArgs: string[] = []): Promise<Server> {
    const port = await freePort();
    const logFile = path.join(tmp, `${serverName}.log`);
    const out = openSync(logFile, 'w');
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' };
    if (!env.DATABASE_URL) delete childEnv.DATABASE_URL; // never inherit a storage we did not choose
    const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], { cwd: root, env: childEnv, stdio: ['ignore', out, out] });
    closeSync(out);
    const exited = once(child, 'exit');
    const stop = () => stopChild(child, exited);
    cleanups.push(stop);
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
        const tail = readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
        throw new Error(`${serverName} did not start (exit ${child.exitCode ?? child.signalCode ?? 'timeout'}):\n${tail}`);
      }
      try {
        await fetch(`${url}/v1/spaces/none`, { headers, signal: AbortSignal.timeout(1000) });
        return { url, pid: child.pid!, logFile, stop };
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }

  /** A JSON request with `headers`; its answer, or an error naming the status and the answer. */
  async function call(method: string, url: string, body?: unknown): Promise<Record<string, any>> {
    const res = await fetch(url, {
      method,
      headers: { ...headers, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text(); // a 204 has no body
    const answer = (text ? JSON.parse(text) : {}) as Record<string, any>;
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(answer)}`);
    return answer;
  }

  return { tmp, cleanups, cleanUp, abort, startServer, call };
}
