// How long `npm run mock -- --mode <mode>` takes to be ready, for every mode: from spawning the mock's
// process (`node --import tsx mock/start.ts`, what `npm run mock` runs, without npm's own start) to the
// first answered request, over several runs. The stateful and hybrid modes load the seeded demo database
// from its cache (mock/demo-database.ts); one start before the timed runs builds it when it is missing,
// and that first start is reported apart (`firstStartMs`).
// `npx tsx bench/mock-startup.ts [runs] [modes…]`; results go to bench/results/mock-startup.json.
import { spawn } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { MOCK_MODES, type MockMode } from '../mock/modes.js';
import { freePort, specFile } from '../mock/prism.js';

const root = path.resolve(import.meta.dirname, '..');
const runs = Number(process.argv[2] ?? 5);
const modes = (process.argv.length > 3 ? process.argv.slice(3) : MOCK_MODES) as MockMode[];
const TOKEN = 'bench-mock-startup-token-0123456789';

/** Starts the mock in a child process and resolves with the ms until GET /v1/user answers 200. */
async function timeStart(mode: MockMode): Promise<number> {
  const port = await freePort('127.0.0.1');
  const started = performance.now();
  const child = spawn(process.execPath, ['mock/launch.mjs', '--mode', mode], {
    cwd: root,
    env: { ...process.env, MOCK_PORT: String(port), BOOTSTRAP_TOKEN: TOKEN },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`mock (${mode}) exited with ${child.exitCode}`);
      const status = await fetch(`http://127.0.0.1:${port}/v1/user`, { headers: { Authorization: `Bearer ${TOKEN}` } }).then(
        (res) => res.status,
        () => 0,
      );
      if (status === 200) return Math.round(performance.now() - started);
      if (status !== 0) throw new Error(`mock (${mode}) answered ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

const loadAtStart = loadavg()[0];
const results: Record<string, unknown> = {};
for (const mode of modes) {
  // The first start of a mode with a server builds the cached demo database if it is missing.
  const first = mode === 'stateful' || mode === 'hybrid' ? await timeStart(mode) : undefined;
  const timings: number[] = [];
  for (let i = 0; i < runs; i++) timings.push(await timeStart(mode));
  timings.sort((a, b) => a - b);
  results[mode] = {
    msToFirstAnswer: { min: timings[0], median: timings[Math.floor(runs / 2)], max: timings.at(-1) },
    ...(first !== undefined && { firstStartMs: first }),
  };
  console.log(mode, JSON.stringify(results[mode]));
}
// The machine is shared: its load at the start and the end says how far the timings are from a quiet machine's.
const result = { date: new Date().toISOString(), loadAverage: { atStart: loadAtStart, atEnd: loadavg()[0] }, specBytes: statSync(specFile).size, runs, modes: results };
const dir = path.resolve(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, 'mock-startup.json'), JSON.stringify(result, null, 2) + '\n');
console.log(JSON.stringify(result));
