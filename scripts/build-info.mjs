// What `npm run build` reads and writes, shared by scripts/build.mjs and scripts/start.mjs (plain
// JavaScript: `npm start` runs before any TypeScript loader).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
export const dist = path.join(root, 'dist');
/** Written last by a build that finished: dist/ without it is a build that did not. */
export const stamp = path.join(dist, '.build-complete');
/** The folders compiled (tsconfig.build.json's "include") and the files that shape the build. */
export const sources = ['server', 'contract', 'generated', 'client'];
const buildFiles = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'scripts/build.mjs'];

/** The newest modification time among the sources, in ms (those present: an installed package has dist/ only). */
function newestSource() {
  let newest = 0;
  for (const file of buildFiles) if (existsSync(path.join(root, file))) newest = Math.max(newest, statSync(path.join(root, file)).mtimeMs);
  for (const folder of sources) {
    if (!existsSync(path.join(root, folder))) continue;
    for (const entry of readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

/** Why dist/ cannot be run as it is ('missing' or 'stale'), or undefined when it is up to date. */
export function buildNeeded() {
  if (!existsSync(stamp)) return 'missing';
  return newestSource() > statSync(stamp).mtimeMs ? 'stale' : undefined;
}
