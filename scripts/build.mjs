// `npm run build`: compiles the server, the contract, the generated code and the typed client to dist/
// with declarations (tsconfig.build.json), then copies what the compiled code reads beside itself: the
// migrations, the published document, the JavaScript workers (.mjs, with their declarations), and the
// reference docs' page and Scalar bundle, and the font files published sites serve, from development
// dependencies a production install lacks (server/http/reference-page.ts, server/published/font-files.ts). Built
// aside and renamed over dist/, so a server starting meanwhile never runs half a build.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { dist, root, sources, stamp } from './build-info.mjs';

const partial = `${dist}.${process.pid}.partial`;
rmSync(partial, { recursive: true, force: true });
let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  console.error('npm run build needs TypeScript, a development dependency: run `npm install` (not `--omit=dev`), or build elsewhere and ship dist/.');
  process.exit(1);
}
const started = Date.now();
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', partial], { cwd: root, stdio: 'inherit' });
// Files the compiled code finds next to itself (import.meta.dirname / import.meta.url).
cpSync(path.join(root, 'server/db/migrations'), path.join(partial, 'server/db/migrations'), { recursive: true });
for (const file of ['openapi.json', 'openapi.yaml']) cpSync(path.join(root, 'generated', file), path.join(partial, 'generated', file));
for (const folder of sources) {
  for (const entry of readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && /\.(mjs|d\.mts)$/.test(entry.name)) {
      const from = path.join(entry.parentPath, entry.name);
      cpSync(from, path.join(partial, path.relative(root, from)));
    }
  }
}
const { writeReferenceFiles, BUILT_FILES } = await import(pathToFileURL(path.join(partial, 'server/http/reference-page.js')).href);
await writeReferenceFiles(path.join(partial, 'server/http', BUILT_FILES.folder));
const { writeFontFiles, BUILT_FONTS_FOLDER } = await import(pathToFileURL(path.join(partial, 'server/published/font-files.js')).href);
await writeFontFiles(path.join(partial, 'server/published', BUILT_FONTS_FOLDER));
writeFileSync(path.join(partial, path.basename(stamp)), `${new Date().toISOString()}\n`);
if (existsSync(dist)) rmSync(dist, { recursive: true, force: true });
renameSync(partial, dist);
console.log(`Built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
