// `npm run mock` starts here. Under tsx, loading the server's TypeScript module by module costs more than
// a second before anything can answer (each of several hundred files passes through tsx's loader hooks),
// so the mock runs from one prebuilt ES module bundle of mock/start.ts instead: esbuild builds it into
// node_modules/.cache the first time, in about half a second, and again whenever a source it comes from
// changes (its folder is named by a hash of contract/, generated/, mock/ and server/). npm packages stay
// outside the bundle and load from node_modules as usual. Plain JavaScript, because it runs before any
// TypeScript loader; `tsx mock/start.ts` runs the same mock from source.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const SOURCES = ['contract', 'generated', 'mock', 'server'];
const cacheDir = path.join(root, 'node_modules/.cache/docs-workspace-api');

async function buildBundle() {
  const { build } = await import('esbuild');
  // Built aside and renamed: a mock starting beside this one never loads half a bundle.
  const partial = `${bundleDir}.${process.pid}.partial`;
  await build({
    entryPoints: [path.join(root, 'mock/start.ts')],
    outdir: partial,
    bundle: true,
    // The Prism modes never load the server: it sits in its own chunk, imported when a mode needs it.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [keepSourceLocation],
  });
  try {
    renameSync(partial, bundleDir);
  } catch (err) {
    // Another mock built the same bundle first: use that one.
    if (!existsSync(entry)) throw err;
    rmSync(partial, { recursive: true, force: true });
  }
  // Bundles of sources that have since changed, left a day ago or more (a mock still running may load
  // its server chunk late).
  for (const old of readdirSync(cacheDir)) {
    const dir = path.join(cacheDir, old);
    if (old.startsWith('mock-') && dir !== bundleDir && Date.now() - statSync(dir).mtimeMs > 86_400_000) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The sources find files next to themselves (migrations, the published document, the cache) through
 * `import.meta.dirname` and `import.meta.url`; in the bundle these would name the bundle's folder, so each
 * source file gets its own location written in.
 */
const keepSourceLocation = {
  name: 'keep-source-location',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, ({ path: file }) => ({
      contents: readFileSync(file, 'utf8')
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(file)))
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(file).href)),
      loader: 'ts',
    }));
  },
};

/** A hash of every source the bundle is built from, and of package-lock.json (the esbuild that builds it). */
function fingerprint() {
  const hash = createHash('sha256');
  hash.update(readFileSync(path.join(root, 'package-lock.json')));
  for (const dir of SOURCES) {
    const files = readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name))
      .sort();
    for (const file of files) {
      hash.update(path.relative(root, file));
      hash.update(readFileSync(file));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

const bundleDir = path.join(cacheDir, `mock-${fingerprint()}`);
const entry = path.join(bundleDir, 'start.js');
if (!existsSync(entry)) await buildBundle();
await import(pathToFileURL(entry).href);
