// The sandbox thread (plain JavaScript, started by script-runtime.ts): runs integration scripts in
// QuickJS compiled to WebAssembly. Being a thread of its own, a script that spins does not stop the
// server's thread; the interrupt handler stops it once its CPU time is spent, and the WebAssembly
// memory's maximum stops an allocation past the memory limit. The script's `fetch` is sent to the
// server's thread (message `fetch`), which makes the call through server/http/outbound.ts.
//
// Warm sandboxes, as in the Workers model (an isolate serves many requests of its script, and module
// state persists between them): a sandbox is one WebAssembly instance with the prelude and one script
// already evaluated, kept after an invocation that ended well to serve the next invocation of the same
// integration and script. Measured (bench/results/script-runtime.md), a fresh sandbox costs ~9 ms
// (instantiation 5, prelude 2.6, the first dispatch 1.2) and a warm one ~0.2 ms. A sandbox serves one
// invocation at a time; it is discarded, never reused, after an invocation that failed in any way (CPU
// time spent, out of memory, an exception escaping the handler, no Response), after MAX_USES
// invocations, when its memory grew past half the limit, or when its integration's script changed
// (pools are per integration and script hash); at most IDLE_PER_THREAD wait, the least
// recently used first to go. The limits stay what they were: the memory limit is per sandbox, CPU time
// per invocation (counted from zero at each call). `env` is handed to each call as an argument and
// never kept by the runtime (only a script that stores it itself keeps it, in its own module, which
// serves its own integration only: pools are per integration and script).
//
// Messages in:  { type: 'invoke', id, pool, script?, request, env, limits: { memoryBytes, cpuMs, wallMs, stackBytes, perIntegration } }
//               (script: absent when this thread was sent the pool's script before and not told to forget it)
//               { type: 'forget-scripts' }   (drop the scripts kept by pool: the next invocations carry theirs)
//               { type: 'fetched', fetchId, answer }   (answer: JSON text, `{ error }` or `{ status, headers, body }`)
// Messages out: { type: 'result', id, kept, evicted, result?: { status, headers, body, logs, cpuMs }, error?: { message, logs, cpuMs } }
//               (kept: the sandbox waits warm in `pool`; evicted: pools that lost a warm sandbox meanwhile)
//               { type: 'answer', id, result } (before `result`, when the script left work to waitUntil:
//               the response is ready; `result` then ends the invocation, its logs all of them)
//               { type: 'fetch', id, fetchId, request }
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { deflateRawSync, deflateSync, gunzipSync, gzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } from 'quickjs-emscripten';
import { URLPattern as URLPatternPolyfill } from 'urlpattern-polyfill/urlpattern';
import { subtleCall } from './host-crypto.mjs';
import { PRELUDE } from './prelude.mjs';

// A sandbox's URLPattern is the host's. Node has one from 23.8 on; on Node 22 (the oldest line
// package.json accepts) the polyfill made to the same specification (urlpattern-polyfill) stands in.
const HostURLPattern = globalThis.URLPattern ?? URLPatternPolyfill;

