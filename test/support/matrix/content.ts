// Matrix fixtures of space content and change requests: a change request with one page and one file.
import type { MatrixCaller, MatrixFixtures, MatrixWorld } from './types.js';

/** A change request of the space, holding one page and one file (created once per space and call). */
async function changeRequestWithContent({ admin }: MatrixWorld, spaceId: string) {
  const cr = await admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'Matrix' });
  const done = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/content?compat=false`, {
    changes: [
      { operation: 'insert_page', document: { markdown: '# Matrix\n\nA page with [a link](https://example.com/matrix), [its file](matrix.txt) and [itself](matrix).' } },
      { operation: 'insert_files', files: [{ name: 'matrix.txt', contentType: 'text/plain', base64: 'aGk=' }] },
    ],
  });
  return { id: cr.body.id as string, pageId: done.body.changes[0].page.id as string, fileId: done.body.insertedFiles[0].id as string };
}

/** Merges a fresh change request with a page and a file into the space, so the space holds both. */
async function mergedContent(world: MatrixWorld, spaceId: string) {
  const cr = await changeRequestWithContent(world, spaceId);
  await world.admin.api.post(`/spaces/${spaceId}/change-requests/${cr.id}/merge`);
  return cr;
}

function deletedByAdminOnly(caller: MatrixCaller): number | 'success' {
  if (caller === 'outsider' || caller === 'guest') return 404;
  return caller === 'admin' ? 'success' : 403;
}

export const contentFixtures: MatrixFixtures = {
  params: {
    changeRequestId: async (world, path) => (await changeRequestWithContent(world, path.spaceId)).id,
    // A page (file) present both in the space and in the change request chosen before it, if any.
    pageId: async (world, path) => {
      if (path.changeRequestId) {
        const pages = await world.admin.api.get(`/spaces/${path.spaceId}/change-requests/${path.changeRequestId}/content/pages`);
        return pages.body.pages[0].id;
      }
      return (await mergedContent(world, path.spaceId)).pageId;
    },
    commentId: async ({ admin }, path) => (await admin.api.post(`/spaces/${path.spaceId}/comments`, { body: { markdown: 'Matrix' } })).body.id,
    commentReplyId: async ({ admin }, path) =>
      (await admin.api.post(`/spaces/${path.spaceId}/comments/${path.commentId}/replies`, { body: { markdown: 'Matrix' } })).body.id,
    fileId: async (world, path) => {
      if (path.changeRequestId) {
        const files = await world.admin.api.get(`/spaces/${path.spaceId}/change-requests/${path.changeRequestId}/content/files`);
        return files.body.items[0].id;
      }
      return (await mergedContent(world, path.spaceId)).fileId;
    },
  },
  bodies: {
    postCommentInSpace: () => ({ body: { markdown: 'A comment' } }),
    postCommentReplyInSpace: () => ({ body: { markdown: 'A reply' } }),
    updateChangeRequestContent: () => ({ changes: [{ operation: 'insert_page', document: { markdown: 'Hello' } }] }),
    applyTemplateToSpace: () => ({ id: 'getting-started' }),
  },
  queries: {
    searchSpaceContent: () => ({ query: 'matrix' }),
    searchOrganizationContent: () => ({ query: 'matrix' }),
  },
  // Search answers what was merged into the space (the organization: into a new space of it, which the
  // organization search finds once indexed: a search of the space indexes it at once, where the job a merge
  // queues runs seconds later).
  lists: {
    searchSpaceContent: (world, path) => mergedContent(world, path.spaceId),
    searchOrganizationContent: async (world, path) => {
      const space = await world.admin.api.post(`/orgs/${path.organizationId}/spaces`, { title: 'Matrix search' });
      const merged = await mergedContent(world, space.body.id);
      await world.admin.api.get(`/spaces/${space.body.id}/search`, { query: 'matrix' });
      return merged;
    },
    // The organization's change requests (open ones by default): one in a new space of it.
    listChangeRequestsForOrganization: async (world, path) => {
      const space = await world.admin.api.post(`/orgs/${path.organizationId}/spaces`, { title: 'Matrix change requests' });
      return changeRequestWithContent(world, space.body.id);
    },
    listSpaceLinks: (world, path) => mergedContent(world, path.spaceId),
  },
  // Comments and replies (made by the admin) can be deleted by their author or an admin of the space only.
  expected: {
    deleteCommentInSpace: deletedByAdminOnly,
    deleteCommentReplyInSpace: deletedByAdminOnly,
  },
};
