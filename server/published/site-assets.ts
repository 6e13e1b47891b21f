// The static files of published sites' pages, at `<site URL>/~assets/…`: the client script (site-script.ts)
// and KaTeX's style sheet with its fonts (only pages holding math link them). Their names carry their
// version (a hash of the script, KaTeX's version), so a reader's browser and any shared cache keep them a
// year: they are the same for every site and hold nothing of any site's.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import katex from 'katex';
import { SITE_SCRIPT } from './site-script.js';

export const ASSETS_SEGMENT = '~assets';

const require = createRequire(import.meta.url);
const scriptHash = createHash('sha256').update(SITE_SCRIPT).digest('base64url').slice(0, 12);

/** The file names under `~assets/` of the script and of KaTeX's style sheet. */
export const SCRIPT_FILE = `site-${scriptHash}.js`;
export const KATEX_CSS_FILE = `katex-${katex.version}.css`;

/** The client script's size compressed (bench/published-site.ts holds it under 20 kB). */
export const scriptGzipBytes = () => gzipSync(SITE_SCRIPT).length;

const katexDist = path.dirname(require.resolve('katex/dist/katex.min.css'));

const loaded = new Map<string, Promise<Buffer>>();
function bytesOf(file: string): Promise<Buffer> {
  let bytes = loaded.get(file);
  if (!bytes) {
    bytes = readFile(path.join(katexDist, file));
    loaded.set(file, bytes);
    bytes.catch(() => loaded.delete(file));
  }
  return bytes;
}

function send(req: IncomingMessage, res: ServerResponse, type: string, body: Buffer | string) {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.statusCode = 200;
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Length', bytes.length);
  res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

/** Sends the asset at `rest` (the segments after `~assets`); false (nothing sent) when there is none. */
export async function sendAsset(req: IncomingMessage, res: ServerResponse, rest: string[]): Promise<boolean> {
  if (rest.length === 1 && rest[0] === SCRIPT_FILE) return (send(req, res, 'text/javascript; charset=utf-8', SITE_SCRIPT), true);
  if (rest.length === 1 && rest[0] === KATEX_CSS_FILE) return (send(req, res, 'text/css; charset=utf-8', await bytesOf('katex.min.css')), true);
  // KaTeX's fonts, as its style sheet names them (`fonts/KaTeX_Main-Regular.woff2`); browsers take woff2.
  if (rest.length === 2 && rest[0] === 'fonts' && /^KaTeX_[A-Za-z0-9_-]+\.woff2$/.test(rest[1])) {
    try {
      return (send(req, res, 'font/woff2', await bytesOf(`fonts/${rest[1]}`)), true);
    } catch {
      return false;
    }
  }
  return false;
}