// The WebAssembly code is compiled once per thread; each sandbox instantiates it with a memory of its
// own whose maximum is the memory limit. QuickJS's own accounting (setMemoryLimit) misses buffers
// grown by realloc in this build, so the WebAssembly memory's maximum is what holds: past it,
// allocations fail and the script gets "out of memory".
const compiled = await WebAssembly.compile(readFileSync(createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm')));
/** WebAssembly pages are 64 KiB; the module starts with 16 MiB. */
const PAGE = 65536;
const INITIAL_PAGES = 256;
/** Invocations one sandbox serves before it is replaced (bounds what a script's module state may pile up). */
const MAX_USES = 1000;
/** Warm sandboxes kept per thread, all pools together (each holds at least 16 MiB). */
const IDLE_PER_THREAD = 8;

const fetches = new Map();
let nextFetchId = 1;

function urlParts(url) {
  const { href, origin, protocol, username, password, host, hostname, port, pathname, search, hash } = url;
  return JSON.stringify({ href, origin, protocol, username, password, host, hostname, port, pathname, search, hash });
}

function parseURL(input, base) {
  try {
    return urlParts(base ? new URL(input, base) : new URL(input));
  } catch {
    return JSON.stringify({ error: `Invalid URL: ${input}` });
  }
}

/** The parts of `href` once its part `name` is set to `value` (the WHATWG setters; an invalid value leaves it). */
function setURL(href, name, value) {
  const settable = ['href', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash'];
  try {
    const url = new URL(href);
    if (settable.includes(name)) url[name] = value;
    return urlParts(url);
  } catch {
    return JSON.stringify({ error: `Invalid URL: ${value}` });
  }
}

// MD5 too, as workerd's crypto.subtle.digest offers it (a non-standard extension scripts rely on).
const ZLIB = {
  compress: { gzip: gzipSync, deflate: deflateSync, 'deflate-raw': deflateRawSync },
  decompress: { gzip: gunzipSync, deflate: inflateSync, 'deflate-raw': inflateRawSync },
};

function zlibRun(direction, format, data, maxBytes) {
  const run = ZLIB[direction]?.[format];
  if (!run) return JSON.stringify({ error: `Unsupported compression format: ${format}` });
  try {
    return JSON.stringify({ bytes: run(Buffer.from(data, 'base64'), { maxOutputLength: maxBytes }).toString('base64') });
  } catch (err) {
    return JSON.stringify({ error: `${direction === 'compress' ? 'Compression' : 'Decompression'} failed: ${err.message}` });
  }
}

/** One URLPattern call: { init, base?, options?, op: 'make' | 'test' | 'exec', input?, inputBase? }. */
function urlPatternRun(text) {
  try {
    const { init, base, options, op, input, inputBase } = JSON.parse(text);
    const pattern = base === undefined ? new HostURLPattern(init, options) : new HostURLPattern(init, base, options);
    if (op === 'make') {
      const parts = {};
      for (const name of ['protocol', 'username', 'password', 'hostname', 'port', 'pathname', 'search', 'hash']) parts[name] = pattern[name];
      return JSON.stringify({ value: { ...parts, hasRegExpGroups: pattern.hasRegExpGroups } });
    }
    const args = inputBase === undefined ? [input] : [input, inputBase];
    return JSON.stringify({ value: op === 'test' ? pattern.test(...args) : pattern.exec(...args) });
  } catch (err) {
    return JSON.stringify({ error: err.message });
  }
}

const HASHES = new Set(['md5', 'sha1', 'sha256', 'sha384', 'sha512']);

/** Thrown to end an invocation: what the server's thread gets as `error`. */
class Failure {
  constructor(message, logs, cpuMs) {
    this.message = message;
    this.logs = logs;
    this.cpuMs = cpuMs;
  }
}

/** One WebAssembly instance with QuickJS, the prelude and a script's module, serving one invocation at a time. */
class Sandbox {
  uses = 0;
  /** The invocation running now: its id, logs, CPU time and the fetch promises it handed out. */
  call = undefined;

  static async create(limits) {
    const sandbox = new Sandbox();
    await sandbox.start(limits);
    return sandbox;
  }

  async start(limits) {
    this.limits = limits;
    const maximum = Math.max(INITIAL_PAGES, Math.ceil(limits.memoryBytes / PAGE));
    const wasmMemory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum });
    const QuickJS = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmModule: compiled, wasmMemory }));
    // Whether the memory grew to (nearly) its maximum: QuickJS's own limit trips a little below it.
    this.exhausted = () => wasmMemory.buffer.byteLength >= 0.9 * maximum * PAGE;
    // A WebAssembly memory never shrinks: a sandbox that grew past half its maximum is not kept waiting.
    this.large = () => wasmMemory.buffer.byteLength > (maximum * PAGE) / 2;
    const runtime = QuickJS.newRuntime();
    this.runtime = runtime;
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(limits.stackBytes);
    // Guest code runs only inside slice(), during an invocation: its CPU time is counted there.
    runtime.setInterruptHandler(() => {
      const call = this.call;
      if (call && call.counting && call.cpuMs + (performance.now() - call.sliceStart) > limits.cpuMs) call.interrupted = true;
      return call?.interrupted ?? false;
    });
    // No module may be imported: a script is one self-contained module.
    runtime.setModuleLoader((name) => ({ error: new Error(`Imports are not available to integration scripts (${name})`) }));
    const vm = runtime.newContext();
    this.vm = vm;
    const host = vm.newObject();
    const define = (name, fn) => {
      const handle = vm.newFunction(name, fn);
      vm.setProp(host, name, handle);
      handle.dispose();
    };
    define('parseURL', (input, base) => vm.newString(parseURL(vm.getString(input), vm.getString(base))));
    define('log', (level, text) => {
      const logs = this.call?.logs;
      if (logs && logs.length < 200) logs.push({ level: vm.getString(level), message: vm.getString(text).slice(0, 2000), timestamp: new Date().toISOString() });
    });
    define('setURL', (href, name, value) => vm.newString(setURL(vm.getString(href), vm.getString(name), vm.getString(value))));
    /** A promise into the sandbox, settled with the text `answered` resolves to: the invocation waits on it. */
    const awaitHost = (answered) => {
      const call = this.call;
      const deferred = vm.newPromise();
      call.unsettled.add(deferred);
      const done = answered.then((answer) => {
        call.inFlight.delete(done);
        // The invocation ended meanwhile: its promises were disposed, nothing is resolved into the sandbox.
        if (!call.unsettled.delete(deferred)) return;
        const value = vm.newString(answer);
        deferred.resolve(value);
        value.dispose();
        deferred.dispose();
      });
      call.inFlight.add(done);
      return deferred.handle;
    };
    define('fetch', (wire) => {
      const call = this.call;
      const fetchId = nextFetchId++;
      const answered = new Promise((resolve) => fetches.set(fetchId, resolve));
      parentPort.postMessage({ type: 'fetch', id: call.id, fetchId, request: JSON.parse(vm.getString(wire)) });
      return awaitHost(answered);
    });
    // Timers: a wait that costs no CPU time, never past the invocation's deadline (it fails there).
    // A Node timer may fire early by the time its loop iteration took before it was set (libuv measures from
    // the iteration's start): it is set again until the clock really reached the instant.
    define('sleep', (ms) => {
      const call = this.call;
      const until = Math.min(performance.now() + Math.max(0, Number(vm.getNumber(ms)) || 0), call.deadline + 1);
      const answered = new Promise((resolve) => {
        const arm = () => {
          const left = until - performance.now();
          if (left <= 0) return resolve('');
          const timer = setTimeout(() => {
            call.timers.delete(timer);
            arm();
          }, Math.ceil(left));
          call.timers.add(timer);
        };
        arm();
      });
      return awaitHost(answered);
    });
    define('digest', (algorithm, data) => {
      const name = vm.getString(algorithm);
      if (!HASHES.has(name)) throw new Error(`Unsupported hash ${name}`);
      return vm.newString(createHash(name).update(Buffer.from(vm.getString(data), 'base64')).digest('base64'));
    });
    // crypto.subtle (host-crypto.mjs): one call at a time per invocation, each call's time counted as CPU
    // time (Node does the work in its thread pool, where the interrupt handler cannot see it).
    define('subtle', (operation, args) => {
      const call = this.call;
      const op = vm.getString(operation);
      const text = vm.getString(args);
      const run = () => {
        const started = performance.now();
        return subtleCall(op, text).then((answer) => {
          call.cpuMs += performance.now() - started;
          if (call.cpuMs > limits.cpuMs) call.interrupted = true;
          return answer;
        });
      };
      const answered = call.crypto.then(run, run);
      call.crypto = answered;
      return awaitHost(answered);
    });
    // CompressionStream and DecompressionStream: the whole input at once (JSON `{ bytes }` or `{ error }`);
    // what a decompression may produce is capped, so a small bomb cannot fill the thread's memory.
    define('zlib', (direction, format, data) => vm.newString(zlibRun(vm.getString(direction), vm.getString(format), vm.getString(data), limits.memoryBytes)));
    // URLPattern: Node's, made again at each call from the pattern's init (JSON in, JSON out).
    define('urlPattern', (request) => vm.newString(urlPatternRun(vm.getString(request))));
    define('random', (count) => vm.newString(randomBytes(Math.min(65536, Math.max(0, vm.getNumber(count) | 0))).toString('base64')));
    define('randomUUID', () => vm.newString(randomUUID()));
    vm.setProp(vm.global, '__host', host);
    host.dispose();
    // The prelude is the runtime's own code: its time is not the script's.
    const prelude = vm.evalCode(PRELUDE, 'prelude.js');
    if (prelude.error) throw new Error(`The sandbox could not start: ${this.errorText(prelude.error)}`);
    prelude.value.dispose();
    this.dispatch = vm.getProp(vm.global, '__dispatch');
    this.settleAll = vm.getProp(vm.global, '__settle');
  }

  errorText(handle) {
    let dumped;
    try {
      dumped = this.vm.dump(handle);
    } finally {
      handle.dispose();
    }
    // Out of memory while making the error itself, QuickJS throws null instead.
    if (dumped === null && this.exhausted()) return 'InternalError: out of memory';
    if (dumped && typeof dumped === 'object') return `${dumped.name ?? 'Error'}: ${dumped.message ?? JSON.stringify(dumped)}`;
    return String(dumped);
  }

  /** Runs a synchronous slice of guest code, counting its CPU time against the invocation. */
  slice(work) {
    const call = this.call;
    call.sliceStart = performance.now();
    call.counting = true;
    try {
      return work();
    } finally {
      call.counting = false;
      call.cpuMs += performance.now() - call.sliceStart;
    }
  }

  failure(message) {
    const call = this.call;
    return new Failure(call.interrupted ? `The script used more than ${this.limits.cpuMs} ms of CPU time and was stopped` : message, call.logs, Math.round(call.cpuMs));
  }

  /** Evaluates the script's module (its top-level code counts against the first invocation). */
  load(script) {
    const loaded = this.slice(() => this.vm.evalCode(script, 'script.js', { type: 'module' }));
    if (loaded.error) throw this.failure(`The script failed to load: ${this.errorText(loaded.error)}`);
    this.namespace = loaded.value;
  }

  /** Runs the sandbox's jobs until `promise` settles; its value's text. Disposes the promise. */
  async settle(promise) {
    const { vm, runtime } = this;
    const late = () => this.failure(`The script did not finish within ${this.limits.wallMs} ms`);
    try {
      for (;;) {
        // Past the deadline nothing more runs, not even a timer that woke for it.
        if (performance.now() > this.call.deadline) throw late();
        const jobs = this.slice(() => runtime.executePendingJobs());
        if (jobs.error) throw this.failure(this.errorText(jobs.error));
        // Interrupted for its CPU time, even if the script's own code caught it (a waitUntil wrapper does).
        if (this.call.interrupted) throw this.failure('interrupted');
        // A slice that ran past the deadline made no answer either.
        if (performance.now() > this.call.deadline) throw late();
        const state = vm.getPromiseState(promise);
        if (state.type === 'fulfilled') {
          const text = vm.getString(state.value);
          state.value.dispose();
          return text;
        }
        if (state.type === 'rejected') throw this.failure(this.errorText(state.error));
        // Waiting on the host: a fetch or a timer. Nothing of them and still pending: it never settles.
        if (this.call.inFlight.size === 0) throw this.failure("The script's fetch handler never settled (it awaits something that cannot happen)");
        // Waiting stops at the deadline too (a fetch may take longer than what is left).
        let wake;
        const deadline = new Promise((resolve) => (wake = setTimeout(resolve, Math.max(0, Math.ceil(this.call.deadline - performance.now())) + 1)));
        try {
          await Promise.race([...this.call.inFlight, deadline]);
        } finally {
          clearTimeout(wake);
        }
      }
    } finally {
      promise.dispose();
    }
  }

  /**
   * One invocation; throws a Failure, after which the sandbox must not be used again. When the script
   * handed work to context.waitUntil, `onAnswer` gets the response first, and the invocation goes on until
   * that work is done, within the same CPU time, memory and deadline.
   */
  async invoke(id, script, request, env, onAnswer, deadlineAt) {
    const { vm } = this;
    this.uses++;
    // The server's thread gives the deadline as an instant on the clock threads share (absoluteNow()).
    const deadline = deadlineAt !== undefined ? deadlineAt - performance.timeOrigin : performance.now() + (this.limits.wallMs ?? 30_000);
    this.call = { id, logs: [], cpuMs: 0, sliceStart: 0, counting: false, interrupted: false, inFlight: new Set(), unsettled: new Set(), timers: new Set(), deadline, crypto: Promise.resolve() };
    try {
      if (!this.namespace) this.load(script);
      const wire = vm.newString(JSON.stringify(request));
      const envJson = vm.newString(JSON.stringify(env));
      const called = this.slice(() => vm.callFunction(this.dispatch, vm.undefined, this.namespace, wire, envJson));
      wire.dispose();
      envJson.dispose();
      if (called.error) throw this.failure(this.errorText(called.error));
      const { waiting, ...response } = JSON.parse(await this.settle(called.value));
      if (waiting > 0) {
        onAnswer({ ...response, logs: [...this.call.logs], cpuMs: Math.round(this.call.cpuMs) });
        const settling = this.slice(() => vm.callFunction(this.settleAll, vm.undefined));
        if (settling.error) throw this.failure(this.errorText(settling.error));
        await this.settle(settling.value);
      }
      return { ...response, logs: this.call.logs, cpuMs: Math.round(this.call.cpuMs) };
    } catch (err) {
      if (err instanceof Failure) throw err;
      throw this.failure(err instanceof Error ? err.message : String(err));
    } finally {
      // A fetch or timer the script did not await stays pending in the sandbox: its answer is not delivered.
      for (const deferred of this.call.unsettled) deferred.dispose();
      for (const timer of this.call.timers) clearTimeout(timer);
      this.call.unsettled.clear();
      this.call = undefined;
    }
  }
  // A discarded sandbox is dropped, its WebAssembly instance with it, which releases all of it; its
  // QuickJS runtime is not freed. Freeing it would only check that QuickJS's object list is empty, and
  // in quickjs-emscripten 0.32.0 (and 0.31.0) that check fails, aborting with "Assertion failed:
  // list_empty(&rt->gc_obj_list)", after a script allocates many objects inside a promise job (any code
  // after an await), even with every handle disposed: justjake/quickjs-emscripten#269 and #257.
}

