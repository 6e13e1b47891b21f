// The font files of published sites, served by this server at `<site URL>/~fonts/<package>-<weight>.woff2`
// (fonts.ts decides which, and writes the `@font-face` rules that point here). Each is the latin subset,
// normal style, of an `@fontsource/*` package (OFL font files only), read once and then kept in memory:
// about 20 to 70 kB a file, and a site uses at most five. A file may be cached by anyone for a year: the font
// is the same on every site, nothing of the site's, so a shared cache keeping it gives no reader anything
// they could not have; after an upgrade of its package, a reader may keep the previous cut of the same font.
// The packages are development dependencies (each ships every subset and style: 49 MB for these 50 files,
// about 1 MB): `npm run build` (scripts/build.mjs) copies the served files into dist/ beside the compiled
// font-files.js with `writeFontFiles`, and a built server reads them there; under tsx (development, the
// tests) they are read from the packages.
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fontFileName, SERVED_FILES } from './fonts.js';

export const FONTS_SEGMENT = '~fonts';

const require = createRequire(import.meta.url);

/** The served files by their name under `~fonts/`, each its file in its package. */
const PATHS: ReadonlyMap<string, string> = new Map(
  [...SERVED_FILES].flatMap(([files, weights]) =>
    weights.map((weight) => [fontFileName(files, weight), `@fontsource/${files}/files/${files}-latin-${weight}-normal.woff2`] as const),
  ),
);

/** The folder, beside the compiled font-files.js, `npm run build` copies the served files into. */
export const BUILT_FONTS_FOLDER = 'font-files';
const builtDir = path.join(import.meta.dirname, BUILT_FONTS_FOLDER);
const built = existsSync(builtDir);

/** Copies every served file into `folder` under its served name (`npm run build`). */
export async function writeFontFiles(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  for (const [name, modulePath] of PATHS) await copyFile(require.resolve(modulePath), path.join(folder, name));
}

/** The bytes of each file read so far (a failed read is tried again by the next request). */
const loaded = new Map<string, Promise<Buffer>>();

function bytesOf(name: string, modulePath: string): Promise<Buffer> {
  let bytes = loaded.get(name);
  if (!bytes) {
    bytes = readFile(built ? path.join(builtDir, name) : require.resolve(modulePath));
    loaded.set(name, bytes);
    bytes.catch(() => loaded.delete(name));
  }
  return bytes;
}

/** Sends the font file `name`; false (nothing sent) when no such file is served. */
export async function sendFontFile(req: IncomingMessage, res: ServerResponse, name: string): Promise<boolean> {
  const modulePath = PATHS.get(name);
  if (!modulePath) return false;
  const bytes = await bytesOf(name, modulePath);
  res.statusCode = 200;
  res.setHeader('Content-Type', 'font/woff2');
  res.setHeader('Content-Length', bytes.length);
  res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(req.method === 'HEAD' ? undefined : bytes);
  return true;
}
