// The runtime of integration scripts (`runtime: v1`): a small pool of sandbox threads
// (sandbox-worker.mjs, QuickJS in WebAssembly) that run a script's `fetch(request, env, context)` with
// limits, each enforced here or in the sandbox:
// - memory: one sandbox's WebAssembly instance may grow to at most `memoryBytes` (64 MiB); a sandbox is
//   kept warm for the next invocation of the same integration and script (see sandbox-worker.mjs);
// - CPU time: an invocation is interrupted after `cpuMs` (5 s) of running guest code (time spent waiting
//   on its own fetch calls does not count), and a thread that does not answer within `wallMs` is
//   replaced (the invocations it ran fail), so nothing holds the server;
// - concurrency: at most `perIntegration` invocations of one integration run at once; the next ones wait
//   in a queue of at most `queueLimit`, past which an invocation is refused at once;
// - no file system, no process, no imports: the sandbox has none of them; timers and work left to
//   `context.waitUntil` run within the invocation (the answer may go first), under the same limits;
// - outbound fetch: only through the host function below, i.e. server/http/outbound.ts with a deadline,
//   a size cap and the address rules of user-given URLs (except the server's own API).
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { outboundRequest, OutboundTimeout } from '../http/outbound.js';
import { createUrls, type Urls } from '../urls.js';

export interface RuntimeLimits {
  memoryBytes: number;
  cpuMs: number;
  /** The longest an invocation may take in all, its fetch calls included. */
  wallMs: number;
  stackBytes: number;
  perIntegration: number;
  queueLimit: number;
  /** Deadline and answer cap of each fetch a script makes. */
  fetchTimeoutMs: number;
  fetchMaxBytes: number;
  /** Calls per invocation. */
  fetchesPerInvocation: number;
}

export const DEFAULT_LIMITS: RuntimeLimits = {
  memoryBytes: 64 * 1024 * 1024,
  cpuMs: 5_000,
  wallMs: 30_000,
  stackBytes: 512 * 1024,
  perIntegration: 4,
  queueLimit: 64,
  fetchTimeoutMs: 10_000,
  fetchMaxBytes: 5 * 1024 * 1024,
  fetchesPerInvocation: 50,
};

export interface ScriptRequest {
  method: string;
  url: string;
  headers: [string, string][];
  /** The body as text ('' for none). */
  body: string;
  /** Instead of `body`, a body that is not text: its bytes, base64. */
  bodyBase64?: string;
}

export interface ScriptLog {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  timestamp: string;
}

export interface ScriptResponse {
  status: number;
  headers: [string, string][];
  /** The body, when the script answered text or nothing ('' then). */
  body: string;
  /** Instead of `body`, when the script answered bytes (an ArrayBuffer or a typed array): base64. */
  bodyBase64?: string;
  logs: ScriptLog[];
  cpuMs: number;
  /**
   * When the script left work to `context.waitUntil`: settles once that work is done (the response goes
   * first), with every log line of the invocation and, if the work failed, why. Never rejects.
   */
  settled?: Promise<{ logs: ScriptLog[]; error?: string }>;
}

/** The script failed: it threw, answered no Response, ran out of CPU time or memory, or a limit refused it. */
export class ScriptFailed extends Error {
  constructor(
    message: string,
    readonly logs: ScriptLog[] = [],
  ) {
    super(message);
  }
}

/** The invocation's deadline passed (the sandbox may still be stopping it: its slot is held until then). */
export class ScriptPastDeadline extends ScriptFailed {}

export interface InvokeOptions {
  /** Whose limit of concurrent invocations this one counts against (the integration's name). */
  key: string;
  script: string;
  /** The script's hash (scriptHash), when the caller has it: spares hashing the script at each invocation. */
  scriptHash?: string;
  request: ScriptRequest;
  env: Record<string, unknown>;
}

interface Pending {
  pool: string;
  resolve: (value: ScriptResponse) => void;
  reject: (err: Error) => void;
  fetches: number;
  timer: NodeJS.Timeout;
  /** When the invocation's deadline passes, on the shared clock (absoluteNow): nothing is answered after it. */
  deadlineAt: number;
  /** The deadline passed and the caller was told so: what the thread sends after is not used. */
  late?: boolean;
  /** The sandbox is done with the invocation (its result came, or the thread stopped): its slot is free. */
  finish: () => void;
  /** Once the response was answered ahead of waitUntil work: how the rest ends. */
  settle?: (value: { logs: ScriptLog[]; error?: string }) => void;
}

/**
 * Now, in milliseconds since the epoch, on a clock every thread shares (performance.now() counts from each
 * thread's own start): deadlines are handed to the sandbox thread as instants on it.
 */
