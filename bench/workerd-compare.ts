// Measures workerd (Cloudflare's open-source Workers runtime, the npm package `workerd`) beside this
// server's QuickJS sandbox, for the choice written in docs/integrations-runtime.md: invocation latency
// of a trivial script and of a @gitbook/runtime event in GitBook's protocol, memory per sandbox, and what
// happens to an endless loop and to a script that allocates without end.
//
// workerd is not a dependency of the project (see the document for why); to rerun:
//   (mkdir -p /tmp/workerd && cd /tmp/workerd && npm install --no-save workerd@1.20261117.1)
//   WORKERD_BIN=/tmp/workerd/node_modules/@cloudflare/workerd-linux-64/bin/workerd npx tsx bench/workerd-compare.ts
// Results: bench/results/workerd-compare.json (and the summary printed).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleIntegration } from '../test/support/gitbook-bundle.js';
import { dispatchRequest } from '../server/integrations/dispatch-protocol.js';
import { DEFAULT_LIMITS, ScriptRuntime, type ScriptRequest } from '../server/runtime/script-runtime.js';

const WORKERD = process.env.WORKERD_BIN ?? '/tmp/workerd-try/node_modules/@cloudflare/workerd-linux-64/bin/workerd';
const ROUNDS = Number(process.env.ROUNDS ?? 400);
const trivial = 'export default { async fetch(request) { return new Response("ok") } }';
const runtimeSource = `import { createIntegration } from '@gitbook/runtime';
export default createIntegration({ events: { space_content_updated: async (event, context) => { console.log(event.type, context.environment.integration.name); } } });`;
const endless = 'export default { async fetch() { for (;;) {} } }';
const hungry = 'export default { async fetch() { const all = []; for (;;) all.push(new Array(1e6).fill(1)); } }';

