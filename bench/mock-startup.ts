// How long `npm run mock` takes to be ready on the complete spec: from spawning Prism to the first
// answered request, over several runs. `npx tsx bench/mock-startup.ts [runs]`; results go to
// bench/results/mock-startup.json and the README quotes the median.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { specFile, startMock } from '../mock/prism.js';

const runs = Number(process.argv[2] ?? 5);
const timings: number[] = [];
for (let i = 0; i < runs; i++) {
  const started = performance.now();
  const mock = await startMock(0);
  const res = await fetch(`${mock.baseUrl}/user`, { headers: { Authorization: 'Bearer bench' } });
  if (res.status !== 200) throw new Error(`mock answered ${res.status}`);
  timings.push(Math.round(performance.now() - started));
  await mock.stop();
}
timings.sort((a, b) => a - b);
const result = {
  date: new Date().toISOString(),
  specBytes: statSync(specFile).size,
  runs,
  msToFirstAnswer: { min: timings[0], median: timings[Math.floor(runs / 2)], max: timings.at(-1) },
};
const dir = path.resolve(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, 'mock-startup.json'), JSON.stringify(result, null, 2) + '\n');
console.log(JSON.stringify(result));
