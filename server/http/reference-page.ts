// The reference page at /docs and Scalar's browser bundle it loads, from the development dependencies
// (@scalar/client-side-rendering renders the page, @scalar/api-reference holds the bundle). A production
// install has neither: `npm run build` (scripts/build.mjs) calls `writeReferenceFiles` to put both into
// dist/ beside the compiled reference-docs.js, with a placeholder where the page names the server, and
// reference-docs.ts serves those files when they are there (the 4.3 MB bundle and its ~195 MB of
// dependencies are for that one file). Under tsx (development, the tests) it renders from the packages.
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

export const BUNDLE_PATH = '/docs/scalar.js';
/** Where the built page says which server "try it" calls; replaced by the server's own API URL when served. */
export const API_URL_PLACEHOLDER = 'https://api-url.placeholder.invalid/v1';
/** The folder, beside the compiled reference-docs.js, `npm run build` writes the page and bundle into. */
export const BUILT_FILES = { folder: 'reference-docs', page: 'index.html', bundle: 'scalar.js' };

/** The page, asking for the document at /v1/openapi.json and sending "try it" to `apiUrl`. */
export async function renderReferencePage(apiUrl: string): Promise<string> {
  const { renderApiReference } = await import('@scalar/client-side-rendering');
  return renderApiReference({
    pageTitle: 'Documentation Workspace Management API — reference',
    cdn: BUNDLE_PATH,
    config: {
      url: '/v1/openapi.json',
      // "Try it" calls this server directly (it answers CORS), not Scalar's hosted proxy.
      servers: [{ url: apiUrl, description: 'This server' }],
      // Offline-safe: no web fonts or telemetry from scalar.com, none of its hosted services (agent, MCP).
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: 'never',
      hideClientButton: true,
      _integration: 'express',
    },
  });
}

/** Scalar's standalone browser bundle in node_modules (`@scalar/api-reference` exports no path to it; it sits beside its main entry). */
export function scalarBundlePath(): string {
  return path.join(path.dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser/standalone.js');
}

/** Writes the page (with the placeholder) and the bundle into `folder` (the build's). */
export async function writeReferenceFiles(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, BUILT_FILES.page), await renderReferencePage(API_URL_PLACEHOLDER));
  await copyFile(scalarBundlePath(), path.join(folder, BUILT_FILES.bundle));
}
