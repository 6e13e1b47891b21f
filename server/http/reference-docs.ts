// The published document (GET /v1/openapi.json, /v1/openapi.yaml, under the API's path) and an interactive reference at /docs,
// served without a token: both describe the API, they expose no data. Mounted before authentication.
// The reference is Scalar's standalone bundle, served from node_modules by this server (no CDN: it must
// work on a machine without internet, and a reference that loads third-party code can break or leak).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { apiReference } from '@scalar/express-api-reference';
import express, { type Router } from 'express';

const generatedDir = path.resolve(import.meta.dirname, '../../generated');
// `@scalar/api-reference` exports no path to its browser bundle; it sits beside its main entry.
const scalarBundle = path.join(path.dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser/standalone.js');

export const DOCS_PATH = '/docs';
const BUNDLE_PATH = '/docs/scalar.js';

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
  router.get(BUNDLE_PATH, (_req, res) => {
    res.sendFile(scalarBundle, { maxAge: '1d' });
  });
  router.get(
    DOCS_PATH,
    apiReference({
      pageTitle: 'Documentation Workspace Management API — reference',
      url: '/v1/openapi.json',
      cdn: BUNDLE_PATH,
      // "Try it" calls this server directly (it answers CORS), not Scalar's hosted proxy.
      servers: [{ url: `${publicUrl}/v1`, description: 'This server' }],
      // Offline-safe: no web fonts or telemetry from scalar.com, none of its hosted services (agent, MCP).
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: 'never',
      hideClientButton: true,
    }),
  );
  return router;
}
