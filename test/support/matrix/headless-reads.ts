// Matrix fixtures of the headless reads (docs/headless-reads.md): a revision of the space with a page, a
// file and a reusable content; its pages, files and paths; a document id; a public OpenAPI specification to
// compute a document and pages from; an embed URL answered without the network.
import { sql } from 'drizzle-orm';
import { forgetRevision } from '../../../server/content/revisions.store.js';
import { contentFixtures } from './content.js';
import { drainOpenAPIJobs, petstoreYaml } from './openapi.js';
import type { MatrixCaller, MatrixFixtures, MatrixWorld } from './types.js';

/** Merges a page (with a link to the file) and a file into the space; its current revision then holds both. */
async function mergedRevision(world: MatrixWorld, spaceId: string): Promise<string> {
  const { admin } = world;
  const cr = await admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'Matrix revision' });
  await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/content?compat=false`, {
    changes: [
      { operation: 'insert_page', title: 'Matrix', document: { markdown: '# Matrix\n\nA page with [its file](matrix.txt).' } },
      { operation: 'insert_files', files: [{ name: 'matrix.txt', contentType: 'text/plain', base64: 'aGk=' }] },
    ],
  });
  await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/merge`);
  return (await admin.api.get(`/spaces/${spaceId}/content`)).body.id;
}

/**
 * A reusable content in the revision. Nothing in the API creates reusable contents (the public API has no
 * write of them either), so the fixture writes one into the stored revision, as an import would have.
 */
export async function plantReusableContent(world: MatrixWorld, revisionId: string, id = 'rsc_matrix'): Promise<string> {
  const reusable = {
    id,
    title: 'Matrix snippet',
    document: { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', key: 'rsc1', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Shared words.', marks: [] }] }] }] },
  };
  await world.h.db.execute(
    sql`UPDATE content_revisions SET content = jsonb_set(content, '{reusableContents}', (content->'reusableContents') || ${JSON.stringify([reusable])}::jsonb) WHERE id = ${revisionId}`,
  );
  // Revisions are immutable, so this process caches them: the row changed in place is read again.
  forgetRevision(revisionId);
  return id;
}

let specs = 0;

/** A public specification of the admin's organization, processed (so it has a version). */
async function publicSpec({ admin, h }: MatrixWorld): Promise<string> {
  const slug = `matrix-computed-${++specs}`;
  await admin.api.post(`/orgs/${admin.organizationId}/openapi`, { slug, source: { text: petstoreYaml } });
  await drainOpenAPIJobs(h);
  await admin.api.patch(`/orgs/${admin.organizationId}/openapi/${slug}`, { visibility: 'public' });
  return slug;
}

/** Members read the members of their organization; a guest and an outsider find no one else. */
function readsOthers(caller: MatrixCaller): number | 'success' {
  return caller === 'outsider' || caller === 'guest' ? 404 : 'success';
}

export const headlessReadFixtures: MatrixFixtures = {
  params: {
    revisionId: async (world, path) => {
      const revisionId = await mergedRevision(world, path.spaceId);
      await plantReusableContent(world, revisionId);
      return revisionId;
    },
    // In a revision chosen before: its first page (file); else the content fixtures' own.
    pageId: async (world, path) => {
      if (!path.revisionId) return contentFixtures.params!.pageId(world, path);
      return (await world.admin.api.get(`/spaces/${path.spaceId}/revisions/${path.revisionId}/pages`)).body.pages[0].id;
    },
    fileId: async (world, path) => {
      if (!path.revisionId) return contentFixtures.params!.fileId(world, path);
      return (await world.admin.api.get(`/spaces/${path.spaceId}/revisions/${path.revisionId}/files`)).body.items[0].id;
    },
    pagePath: async (world, path) => {
      const revisionId = path.revisionId ?? (await mergedRevision(world, path.spaceId));
      return (await world.admin.api.get(`/spaces/${path.spaceId}/revisions/${revisionId}/pages`)).body.pages[0].path;
    },
    reusableContentId: async () => 'rsc_matrix',
    documentId: async (world, path) => {
      const revisionId = await mergedRevision(world, path.spaceId);
      return (await world.admin.api.get(`/spaces/${path.spaceId}/revisions/${revisionId}/pages`)).body.pages[0].documentId;
    },
  },
  bodies: {
    getComputedDocument: async (world) => ({
      source: { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: await publicSpec(world) } } }, props: { doc: 'operation', page: '/pets', method: 'get' } },
      seed: 'matrix',
    }),
    getComputedRevision: async (world) => ({
      source: { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: await publicSpec(world) } } }, props: { models: true } },
      seed: 'matrix',
    }),
  },
  // Port 1 of the loopback refuses at once: the embed is the URL's link card, with no call outside.
  queries: {
    getEmbedByUrlInSpace: () => ({ url: 'http://127.0.0.1:1/matrix' }),
  },
  expected: {
    getUserById: readsOthers,
  },
};
