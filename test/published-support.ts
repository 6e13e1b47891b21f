// Helpers of the published-site tests: spaces with pages (merged from a change request), published sites,
// and a reader's requests to the URLs the API hands out (sent to the app with the URL's own Host).
import request from 'supertest';
import { expect } from 'vitest';
import type { Account, Harness } from './support/harness.js';
import { sitePath } from './sites-support.js';

export interface PageInput {
  title: string;
  markdown: string;
  /** The `ref` of the parent page. */
  into?: string;
  ref?: string;
  description?: string;
}

/** A file of the space, inserted before the pages (which may name it: `{% file src=".gitbook/assets/<name>" %}`). */
export interface FileInput {
  name: string;
  contentType: string;
  text: string;
}

/** A new space titled `title` whose content is `files` and `pages`, merged through a change request. */
export async function spaceWithPages(admin: Account, title: string, pages: PageInput[], files: FileInput[] = []): Promise<string> {
  const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title });
  expect(space.status).toBe(201);
  const cr = await admin.api.post(`/spaces/${space.body.id}/change-requests`);
  expect(cr.status).toBe(201);
  const fileChanges = files.length === 0 ? [] : [{ operation: 'insert_files', files: files.map((f) => ({ name: f.name, contentType: f.contentType, base64: Buffer.from(f.text).toString('base64') })) }];
  const pageChanges = pages.map((p) => ({
    operation: 'insert_page',
    document: { markdown: p.markdown },
    title: p.title,
    ...(p.ref && { ref: p.ref }),
    ...(p.into && { into: p.into }),
    ...(p.description && { description: p.description }),
  }));
  const changes = [...fileChanges, ...pageChanges];
  const content = await admin.api.post(`/spaces/${space.body.id}/change-requests/${cr.body.id}/content?compat=false`, { changes });
  expect(content.status, JSON.stringify(content.body)).toBe(200);
  const merged = await admin.api.post(`/spaces/${space.body.id}/change-requests/${cr.body.id}/merge`);
  expect(merged.status, JSON.stringify(merged.body)).toBe(200);
  return space.body.id;
}

/** Publishes the site and returns it (with its `urls.published`). */
export async function publish(admin: Account, siteId: string) {
  const res = await admin.api.post(`${sitePath(admin, siteId)}/publish`);
  expect(res.status).toBe(200);
  expect(res.body.urls.published).toBeTruthy();
  return res.body;
}

/** A reader's GET of an absolute URL (no token), sent to the app with the URL's host. */
export function open(h: Harness, url: string, cookies?: string[]) {
  const u = new URL(url);
  let req = request(h.app).get(u.pathname + u.search).set('Host', u.host).redirects(0);
  if (cookies?.length) req = req.set('Cookie', cookies.map((c) => c.split(';')[0]).join('; '));
  return req;
}

/** The `href`s of the links of an HTML document. */
export function hrefs(html: string): string[] {
  return [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
}