export function absoluteNow(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * How long a thread may take to report an invocation stopped at its deadline before it is replaced: a slice
 * of guest code runs at most the CPU limit without the thread answering anything, so a thread is replaced
 * (failing the other invocations it runs) only when it is stuck beyond that.
 */
const lateGraceMs = (limits: RuntimeLimits) => Math.max(1_000, limits.cpuMs + 500);

/** One sandbox thread and the invocations it runs. */
class SandboxThread {
  readonly worker: Worker;
  readonly pending = new Map<number, Pending>();
  readonly ready: Promise<void>;
  /** Warm sandboxes waiting in this thread, by pool (integration and script hash), as its answers tell. */
  readonly warm = new Map<string, number>();
  /**
   * The pools whose script this thread holds (sandbox-worker.mjs keeps the text of the last scripts it was
   * sent): an invocation of one of them is sent without its script, which is often 100 KB or more (a
   * bundle of @gitbook/runtime) and was copied to the thread at every invocation.
   */
  readonly scripts = new Set<string>();
  /** The characters of those scripts, together. */
  scriptChars = 0;

  constructor(private readonly runtime: ScriptRuntime) {
    this.worker = new Worker(new URL('./sandbox-worker.mjs', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: 256 } });
    this.worker.unref();
    this.ready = new Promise((resolve, reject) => {
      this.worker.once('message', (message: { warmUpFailed?: string }) => {
        // Not fatal (each invocation makes its own sandbox), but not to be missed: Node's process warning,
        // which a host can listen to ('warning') and which is written to stderr otherwise.
        if (message.warmUpFailed !== undefined) process.emitWarning(`The sandbox thread's warm-up invocation failed: ${message.warmUpFailed}`, { code: 'DWAPI_SANDBOX_WARM_UP' });
        resolve();
      });
      this.worker.once('error', reject);
    });
    this.ready.catch(() => {});
    this.worker.on('message', (message) => this.onMessage(message));
    this.worker.on('error', (err) => this.fail(`The sandbox thread failed: ${err.message}`));
    this.worker.on('exit', () => this.fail('The sandbox thread stopped'));
  }

  private onMessage(message: {
    type: string;
    id: number;
    fetchId?: number;
    request?: unknown;
    result?: ScriptResponse;
    error?: { message: string; logs: ScriptLog[] };
    pool?: string;
    kept?: boolean;
    evicted?: string[];
  }) {
    const pending = this.pending.get(message.id);
    // Past the deadline (this thread's event loop or the sandbox's was held up and the timer did not fire
    // yet): what comes now is not an answer, whatever the sandbox made of it.
    if (pending && !pending.late && (message.type === 'answer' || message.type === 'result') && absoluteNow() > pending.deadlineAt) {
      this.expire(message.id, pending);
    }
    if (message.type === 'fetch') {
      const answer = pending && pending.fetches++ < this.runtime.limits.fetchesPerInvocation
        ? this.runtime.hostFetch(message.request as HostFetchRequest)
        : Promise.resolve(JSON.stringify({ error: `At most ${this.runtime.limits.fetchesPerInvocation} fetch calls per invocation` }));
      void answer.then((text) => this.worker.postMessage({ type: 'fetched', fetchId: message.fetchId, answer: text }));
      return;
    }
    if (message.type === 'answer') {
      if (!pending || pending.settle || pending.late) return;
      const settled = new Promise<{ logs: ScriptLog[]; error?: string }>((resolve) => (pending.settle = resolve));
      pending.resolve({ ...message.result!, settled });
      return;
    }
    if (message.type !== 'result') return;
    for (const pool of message.evicted ?? []) this.count(pool, -1);
    if (message.kept && pending) this.count(pending.pool, +1);
    if (!pending) return;
    this.pending.delete(message.id);
    clearTimeout(pending.timer);
    pending.finish();
    if (pending.late) return;
    if (pending.settle) pending.settle(message.error ? { logs: message.error.logs, error: message.error.message } : { logs: message.result!.logs });
    else if (message.error) pending.reject(new ScriptFailed(message.error.message, message.error.logs));
    else pending.resolve(message.result!);
  }

  count(pool: string, delta: number) {
    const count = (this.warm.get(pool) ?? 0) + delta;
    if (count > 0) this.warm.set(pool, count);
    else this.warm.delete(pool);
  }

  /**
   * The invocation's deadline passed: its caller is told at once (the response, or the end of its waitUntil
   * work, fails). The sandbox stops it on its side at the same instant; its slot stays taken until the thread
   * says so, and a thread that does not within lateGraceMs is replaced.
   */
  expire(id: number, pending: Pending) {
    if (pending.late) return;
    pending.late = true;
    clearTimeout(pending.timer);
    const reason = `The script did not finish within ${this.runtime.limits.wallMs} ms`;
    if (pending.settle) pending.settle({ logs: [], error: reason });
    else pending.reject(new ScriptPastDeadline(reason));
    pending.timer = setTimeout(() => {
      if (this.pending.get(id) === pending) void this.worker.terminate();
    }, lateGraceMs(this.runtime.limits));
  }

  /** Fails every invocation of this thread (it stopped or is being replaced). */
  fail(reason: string) {
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.finish();
      if (!pending.late) {
        if (pending.settle) pending.settle({ logs: [], error: reason });
        else pending.reject(new ScriptFailed(reason));
      }
      this.pending.delete(id);
    }
    this.runtime.replace(this);
  }
}

