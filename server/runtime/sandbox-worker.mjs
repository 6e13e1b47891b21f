// The sandbox thread (plain JavaScript, started by script-runtime.ts): runs integration scripts in
// QuickJS compiled to WebAssembly, one fresh WebAssembly instance per invocation, so nothing outlives an
// invocation and no invocation sees another's state or memory. Being a thread of its own, a script that spins does not stop
// the server's thread; the interrupt handler stops it once its CPU time is spent, and the memory limit
// of the QuickJS runtime stops an allocation past it. The script's `fetch` is sent to the server's
// thread (message `fetch`), which makes the call through server/http/outbound.ts.
//
// Messages in:  { type: 'invoke', id, script, request, env, limits: { memoryBytes, cpuMs, stackBytes } }
//               { type: 'fetched', fetchId, answer }   (answer: JSON text, `{ error }` or `{ status, headers, body }`)
// Messages out: { type: 'result', id, result?: { status, headers, body, logs, cpuMs }, error?: { message, logs, cpuMs } }
//               { type: 'fetch', id, fetchId, request }
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } from 'quickjs-emscripten';
import { PRELUDE } from './prelude.mjs';

// The WebAssembly code is compiled once per thread; each invocation instantiates it with a memory of
// its own whose maximum is the invocation's memory limit. QuickJS's own accounting
// (setMemoryLimit) misses buffers grown by realloc in this build, so the WebAssembly memory's maximum
// is what holds: past it, allocations fail and the script gets "out of memory".
const compiled = await WebAssembly.compile(readFileSync(createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm')));
/** WebAssembly pages are 64 KiB; the module starts with 16 MiB. */
const PAGE = 65536;
const INITIAL_PAGES = 256;

async function freshQuickJS(memoryBytes) {
  const maximum = Math.max(INITIAL_PAGES, Math.ceil(memoryBytes / PAGE));
  const wasmMemory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum });
  const QuickJS = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmModule: compiled, wasmMemory }));
  // Whether the memory grew to (nearly) its maximum: QuickJS's own limit trips a little below it.
  return { QuickJS, exhausted: () => wasmMemory.buffer.byteLength >= 0.9 * maximum * PAGE };
}
const fetches = new Map();
let nextFetchId = 1;

parentPort.on('message', (message) => {
  if (message.type === 'invoke') {
    invoke(message).then(
      (result) => parentPort.postMessage({ type: 'result', id: message.id, result }),
      (error) => parentPort.postMessage({ type: 'result', id: message.id, error }),
    );
  } else if (message.type === 'fetched') {
    const waiting = fetches.get(message.fetchId);
    fetches.delete(message.fetchId);
    waiting?.(message.answer);
  }
});
// One invocation before the first real one: WebAssembly code is compiled in tiers on first use, and that
// first, slow run would otherwise count against a script's CPU time.
await invoke({
  id: 0,
  script: 'export default { async fetch(r) { await r.text(); return Response.json({ u: new URL(r.url).pathname, t: new TextDecoder().decode(new TextEncoder().encode("x")) }) } }',
  request: { method: 'POST', url: 'http://warm.invalid/', headers: [['x-warm', '1']], body: '{}' },
  env: {},
  limits: { memoryBytes: 64 * 1024 * 1024, cpuMs: 60_000, stackBytes: 512 * 1024 },
}).catch(() => {});
parentPort.postMessage({ type: 'ready' });

function parseURL(input, base) {
  try {
    const url = base ? new URL(input, base) : new URL(input);
    const { href, origin, protocol, username, password, host, hostname, port, pathname, search, hash } = url;
    return JSON.stringify({ href, origin, protocol, username, password, host, hostname, port, pathname, search, hash });
  } catch {
    return JSON.stringify({ error: `Invalid URL: ${input}` });
  }
}

