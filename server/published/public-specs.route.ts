// Public OpenAPI specifications under PUBLISHED_URL, without a token (server/openapi/public-spec.ts):
//   /~openapi/<organization id>/<slug>                                the rendered reference (latest version)
//   /~openapi/<organization id>/<slug>/openapi.json                   the latest version's document
//   /~openapi/<organization id>/<slug>/versions/<id>/openapi.json     a version's document (its `url`)
// Anything else, and any private or unknown specification, is the same 404.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Db } from '../db/client.js';
import { findPublicVersion, publicSpecUrl, publicVersionUrl } from '../openapi/public-spec.js';
import { referenceHtml } from '../openapi/reference-html.js';
import { sendText } from '../http/node-http.js';
import type { Urls } from '../urls.js';
import { notFoundHtml } from './page-html.js';

/** Answers a request for a public specification of `organizationId`; `segments` follow the organization id. */
export async function servePublicSpec(db: Db, urls: Urls, req: IncomingMessage, res: ServerResponse, organizationId: string, segments: string[]): Promise<void> {
  const [slug, ...rest] = segments;
  const asked = rest.length === 0 ? 'reference' : rest.length === 1 && rest[0] === 'openapi.json' ? 'latest' : rest.length === 3 && rest[0] === 'versions' && rest[2] === 'openapi.json' ? 'version' : undefined;
  const found = slug && asked ? await findPublicVersion(db, organizationId, slug, asked === 'version' ? rest[1] : undefined) : undefined;
  // Public documents may be fetched by browsers of other origins (API explorers, code generators).
  res.setHeader('Cache-Control', 'no-cache');
  if (!found) {
    res.setHeader('X-Robots-Tag', 'noindex');
    return sendText(req, res, 404, 'text/html', notFoundHtml());
  }
  if (asked === 'reference') {
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'self'");
    return sendText(req, res, 200, 'text/html', referenceHtml(found.document, publicVersionUrl(found.spec, found.versionId, urls)));
  }
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Link', `<${publicSpecUrl(found.spec, urls)}>; rel="describedby"`);
  return sendText(req, res, 200, 'application/json', JSON.stringify(found.document));
}