interface HostFetchRequest {
  url: string;
  method: string;
  headers: [string, string][];
  body: string | null;
  bodyBase64?: string;
  redirect?: string;
}

/** Scripts a sandbox thread keeps the text of, by pool (SandboxThread.scripts), and their size together. */
const THREAD_SCRIPTS = 32;
const THREAD_SCRIPT_CHARS = 32 * 1024 * 1024;

/** A script's hash (SHA-256, base64): what its sandboxes are pooled by, stored with it when it is published. */
export function scriptHash(script: string): string {
  return createHash('sha256').update(script).digest('base64');
}

/** A body read from the network or a client, for the sandbox: text when it is UTF-8, else base64. */
export function bodyForScript(bytes: Buffer): { body: string; bodyBase64?: string } {
  return isUtf8(bytes) ? { body: bytes.toString('utf8') } : { body: '', bodyBase64: bytes.toString('base64') };
}

/** The bytes of a script's answer. */
export function scriptResponseBytes(response: Pick<ScriptResponse, 'body' | 'bodyBase64'>): Buffer {
  return response.bodyBase64 !== undefined ? Buffer.from(response.bodyBase64, 'base64') : Buffer.from(response.body, 'utf8');
}

/** A pool of sandbox threads; one per process is enough (sharedScriptRuntime). */
export class ScriptRuntime {
  private threads: SandboxThread[] = [];
  private next = 0;
  private nextId = 1;
  private readonly running = new Map<string, number>();
  private readonly queues = new Map<string, (() => void)[]>();

  constructor(
    readonly limits: RuntimeLimits = DEFAULT_LIMITS,
    readonly options: { threads?: number; ownApiOrigin?: string } = {},
  ) {}

  /** Runs the script's fetch for `request`; rejects with ScriptFailed when the script or a limit fails it. */
  async invoke(options: InvokeOptions): Promise<ScriptResponse> {
    await this.acquire(options.key);
    // The slot is taken until the sandbox is done with the invocation: after the answer, work left to
    // waitUntil still runs; after a deadline, until the sandbox has stopped it.
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    void finished.then(() => this.release(options.key));
    try {
      return await this.run(options, finish);
    } catch (err) {
      if (!(err instanceof ScriptPastDeadline)) finish();
      throw err;
    }
  }

  private async run({ key, script, scriptHash: hash, request, env }: InvokeOptions, finish: () => void): Promise<ScriptResponse> {
    // Sandboxes are reused by integration and script: a script published anew gets new ones.
    const pool = `${key}\0${hash ?? scriptHash(script)}`;
    const thread = this.thread(pool);
    await thread.ready;
    // The deadline counts from here, once the thread has started (compiling QuickJS is not the script's
    // time): a thread busy with other invocations is time the script had.
    const deadlineAt = absoluteNow() + this.limits.wallMs;
    const id = this.nextId++;
    return new Promise<ScriptResponse>((resolve, reject) => {
      // At the deadline the caller is told, whatever the sandbox thread is doing (expire()).
      const timer = setTimeout(() => {
        const pending = thread.pending.get(id);
        if (pending) thread.expire(id, pending);
      }, Math.max(0, deadlineAt - absoluteNow()));
      thread.pending.set(id, { pool, resolve, reject, fetches: 0, timer, deadlineAt, finish });
      const known = thread.scripts.has(pool);
      if (!known) {
        // The thread forgets them all at once (in message order, so no invocation sent after relies on one).
        if (thread.scripts.size >= THREAD_SCRIPTS || thread.scriptChars + script.length > THREAD_SCRIPT_CHARS) {
          thread.scripts.clear();
          thread.scriptChars = 0;
          thread.worker.postMessage({ type: 'forget-scripts' });
        }
        thread.scripts.add(pool);
        thread.scriptChars += script.length;
      }
      thread.worker.postMessage({ type: 'invoke', id, pool, ...(!known && { script }), request, env, limits: this.limits, deadlineAt });
    });
  }

