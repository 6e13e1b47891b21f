// One ES module bundle of a TypeScript entry point (mock/start.ts, server/main.ts), cached in
// node_modules/.cache. Under tsx, loading the server's TypeScript module by module costs seconds before
// anything can answer (each of several hundred files passes through tsx's loader hooks); esbuild builds the
// bundle in about half a second, the first time and again whenever a source it comes from changes (its
// folder is named by a hash of contract/, generated/, mock/ and server/). npm packages stay outside the
// bundle and load from node_modules as usual. Plain JavaScript, because `npm run mock` (mock/launch.mjs)
// runs it before any TypeScript loader; the tests' child servers (test/support/child-server.ts) use it too.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const SOURCES = ['contract', 'generated', 'mock', 'server'];
const cacheDir = path.join(root, 'node_modules/.cache/docs-workspace-api');

/**
 * The bundle of `entry` (a path from the project's root, e.g. 'server/main.ts'), built if the sources
 * changed since the last build; resolves with the path of its JavaScript entry file.
 */
export async function sourceBundle(entry, { name }) {
  const bundleDir = path.join(cacheDir, `${name}-${fingerprint()}`);
  const output = path.join(bundleDir, `${path.basename(entry, '.ts')}.js`);
  if (!existsSync(output)) await build(entry, name, bundleDir, output);
  return output;
}

async function build(entry, name, bundleDir, output) {
  const { build: esbuild } = await import('esbuild');
  // Built aside and renamed: a process starting beside this one never loads half a bundle.
  const partial = `${bundleDir}.${process.pid}.partial`;
  await esbuild({
    entryPoints: [path.join(root, entry)],
    outdir: partial,
    bundle: true,
    // Code that is loaded only on some paths (the mock's server for its stateful modes) sits in its own
    // chunk, imported when needed.
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
    // Another process built the same bundle first: use that one.
    if (!existsSync(output)) throw err;
    rmSync(partial, { recursive: true, force: true });
  }
  // Bundles of sources that have since changed, left a day ago or more (a process still running may load
  // a chunk late).
  for (const old of readdirSync(cacheDir)) {
    const dir = path.join(cacheDir, old);
    if (old.startsWith(`${name}-`) && dir !== bundleDir && Date.now() - statSync(dir).mtimeMs > 86_400_000) rmSync(dir, { recursive: true, force: true });
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

/** A hash of every source a bundle is built from, and of package-lock.json (the esbuild that builds it). */
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
