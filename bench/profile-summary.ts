// Where a Node CPU profile spends its time: self time aggregated by function (+ file:line); then by owner,
// the nearest npm package or project folder on the stack (Node internals, native and wasm code count for
// their caller, so a socket write made by res.json is Express's, a file write made by pino is pino's);
// then inclusive time per package or folder (the samples with it anywhere on the stack).
//   npx tsx bench/profile-summary.ts <file.cpuprofile> [--top 25] [--last SECONDS] [--callers NAME]
// `--callers writev` adds where the self time of the functions named so comes from: their nearest callers
// outside Node's internals (e.g. which socket writes are the response's and which the database driver's).
// Profiles come from `npx tsx bench/http.ts --profile DIR` (node --cpu-prof on each server). `--last 10`
// keeps only the final 10 s of samples, i.e. the measured load, without start-up (module loading, PGlite's
// initdb, migrations) and warm-up. `--skip-last SECONDS` leaves out the final seconds too, so a window of a
// run that measured several loads in turn can be kept alone (bench/headless.ts: `--last 13 --skip-last 8` is
// its second load's measure).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const { values: opts, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '25' }, last: { type: 'string' }, 'skip-last': { type: 'string' }, callers: { type: 'string' } } });
const [file] = positionals;
if (!file) throw new Error('usage: npx tsx bench/profile-summary.ts <file.cpuprofile> [--top 25] [--last SECONDS] [--skip-last SECONDS]');
const top = Number(opts.top);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
// Timestamps in µs: sample i is at startTime + timeDeltas[0..i].
const from = opts.last ? profile.endTime - Number(opts.last) * 1e6 : -Infinity;
const until = opts['skip-last'] ? profile.endTime - Number(opts['skip-last']) * 1e6 : Infinity;
const root = path.resolve(import.meta.dirname, '..');

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

/** The package (node_modules), project folder, Node internal module or V8 pseudo-frame a frame belongs to. */
function area(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const parts = url.slice(modules + '/node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (url.startsWith('node:')) return url.split('/').slice(0, 2).join('/');
  const local = url.startsWith('file://') ? path.relative(root, new URL(url).pathname) : url;
  return path.dirname(local);
}

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url ? ` ${url.replace(`file://${root}/`, '').replace(/^.*\/node_modules\//, '')}:${lineNumber + 1}` : '';
  return `${functionName || '(anonymous)'}${where}`;
}

/** Node internals, native and wasm frames: their time belongs to whoever called them. */
const transparent = (a: string) => a.startsWith('node:') || a === '(native)' || a === 'wasm://wasm';

// Sample i lasted timeDeltas[i + 1] (the delta is the time since the previous sample).
const selfByFunction = new Map<string, number>();
const selfByOwner = new Map<string, number>();
const inclusiveByArea = new Map<string, number>();
const callers = new Map<string, number>();
let total = 0;
let idle = 0;
const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i];
  if (at < from || at > until) return;
  const us = profile.timeDeltas[i + 1] ?? 0;
  const node = byId.get(id)!;
  total += us;
  if (node.callFrame.functionName === '(idle)') idle += us;
  add(selfByFunction, label(node), us);
  const stack: string[] = [];
  for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) stack.push(area(byId.get(n)!));
  add(selfByOwner, stack.find((a) => !transparent(a) && a !== '(root)') ?? stack[0], us);
  for (const a of new Set(stack)) if (!transparent(a)) add(inclusiveByArea, a, us);
  if (opts.callers && node.callFrame.functionName === opts.callers) {
    // The first three frames above it that are not Node internals or native code.
    const frames: string[] = [];
    for (let n = parent.get(id); n !== undefined && frames.length < 3; n = parent.get(n)) {
      const frame = byId.get(n)!;
      if (!transparent(area(frame)) && area(frame) !== '(root)') frames.push(label(frame));
    }
    add(callers, frames.join(' < ') || '(no caller outside Node)', us);
  }
});

const busy = total - idle;
const pct = (us: number) => `${((100 * us) / busy).toFixed(1).padStart(5)}%`;
const print = (title: string, map: Map<string, number>) => {
  console.log(`\n${title}`);
  const rows = [...map].filter(([key]) => key !== '(idle)' && key !== '(root)').sort((a, b) => b[1] - a[1]).slice(0, top);
  for (const [key, us] of rows) console.log(`${pct(us)}  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}`);
};
console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(idle / 1e6).toFixed(1)} s idle; percentages are of the ${(busy / 1e6).toFixed(1)} s busy`);
print('Self time by function', selfByFunction);
print('Self time by owner (nearest package / project folder on the stack)', selfByOwner);
print('Inclusive time by package / folder (on the stack)', inclusiveByArea);
if (opts.callers) print(`Callers of ${opts.callers} (self time)`, callers);