  /** A fetch call of a script: through the outbound guard, answered as JSON text to the sandbox. */
  async hostFetch(request: HostFetchRequest): Promise<string> {
    try {
      const own = this.options.ownApiOrigin !== undefined && new URL(request.url).origin === this.options.ownApiOrigin;
      const response = await outboundRequest(
        request.url,
        { timeoutMs: this.limits.fetchTimeoutMs, maxBytes: this.limits.fetchMaxBytes },
        {
          method: request.method,
          headers: Object.fromEntries(request.headers),
          ...(request.method !== 'GET' && request.method !== 'HEAD' && request.bodyBase64 !== undefined && { body: Buffer.from(request.bodyBase64, 'base64') }),
          ...(request.method !== 'GET' && request.method !== 'HEAD' && request.bodyBase64 === undefined && request.body !== null && { body: request.body }),
          redirect: request.redirect === 'manual' ? 'manual' : 'follow',
          // The server's own API is where the operator runs it; every other URL is the script's choice.
          origin: own ? 'operator' : 'user',
        },
      );
      return JSON.stringify({ status: response.status, headers: [...response.headers.entries()], ...bodyForScript(response.body) });
    } catch (err) {
      const message = err instanceof OutboundTimeout ? err.message : err instanceof Error ? err.message : String(err);
      return JSON.stringify({ error: `fetch failed: ${message}` });
    }
  }

  /**
   * The thread for an invocation of `pool`: the least busy thread with a warm sandbox of it (taken for this
   * invocation), unless another thread has fewer invocations running, which then makes a sandbox of its own
   * (kept warm there after). Taking the first thread with a warm sandbox sent every invocation of a busy
   * integration to one thread, which runs one at a time, while the other stayed idle
   * (bench/results/script-runtime.md). With nothing running anywhere, the next in turn.
   */
  private thread(pool: string): SandboxThread {
    const count = this.options.threads ?? 2;
    while (this.threads.length < count) this.threads.push(new SandboxThread(this));
    let warm: SandboxThread | undefined;
    let least: SandboxThread | undefined;
    for (const t of this.threads) {
      if ((t.warm.get(pool) ?? 0) > 0 && (!warm || t.pending.size < warm.pending.size)) warm = t;
      if (!least || t.pending.size < least.pending.size) least = t;
    }
    if (warm && warm.pending.size <= least!.pending.size) {
      warm.count(pool, -1);
      return warm;
    }
    if (least!.pending.size > 0 || warm) return least!;
    return this.threads[this.next++ % this.threads.length];
  }

  /** Drops a thread that stopped; the next invocation starts a new one. */
  replace(thread: SandboxThread) {
    this.threads = this.threads.filter((t) => t !== thread);
  }

  private acquire(key: string): Promise<void> {
    const running = this.running.get(key) ?? 0;
    if (running < this.limits.perIntegration) {
      this.running.set(key, running + 1);
      return Promise.resolve();
    }
    const queue = this.queues.get(key) ?? [];
    if (queue.length >= this.limits.queueLimit) {
      return Promise.reject(new ScriptFailed(`Too many invocations of ${key} at once (${this.limits.perIntegration} running, ${queue.length} waiting)`));
    }
    this.queues.set(key, queue);
    // The slot is handed over by release(), so the count stays as it is.
    return new Promise((resolve) => queue.push(resolve));
  }

  private release(key: string) {
    const next = this.queues.get(key)?.shift();
    if (next) return next();
    const running = (this.running.get(key) ?? 1) - 1;
    if (running === 0) this.running.delete(key);
    else this.running.set(key, running);
    if (this.queues.get(key)?.length === 0) this.queues.delete(key);
  }

  async close(): Promise<void> {
    const threads = this.threads;
    this.threads = [];
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }
}

let shared: ScriptRuntime | undefined;
let urls: Urls = createUrls('http://127.0.0.1');

/**
 * The URLs of the server the scripts of this process are told about (the API they call back, the public
 * endpoints events are addressed to), set by the API from where it is served: the standalone server's
 * (createApp), or the mount of a host's (createDocsApi's `mountPath`, else the mount its handler first
 * serves). A script's calls to that API are not held to public addresses.
 */
export function setScriptUrls(served: Urls): void {
  urls = served;
  if (shared) shared.options.ownApiOrigin = scriptServerOrigin();
}

/** Where a script calls this API back (`env.apiEndpoint` of a v1 script): `<PUBLIC_URL>/v1`, or the host's mount. */
export function scriptApiEndpoint(): string {
  return urls.api('');
}

/** The URLs of this server, as setScriptUrls was told them: for the resources a script's environment shows. */
export function scriptUrls(): Urls {
  return urls;
}

/** The origin of the API scripts call back. */
export function scriptServerOrigin(): string {
  return new URL(urls.api('')).origin;
}

/** The process's runtime, made on first use (its threads do not keep the process alive). */
export function sharedScriptRuntime(): ScriptRuntime {
  shared ??= new ScriptRuntime(DEFAULT_LIMITS, { ownApiOrigin: scriptServerOrigin() });
  return shared;
}