const environment = { integration: { name: 'bench', version: 1 }, secrets: {}, signingSecrets: {}, apiEndpoint: 'http://127.0.0.1:9', apiTokens: {} } as never;
const event = { eventId: 'evt_bench', type: 'space_content_updated', installationId: 'ins', spaceId: 'spc', revisionId: 'rev', updatedBy: [] };

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))];
const round = (n: number) => Math.round(n * 1000) / 1000;
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** Starts workerd with one socket per script (ports from `port`); resolves once the first (a harmless script) answers. */
async function startWorkerd(scripts: string[], port: number): Promise<ChildProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'workerd-'));
  scripts.forEach((script, i) => writeFileSync(join(dir, `w${i}.js`), script));
  const config = `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [${scripts.map((_, i) => `(name = "w${i}", worker = (modules = [(name = "w${i}.js", esModule = embed "w${i}.js")], compatibilityDate = "2024-09-23", compatibilityFlags = ["nodejs_compat"]))`).join(', ')}],
  sockets = [${scripts.map((_, i) => `(name = "s${i}", address = "127.0.0.1:${port + i}", http = (), service = "w${i}")`).join(', ')}],
);`;
  writeFileSync(join(dir, 'config.capnp'), config);
  const child = spawn(WORKERD, ['serve', join(dir, 'config.capnp')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += c));
  for (let i = 0; i < 300; i++) {
    try {
      await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(500) });
      return child;
    } catch {
      if (child.exitCode !== null) throw new Error(`workerd exited: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`workerd did not start: ${stderr}`);
}

async function timeHttp(url: string, init: () => RequestInit): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    const res = await fetch(url, init());
    await res.arrayBuffer();
    times.push(performance.now() - t);
  }
  return times;
}

async function timeQuickJS(runtime: ScriptRuntime, key: string, script: string, request: () => ScriptRequest): Promise<{ first: number; warm: number[] }> {
  let t = performance.now();
  await runtime.invoke({ key, script, request: request(), env: {} });
  const first = performance.now() - t;
  const warm: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    t = performance.now();
    await runtime.invoke({ key, script, request: request(), env: {} });
    warm.push(performance.now() - t);
  }
  return { first, warm };
}

const results: Record<string, unknown> = { date: new Date().toISOString(), rounds: ROUNDS, loadAverage: (await import('node:os')).loadavg() };
const gitbookScript = await bundleIntegration(runtimeSource);
const dispatched = () => dispatchRequest('http://127.0.0.1', event, environment);
const asInit = (r: ScriptRequest): RequestInit => ({ method: r.method, headers: r.headers, body: r.body });

// --- QuickJS (this server) ---
{
  const runtime = new ScriptRuntime(DEFAULT_LIMITS, { threads: 1 });
  const before = rssOf(process.pid);
  const plain = await timeQuickJS(runtime, 'trivial', trivial, () => ({ method: 'GET', url: 'http://x/', headers: [], body: '' }));
  const gitbook = await timeQuickJS(runtime, 'gitbook', gitbookScript, dispatched);
  // Warm sandboxes of 8 integrations (the most one thread keeps), the memory they hold.
  const rssBefore = rssOf(process.pid);
  for (let i = 0; i < 8; i++) await runtime.invoke({ key: `mem${i}`, script: gitbookScript, request: dispatched(), env: {} });
  const perSandbox = (rssOf(process.pid) - rssBefore) / 8;
  let loop = '';
  const started = performance.now();
  await runtime.invoke({ key: 'loop', script: endless, request: { method: 'GET', url: 'http://x/', headers: [], body: '' }, env: {} }).catch((e: Error) => (loop = e.message));
  const loopMs = performance.now() - started;
  let oom = '';
  await runtime.invoke({ key: 'oom', script: hungry, request: { method: 'GET', url: 'http://x/', headers: [], body: '' }, env: {} }).catch((e: Error) => (oom = e.message));
  const after = await runtime.invoke({ key: 'trivial', script: trivial, request: { method: 'GET', url: 'http://x/', headers: [], body: '' }, env: {} });
  results.quickjs = {
    trivial: { firstMs: round(plain.first), p50: round(percentile(plain.warm, 50)), p99: round(percentile(plain.warm, 99)) },
    gitbookEvent: { firstMs: round(gitbook.first), p50: round(percentile(gitbook.warm, 50)), p99: round(percentile(gitbook.warm, 99)) },
    rssPerWarmSandboxMiB: round(perSandbox),
    processRssMiB: round(rssOf(process.pid) - before),
    endlessLoop: `${loop} (after ${Math.round(loopMs)} ms)`,
    unboundedAllocation: oom,
    servesAfterwards: after.body === 'ok',
  };
  await runtime.close();
}

// --- workerd ---
{
  const base = 18700;
  const one = await startWorkerd([trivial, gitbookScript], base);
  const rssTwo = rssOf(one.pid!);
  const plain = await timeHttp(`http://127.0.0.1:${base}/`, () => ({}));
  const gitbook = await timeHttp(`http://127.0.0.1:${base + 1}/v1`, () => asInit(dispatched()));
  const rssWarm = rssOf(one.pid!);
  one.kill();
  // Memory per worker: 2 workers against 42, each asked once.
  const many = await startWorkerd([trivial, ...Array.from({ length: 41 }, () => gitbookScript)], base + 100);
  for (let i = 1; i <= 41; i++) await (await fetch(`http://127.0.0.1:${base + 100 + i}/v1`, asInit(dispatched()))).arrayBuffer();
  const perWorker = (rssOf(many.pid!) - rssWarm) / 40;
  many.kill();
  // An endless loop, then a request to another worker of the same process; then a worker allocating without end.
  const limits = await startWorkerd([trivial, endless, hungry], base + 200);
  const loop = await fetch(`http://127.0.0.1:${base + 201}/`, { signal: AbortSignal.timeout(10_000) }).then((r) => `answered ${r.status}`, (e: Error) => `no answer within 10 s (${e.name})`);
  const neighbour = await fetch(`http://127.0.0.1:${base}/`, { signal: AbortSignal.timeout(5_000) }).then((r) => `answered ${r.status}`, (e: Error) => `no answer within 5 s (${e.name})`);
  const oom = await fetch(`http://127.0.0.1:${base + 202}/`, { signal: AbortSignal.timeout(30_000) }).then((r) => `answered ${r.status}`, (e: Error) => `failed (${e.name}: ${e.message})`);
  await new Promise((r) => setTimeout(r, 500));
  const alive = limits.exitCode === null && limits.signalCode === null;
  const exit = alive ? 'running' : `exited (${limits.signalCode ?? limits.exitCode})`;
  limits.kill();
  results.workerd = {
    binary: WORKERD,
    trivial: { p50: round(percentile(plain, 50)), p99: round(percentile(plain, 99)) },
    gitbookEvent: { p50: round(percentile(gitbook, 50)), p99: round(percentile(gitbook, 99)) },
    processRssMiB: { twoWorkers: round(rssTwo), afterLoad: round(rssWarm) },
    rssPerWorkerMiB: round(perWorker),
    endlessLoop: loop,
    otherWorkerDuringLoop: neighbour,
    unboundedAllocation: oom,
    processAfterwards: exit,
  };
}

writeFileSync(new URL('./results/workerd-compare.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
console.log(JSON.stringify(results, null, 2));
process.exit(0);