/** Warm sandboxes by pool (integration and script hash), least recently used first. */
const idle = new Map();
let idleCount = 0;
/** Pools that lost a warm sandbox since the last result message (the server's thread counts them). */
let evicted = [];

function takeIdle(pool) {
  const list = idle.get(pool);
  const sandbox = list?.pop();
  if (!sandbox) return undefined;
  idleCount--;
  idle.delete(pool);
  if (list.length > 0) idle.set(pool, list); // now the most recently used
  return sandbox;
}

function dropIdle(pool) {
  const list = idle.get(pool);
  if (!list) return;
  idle.delete(pool);
  idleCount -= list.length;
  for (let i = 0; i < list.length; i++) evicted.push(pool);
}

function keepIdle(pool, sandbox, limit) {
  // Another script of the same integration (it was published anew): its old sandboxes go.
  const integration = pool.slice(0, pool.lastIndexOf('\0'));
  for (const other of [...idle.keys()]) if (other !== pool && other.slice(0, other.lastIndexOf('\0')) === integration) dropIdle(other);
  const list = idle.get(pool) ?? [];
  if (list.length >= limit) return false;
  idle.delete(pool);
  list.push(sandbox);
  idle.set(pool, list);
  idleCount++;
  while (idleCount > IDLE_PER_THREAD) {
    const [oldest, oldList] = idle.entries().next().value;
    oldList.shift();
    idleCount--;
    evicted.push(oldest);
    if (oldList.length === 0) idle.delete(oldest);
  }
  return true;
}

