// The published document (GET /v1/openapi.json, /v1/openapi.yaml, under the API's path) and an interactive reference at /docs,
// served without a token: both describe the API, they expose no data. Mounted before authentication.
// The reference is Scalar's standalone bundle, served by this server (no CDN: it must work on a machine
// without internet, and a reference that loads third-party code can break or leak): from the files
// `npm run build` put beside this module, or from the development dependencies (reference-page.ts).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import express, { type Router } from 'express';
import { API_URL_PLACEHOLDER, BUILT_FILES, BUNDLE_PATH, renderReferencePage, scalarBundlePath } from './reference-page.js';

const generatedDir = path.resolve(import.meta.dirname, '../../generated');
const builtDir = path.join(import.meta.dirname, BUILT_FILES.folder);
const built = existsSync(path.join(builtDir, BUILT_FILES.page));

export const DOCS_PATH = '/docs';

/** Where the reference's "try it" sends requests, and the title of its page. */
export interface ReferenceDocsOptions {
  /** The server's public base (without `/v1`), e.g. `https://api.example.com`. */
  publicUrl: string;
}

/** GET /openapi.json and /openapi.yaml under the API's path (/v1, or where a host app mounted it). */
export function publishedDocument(): Router {
  const router = express.Router();
  // Read once, on first request: the JSON document is about 1 MB and most processes never serve it.
  const documents = new Map<string, Promise<string>>();
  const document = (file: string) => {
    let text = documents.get(file);
    if (!text) {
      text = readFile(path.join(generatedDir, file), 'utf8');
      text.catch(() => documents.delete(file));
      documents.set(file, text);
    }
    return text;
  };
  router.get('/openapi.json', async (_req, res) => {
    res.type('application/json').send(await document('openapi.json'));
  });
  router.get('/openapi.yaml', async (_req, res) => {
    res.type('application/yaml').send(await document('openapi.yaml'));
  });
  return router;
}

/** The interactive reference at /docs, reading the standalone server's /v1/openapi.json. */
export function referenceDocs({ publicUrl }: ReferenceDocsOptions): Router {
  const router = express.Router();
  const apiUrl = `${publicUrl}/v1`;
  // Rendered once, on first request. In the built page the placeholder is a JSON string in a script:
  // the URL (validated by the configuration) goes in as JSON, with `<` escaped so it cannot end the script.
  let page: Promise<string> | undefined;
  const pageText = () =>
    (page ??= built
      ? readFile(path.join(builtDir, BUILT_FILES.page), 'utf8').then((html) => html.replaceAll(API_URL_PLACEHOLDER, JSON.stringify(apiUrl).slice(1, -1).replaceAll('<', '\\u003c')))
      : renderReferencePage(apiUrl));
  const bundle = built ? path.join(builtDir, BUILT_FILES.bundle) : scalarBundlePath();
  router.get(BUNDLE_PATH, (_req, res) => {
    res.sendFile(bundle, { maxAge: '1d' });
  });
  router.get(DOCS_PATH, async (_req, res) => {
    res.type('text/html').send(await pageText());
  });
  return router;
}
