// List fills of the content tree and of space content: spaces, collections, change requests, comments,
// pages, files, links and backlinks (of a space, of a change request, of a revision).
import type { Account } from '../harness.js';
import { answered, changeRequestWith, created, files, mergedInto, newSpace, pages, times, type ListCase } from './types.js';

/** Markdown holding `n` links, each to its own external URL (a link list has one item per target). */
const links = (n: number) => Array.from({ length: n }, (_, k) => `[link ${k}](https://example.com/budget/${k})`).join(' ');

/** A page titled "Links" holding `n` links. */
const linksPage = (n: number) => [{ operation: 'insert_page', title: 'Links', document: { markdown: links(n) } }];

/** A file, then `n` pages linking to it. */
const fileAndLinkers = (n: number) => [...files(1), ...pages(n, () => 'See [the file](file-0.txt).')];

/** A page "Target" (slug `target`), then `n` pages linking to it. */
const targetAndLinkers = (n: number) => [
  { operation: 'insert_page', title: 'Target', document: { markdown: 'The target.' } },
  ...pages(n, () => 'See [the target](/target.md).'),
];

/** The current revision of the space. */
async function currentRevision(admin: Account, spaceId: string): Promise<string> {
  return (await answered(200, admin.api.get(`/spaces/${spaceId}/content`), 'getCurrentRevision')).id;
}

export const contentLists: ListCase[] = [
  {
    operationId: 'listSpacesInOrganizationById',
    fill: async (_h, admin, n) => {
      await times(n, () => newSpace(admin));
      return `/orgs/${admin.organizationId}/spaces`;
    },
  },
  {
    operationId: 'listCollectionsInOrganizationById',
    fill: async (_h, admin, n) => {
      await times(n, () => created(admin, `/orgs/${admin.organizationId}/collections`, {}));
      return `/orgs/${admin.organizationId}/collections`;
    },
  },
  {
    operationId: 'listSpacesInCollectionById',
    fill: async (_h, admin, n) => {
      const collection = await created(admin, `/orgs/${admin.organizationId}/collections`, {});
      await times(n, () => created(admin, `/orgs/${admin.organizationId}/spaces`, { parent: collection.id }));
      return `/collections/${collection.id}/spaces`;
    },
  },
  {
    operationId: 'listChangeRequestsForOrganization',
    fill: async (_h, admin, n) => {
      const space = await newSpace(admin);
      await times(n, () => created(admin, `/spaces/${space}/change-requests`, { subject: 'Edit' }));
      return `/orgs/${admin.organizationId}/change-requests`;
    },
  },
  {
    operationId: 'listChangeRequestsForSpace',
    fill: async (_h, admin, n) => {
      const space = await newSpace(admin);
      await times(n, () => created(admin, `/spaces/${space}/change-requests`, { subject: 'Edit' }));
      return `/spaces/${space}/change-requests`;
    },
  },
  {
    operationId: 'listCommentsInSpace',
    fill: async (_h, admin, n) => {
      const space = await newSpace(admin);
      await times(n, () => created(admin, `/spaces/${space}/comments`, { body: { markdown: 'A remark' } }));
      return `/spaces/${space}/comments`;
    },
  },
  {
    operationId: 'listCommentRepliesInSpace',
    fill: async (_h, admin, n) => {
      const space = await newSpace(admin);
      const comment = await created(admin, `/spaces/${space}/comments`, { body: { markdown: 'A remark' } });
      await times(n, () => created(admin, `/spaces/${space}/comments/${comment.id}/replies`, { body: { markdown: 'A reply' } }));
      return `/spaces/${space}/comments/${comment.id}/replies`;
    },
  },
  {
    operationId: 'listPages',
    fill: async (_h, admin, n) => {
      const space = await newSpace(admin);
      await mergedInto(admin, space, pages(n));
      return `/spaces/${space}/content/pages`;
    },
  },
  {
    operationId: 'listFiles',
    fill: async (_h, admin, n) => {
      const space = await newSpace(admin);
      await mergedInto(admin, space, files(n));
      return `/spaces/${space}/content/files`;
    },
  },
  {
    operationId: 'listSpaceFileBacklinks',
    fill: async (_h, admin, n) => {
      const space = await newSpace(admin);
      const made = await mergedInto(admin, space, fileAndLinkers(n));
      return `/spaces/${space}/content/files/${made.insertedFiles[0].id}/backlinks`;
    },
  },
  {
    operationId: 'listSpacePageBacklinks',
    fill: async (_h, admin, n) => {
      const space = await newSpace(admin);
      const made = await mergedInto(admin, space, targetAndLinkers(n));
      return `/spaces/${space}/content/page/${made.changes[0].page.id}/backlinks`;
    },
  },
  {
    operationId: 'listSpacePageLinks',
    fill: async (_h, admin, n) => {
      const space = await newSpace(admin);
      const made = await mergedInto(admin, space, linksPage(n));
      return `/spaces/${space}/content/page/${made.changes[0].page.id}/links`;
    },
  },
  {
    operationId: 'listSpaceLinks',
    fill: async (_h, admin, n) => {
      const space = await newSpace(admin);
      await mergedInto(admin, space, linksPage(n));
      return `/spaces/${space}/links`;
    },
  },
  {
    operationId: 'listPagesInChangeRequest',
    fill: async (_h, admin, n) => {
      const space = await newSpace(admin);
      const cr = await changeRequestWith(admin, space, pages(n));
      return `/spaces/${space}/change-requests/${cr.id}/content/pages`;
    },
  },
  {
    operationId: 'listFilesInChangeRequestById',
    fill: async (_h, admin, n) => {
      const space = await newSpace(admin);
      const cr = await changeRequestWith(admin, space, files(n));
      return `/spaces/${space}/change-requests/${cr.id}/content/files`;
    },
  },
  {
    operationId: 'listChangeRequestFileBacklinks',
    fill: async (_h, admin, n) => {
      const space = await newSpace(admin);
      const cr = await changeRequestWith(admin, space, fileAndLinkers(n));
      return `/spaces/${space}/change-requests/${cr.id}/content/files/${cr.made.insertedFiles[0].id}/backlinks`;
    },
  },
  {
    operationId: 'listChangeRequestPageLinks',
    fill: async (_h, admin, n) => {
      const space = await newSpace(admin);
      const cr = await changeRequestWith(admin, space, linksPage(n));
      return `/spaces/${space}/change-requests/${cr.id}/content/page/${cr.made.changes[0].page.id}/links`;
    },
  },
  {
    operationId: 'listPagesInRevisionById',
    fill: async (_h, admin, n) => {
      const space = await newSpace(admin);
      await mergedInto(admin, space, pages(n));
      return `/spaces/${space}/revisions/${await currentRevision(admin, space)}/pages`;
    },
  },
  {
    operationId: 'listFilesInRevisionById',
    fill: async (_h, admin, n) => {
      const space = await newSpace(admin);
      await mergedInto(admin, space, files(n));
      return `/spaces/${space}/revisions/${await currentRevision(admin, space)}/files`;
    },
  },
];