/** Runs one invocation, in a warm sandbox of its pool when one waits; returns whether the sandbox was kept. */
async function invoke({ id, pool, script, request, env, limits, deadlineAt }, onAnswer = () => {}) {
  let sandbox = pool === undefined ? undefined : takeIdle(pool);
  if (sandbox && (sandbox.limits.memoryBytes !== limits.memoryBytes || sandbox.limits.cpuMs !== limits.cpuMs || sandbox.limits.stackBytes !== limits.stackBytes)) sandbox = undefined;
  sandbox ??= await Sandbox.create(limits);
  const result = await sandbox.invoke(id, script, request, env, onAnswer, deadlineAt);
  const kept = pool !== undefined && sandbox.uses < MAX_USES && !sandbox.large() && keepIdle(pool, sandbox, limits.perIntegration ?? 1);
  return { result, kept };
}

/** The text of the scripts this thread was sent, by pool (the server's thread sends each once: SandboxThread.scripts). */
const scripts = new Map();

parentPort.on('message', (message) => {
  if (message.type === 'forget-scripts') {
    scripts.clear();
  } else if (message.type === 'invoke') {
    if (message.script !== undefined) scripts.set(message.pool, message.script);
    else message.script = scripts.get(message.pool);
    const answer = (fields) => {
      parentPort.postMessage({ type: 'result', id: message.id, evicted, ...fields });
      evicted = [];
    };
    // The response ahead of the work the script left to waitUntil (the final result follows it).
    const onAnswer = (result) => parentPort.postMessage({ type: 'answer', id: message.id, result });
    invoke(message, onAnswer).then(
      ({ result, kept }) => answer({ result, kept }),
      (error) => answer({ kept: false, error: error instanceof Failure ? { ...error } : { message: error instanceof Error ? error.message : String(error), logs: [], cpuMs: 0 } }),
    );
  } else if (message.type === 'fetched') {
    const waiting = fetches.get(message.fetchId);
    fetches.delete(message.fetchId);
    waiting?.(message.answer);
  }
});
// One invocation before the first real one: WebAssembly code is compiled in tiers on first use, and that
// first, slow run would otherwise count against a script's CPU time. Its sandbox is not kept.
const warmUpFailed = await invoke({
  id: 0,
  script: 'export default { async fetch(r) { await r.text(); return Response.json({ u: new URL(r.url).pathname, t: new TextDecoder().decode(new TextEncoder().encode("x")) }) } }',
  request: { method: 'POST', url: 'http://warm.invalid/', headers: [['x-warm', '1']], body: '{}' },
  env: {},
  limits: { memoryBytes: 64 * 1024 * 1024, cpuMs: 60_000, wallMs: 60_000, stackBytes: 512 * 1024 },
}).then(
  () => undefined,
  // The thread still serves (each invocation makes its own sandbox), but a sandbox that cannot run this
  // script is likely broken: the server's thread says why (script-runtime.ts).
  (error) => (error instanceof Error || error instanceof Failure ? error.message : String(error)),
);
parentPort.postMessage({ type: 'ready', ...(warmUpFailed !== undefined && { warmUpFailed }) });
