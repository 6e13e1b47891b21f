// `npm start`: runs the built server (dist/server/main.js), building it first when dist/ is missing or
// older than the sources, so `npm install && npm start` works on a fresh clone. `npm run migrate` runs
// dist/server/migrate.js the same way (`node scripts/start.mjs migrate`). A production install
// (`npm ci --omit=dev`) has no compiler: ship dist/ with it (`npm run build` where dev dependencies are).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildNeeded, dist, root } from './build-info.mjs';

const reason = buildNeeded();
if (reason) {
  console.error(reason === 'missing' ? 'dist/ is missing: building the server first (npm run build)…' : 'The sources changed since dist/ was built: building again (npm run build)…');
  execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
}
const entry = process.argv[2] ?? 'main';
if (!['main', 'migrate'].includes(entry)) throw new Error(`scripts/start.mjs: main or migrate, not ${entry}`);
await import(pathToFileURL(path.join(dist, `server/${entry}.js`)).href);
