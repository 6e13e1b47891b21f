// Start-up time of the server: from spawning the process to its "listening" log line, on a DATA_DIR
// already migrated (a restart, what a deployment waits for), run from the TypeScript sources through tsx
// (`npm run dev`, what `npm start` was before the build) and from the build (`node dist/server/main.js`,
// what `npm start` runs now). Median of --runs (default 5) each, alternating. Needs dist/ (npm run build).
//
//   npx tsx bench/startup.ts [--runs 5]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values: opts } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const root = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-startup-'));
const commands = {
  tsx: [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'server/main.ts'],
  built: ['dist/server/main.js'],
};

/** Milliseconds from spawn to "listening"; the process is then stopped with SIGTERM and awaited. */
function startOnce(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, BOOTSTRAP_TOKEN: 'bench-startup-token-0123456789', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let took: number | undefined;
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (took === undefined && output.includes('"msg":"listening"')) {
        took = performance.now() - started;
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', () => (took === undefined ? reject(new Error(`exited before listening:\n${output}`)) : resolve(took)));
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
try {
  await startOnce(commands.built); // the first start migrates the empty folder: not measured
  const times: Record<keyof typeof commands, number[]> = { tsx: [], built: [] };
  for (let run = 0; run < Number(opts.runs); run++) {
    for (const name of Object.keys(commands) as (keyof typeof commands)[]) times[name].push(await startOnce(commands[name]));
  }
  const result = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    runs: Number(opts.runs),
    medianMs: { tsx: Math.round(median(times.tsx)), built: Math.round(median(times.built)) },
    allMs: { tsx: times.tsx.map(Math.round), built: times.built.map(Math.round) },
  };
  console.log(JSON.stringify(result, null, 2));
  writeFileSync(path.join(root, 'bench/results/startup.json'), JSON.stringify(result, null, 2) + '\n');
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