async function invoke({ id, script, request, env, limits }) {
  const logs = [];
  let cpuMs = 0;
  let sliceStart = 0;
  let interrupted = false;
  const { QuickJS, exhausted } = await freshQuickJS(limits.memoryBytes);
  const runtime = QuickJS.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  let counting = false;
  runtime.setInterruptHandler(() => {
    if (counting && cpuMs + (performance.now() - sliceStart) > limits.cpuMs) interrupted = true;
    return interrupted;
  });
  // No module may be imported: a script is one self-contained module.
  runtime.setModuleLoader((name) => ({ error: new Error(`Imports are not available to integration scripts (${name})`) }));
  const vm = runtime.newContext();
  /** Runs a synchronous slice of guest code, counting its CPU time. */
  const slice = (work) => {
    sliceStart = performance.now();
    counting = true;
    try {
      return work();
    } finally {
      counting = false;
      cpuMs += performance.now() - sliceStart;
    }
  };
  const inFlight = new Set();
  // The promises handed out by the fetch host function, until the host answers: one still waiting when
  // the invocation ends (the script returned or failed without awaiting it) holds its resolve and reject
  // functions, which are disposed with the context below.
  const unsettled = new Set();
  const failure = (message) => ({ message: interrupted ? `The script used more than ${limits.cpuMs} ms of CPU time and was stopped` : message, logs, cpuMs: Math.round(cpuMs) });
  const errorText = (handle) => {
    let dumped;
    try {
      dumped = vm.dump(handle);
    } finally {
      handle.dispose();
    }
    // Out of memory while making the error itself, QuickJS throws null instead.
    if (dumped === null && exhausted()) return 'InternalError: out of memory';
    if (dumped && typeof dumped === 'object') return `${dumped.name ?? 'Error'}: ${dumped.message ?? JSON.stringify(dumped)}`;
    return String(dumped);
  };
  try {
    const host = vm.newObject();
    const define = (name, fn) => {
      const handle = vm.newFunction(name, fn);
      vm.setProp(host, name, handle);
      handle.dispose();
    };
    define('parseURL', (input, base) => vm.newString(parseURL(vm.getString(input), vm.getString(base))));
    define('log', (level, text) => {
      if (logs.length < 200) logs.push({ level: vm.getString(level), message: vm.getString(text).slice(0, 2000), timestamp: new Date().toISOString() });
    });
    define('fetch', (wire) => {
      const deferred = vm.newPromise();
      unsettled.add(deferred);
      const fetchId = nextFetchId++;
      const done = new Promise((resolve) => fetches.set(fetchId, resolve)).then((answer) => {
        inFlight.delete(done);
        if (!unsettled.delete(deferred)) return; // the invocation ended meanwhile
        const value = vm.newString(answer);
        deferred.resolve(value);
        value.dispose();
        deferred.dispose();
      });
      inFlight.add(done);
      parentPort.postMessage({ type: 'fetch', id, fetchId, request: JSON.parse(vm.getString(wire)) });
      return deferred.handle;
    });
    vm.setProp(vm.global, '__host', host);
    host.dispose();

    // The prelude is the runtime's own code: its time is not the script's.
    const prelude = vm.evalCode(PRELUDE, 'prelude.js');
    if (prelude.error) throw failure(`The sandbox could not start: ${errorText(prelude.error)}`);
    prelude.value.dispose();
    const loaded = slice(() => vm.evalCode(script, 'script.js', { type: 'module' }));
    if (loaded.error) throw failure(`The script failed to load: ${errorText(loaded.error)}`);
    const namespace = loaded.value;
    const dispatch = vm.getProp(vm.global, '__dispatch');
    const wire = vm.newString(JSON.stringify(request));
    const envJson = vm.newString(JSON.stringify(env));
    const called = slice(() => vm.callFunction(dispatch, vm.undefined, namespace, wire, envJson));
    for (const h of [dispatch, wire, envJson, namespace]) h.dispose();
    if (called.error) throw failure(errorText(called.error));
    const promise = called.value;
    try {
      for (;;) {
        const jobs = slice(() => runtime.executePendingJobs());
        if (jobs.error) throw failure(errorText(jobs.error));
        const state = vm.getPromiseState(promise);
        if (state.type === 'fulfilled') {
          const text = vm.getString(state.value);
          state.value.dispose();
          const answer = JSON.parse(text);
          return { ...answer, logs, cpuMs: Math.round(cpuMs) };
        }
        if (state.type === 'rejected') throw failure(errorText(state.error));
        if (interrupted) throw failure('interrupted');
        // Waiting on the host: a fetch in flight. Nothing in flight and still pending: it never settles.
        if (inFlight.size === 0) throw failure('The script\'s fetch handler never settled (it awaits something that cannot happen: there are no timers)');
        await Promise.race(inFlight);
      }
    } finally {
      promise.dispose();
    }
  } catch (err) {
    if (err && typeof err === 'object' && 'logs' in err) throw err;
    throw failure(err instanceof Error ? err.message : String(err));
  } finally {
    for (const deferred of unsettled) deferred.dispose();
    unsettled.clear();
    vm.dispose();
    // The runtime is not freed: the WebAssembly instance it lives in is dropped with this invocation,
    // which releases all of it. Freeing it would only check that QuickJS's object list is empty, and in
    // quickjs-emscripten 0.32.0 (and 0.31.0) that check fails, aborting with "Assertion failed:
    // list_empty(&rt->gc_obj_list)", after a script allocates many objects inside a promise job (any code
    // after an await), even with every handle disposed: justjake/quickjs-emscripten#269 and #257.
  }
}
