// Resources of space and change-request content: revisions, pages, files, reusable contents, links,
// backlinks and search results.
import { DateTime, listExample, listOf } from './common.js';
import { ContentRef, Document } from './document.js';
import { ex } from './examples.js';
import { z } from './zod.js';
import { conditional } from './conditional.js';
import { publishedPageLayout } from './page-layout.js';

export const fileId = 'fil_01JD3QC8M2ZR7TB';
export const pageId = 'pag_01JD3QD4T7WX9KM';
export const childPageId = 'pag_01JD3QD6R2NB5VH';
export const reusableContentId = 'rsc_01JD3QE2K8PA4ZG';
export const sectionId = 'installing-the-cli';

// ---------------------------------------------------------------------------------------------------
// Git metadata (mutable: `metadata=false` omits it)

export const GitSyncBlob = z
  .object({
    oid: z.string().openapi({ description: 'SHA of the blob.' }),
    path: z.string().openapi({ description: 'Path of the blob in the Git tree, from the repository root.' }),
  })
  .openapi('GitSyncBlob', { description: 'Where a page or file of a revision is in the Git repository it was synchronized with.' });

export const GitSyncCommit = z
  .object({
    oid: z.string().openapi({ description: 'SHA of the commit.' }),
    message: z.string().openapi({ description: 'Message of the commit.' }),
    createdByGitBook: z.boolean().openapi({ description: 'True when the commit was written by an export from this space; false for content imported from Git.' }),
    url: z.string().openapi({ description: 'URL of the commit (`repoCommitURL` + its SHA), when a `repoCommitURL` was given.' }).optional(),
    ref: z.string().openapi({ description: 'The ref the commit was imported from or pushed to.' }).optional(),
  })
  .openapi('GitSyncCommit', { description: 'The Git commit a revision was imported from or exported to.' });

const gitBlobField = GitSyncBlob.openapi(
  conditional('Its blob in the repository the revision was synchronized with; absent on revisions no import or export wrote, and with `metadata=false`.'),
).optional();

// ---------------------------------------------------------------------------------------------------
// File

export const revisionFileExample = {
  id: fileId,
  name: 'architecture-overview.png',
  contentType: 'image/png',
  downloadURL: `${ex.baseUrl}/v1/files/${ex.spaceId}/${fileId}/architecture-overview.png?expires=1732021200&signature=Jx0aQe4c2m1q6y8Vb3nR9tK5wL7pZs0dFh2gUiOoE1c`,
  size: 184_320,
  dimensions: { width: 1600, height: 900 },
};

export const RevisionFile = z
  .object({
    id: z.string(),
    name: z.string().openapi({ description: 'File name, with its extension.' }),
    contentType: z.string().openapi({ description: 'MIME type of the file.' }),
    downloadURL: z.url().openapi({
      description:
        'Where to download the file: a link served by this API, opened without a token (it is signed), valid for an hour; read the file again for a fresh one.',
    }),
    size: z.number().openapi({ description: 'Size in bytes.' }),
    dimensions: z
      .object({ width: z.number(), height: z.number() })
      .optional()
      .openapi(conditional('Width and height in pixels, read from the image when it was inserted; absent for a file that is not an image in a format whose size can be read (PNG, JPEG, GIF, WebP, SVG, …).')),
    git: gitBlobField,
  })
  .openapi('RevisionFile', { description: 'A file of a revision.', example: revisionFileExample });

export const RevisionFileList = listOf('RevisionFileList', RevisionFile);
export const revisionFileListExample = listExample([revisionFileExample]);

// ---------------------------------------------------------------------------------------------------
// Page

export const pageTypes = ['document', 'group', 'link', 'computed'] as const;

export const RevisionComputedSource = z
  .object({
    type: z
      .string()
      .regex(/^(builtin:openapi|builtin:translation|integration:[^:]+:[^:]+)$/)
      .openapi({ description: 'What computes the content: built in, or an integration\'s content source (`integration:<name>:<sourceId>`).' }),
    dependencies: z
      .record(z.string(), z.object({ ref: ContentRef }))
      .openapi({ description: 'Content the computation depends on, by name (e.g. `spec`: the OpenAPI specification).' }),
    props: z
      .record(z.string(), z.unknown())
      .openapi({ description: 'Free-form properties given to the computation (e.g. `doc`).' }),
  })
  .openapi('RevisionComputedSource', {
    description: 'How computed content is produced.',
    example: {
      type: 'builtin:openapi',
      dependencies: { spec: { ref: { kind: 'openapi', spec: 'petstore' } } },
      props: { doc: 'operations' },
    },
  });

/** How the published site lays out every document page (GitBook's `RevisionPageLayoutOptions`): this server has one layout. */
export const PageLayout = z
  .object({
    width: z.enum(['default', 'wide']),
    cover: z.boolean(),
    coverSize: z.enum(['hero', 'full', 'background']),
    coverMask: z.enum(['none', 'radial']),
    title: z.boolean(),
    description: z.boolean(),
    tableOfContents: z.boolean(),
    outline: z.boolean(),
    pagination: z.boolean(),
    metadata: z.boolean(),
    tags: z.boolean(),
    actions: z.boolean(),
    anchors: z.boolean(),
  })
  .openapi('RevisionPageLayout', {
    description:
      'How the published site shows the page: every document page the same way on this server (default width, no cover, ' +
      'title, description, table of contents, outline, pagination, page actions and heading anchors; no metadata or tags).',
    example: publishedPageLayout,
  });

const revisionPageFields = {
  id: z.string(),
  title: z.string(),
  linkTitle: z
    .string()
    .min(1)
    .max(100)
    .openapi(conditional("Title of the page's entry in the table of contents (and in mentions) when it is not the page title, as GitBook's `linkTitle`; Git Sync reads and writes it as SUMMARY.md's quoted link title (`[Title](page.md \"Link title\")`)."))
    .optional(),
  kind: z
    .enum(['sheet', 'group', 'link'])
    .openapi(conditional("GitBook's deprecated name of the page's type: `sheet` for a document, `group`, `link`; absent for a computed page."))
    .optional(),
  emoji: z.string().openapi(conditional('Emoji shown with the title; absent until a change sets one.')).optional(),
  icon: z.string().optional(),
  type: z.enum(pageTypes).openapi({
    description:
      'document: a page with content; group: a heading grouping child pages; link: an entry pointing elsewhere; computed: content produced by a computation.',
  }),
  createdAt: DateTime.optional(),
  updatedAt: DateTime.optional(),
  markdown: z.string().openapi({ description: 'The content as Markdown, when requested with `format=markdown`.' }).optional(),
  document: Document.openapi({ description: 'The content as a rich-text document, when requested with `format=document`.' }).optional(),
  documentId: z
    .string()
    .openapi(
      conditional('Id of the document holding the page content in this revision (getDocumentById); absent for a group. It names ' +
        'the content of this page in this revision, so it always answers the same document.'),
    )
    .optional(),
  urls: z.object({ app: z.url() }).optional(),
  slug: z.string().openapi({ description: 'Last segment of the page path.' }).optional(),
  path: z.string().openapi({ description: 'Path of the page in the space, from the root.' }).optional(),
  description: z.string().openapi(conditional('Short summary of the page; absent until a change sets one.')).optional(),
  hidden: z.boolean().openapi({ description: 'Whether the page is hidden from the table of contents.' }).optional(),
  noIndex: z.boolean().openapi({ description: 'Whether the page is excluded from search in the published site (its own search, its sitemap, its llms.txt and search engines); it stays readable at its URL.' }).optional(),
  noRobotsIndex: z.boolean().openapi({ description: 'Whether search engines are asked not to index the page.' }).optional(),
  condition: z
    .string()
    .min(1)
    .openapi({
      description:
        'Adaptive-content condition: readers of a published site see the page (and the pages under it) only when it ' +
        'holds for their claims (`visitor.claims.isBetaUser && !visitor.claims.unsigned.prefersDark`). Present only ' +
        'when the page has one; set with `condition` in updateChangeRequestContent (`""` removes it).',
    })
    .optional(),
  target: ContentRef.openapi(
    conditional("For link pages: where the entry points (a `url`, a `page` of the space, or an `anchor` of one), as GitBook's `RevisionPageLink.target`."),
  ).optional(),
  computed: RevisionComputedSource.openapi({ description: 'For computed pages: how the content is produced.' }).optional(),
  computedSeed: z.string().openapi({ description: 'Seed making the computed content stable across computations.' }).optional(),
  layout: PageLayout.openapi(conditional('How the published site shows the page; present on document pages.')).optional(),
  tags: z
    .array(z.object({ tag: z.object({ kind: z.literal('tag'), tag: z.string() }), primary: z.boolean().optional() }))
    .openapi(conditional('The tags of the page: none on this server, which has no tags; present on document pages.'))
    .optional(),
  git: gitBlobField,
};

const RevisionPageFields = z.object(revisionPageFields);
export type RevisionPageShape = z.infer<typeof RevisionPageFields> & { pages?: RevisionPageShape[] };


export const revisionPageExample = {
  id: pageId,
  title: 'Quickstart',
  kind: 'sheet' as const,
  emoji: '⚡',
  type: 'document' as const,
  layout: publishedPageLayout,
  tags: [],
  createdAt: ex.createdAt,
  updatedAt: ex.updatedAt,
  urls: { app: `${ex.appUrl}/s/${ex.spaceId}/getting-started/quickstart` },
  slug: 'quickstart',
  path: 'getting-started/quickstart',
  description: 'Install the CLI and publish your first page in five minutes.',
  documentId: 'doc_cmV2XzAxSkQzUTdGMlY2Uk0wQjpwYWdfMDFKRDNRRDRUN1dYOUtN',
  pages: [],
  hidden: false,
  noIndex: false,
  noRobotsIndex: false,
};

export const RevisionPage: z.ZodType<RevisionPageShape> = RevisionPageFields.extend({
  pages: z
    .array(z.lazy(() => RevisionPage))
    .optional()
    .openapi({ description: 'Child pages, in order (documents and groups).' }),
}).openapi('RevisionPage', {
  description: 'A page of a revision, with its child pages.',
  example: revisionPageExample,
});

export const RevisionPages = z
  .object({ pages: z.array(RevisionPage).openapi({ description: 'Top-level pages, in order, each with its child pages.' }) })
  .openapi('RevisionPages', { description: 'The page tree of a revision.', example: { pages: [revisionPageExample] } });
export const revisionPagesExample = { pages: [revisionPageExample] };

// ---------------------------------------------------------------------------------------------------
// Reusable content and revision

export const revisionReusableContentExample = {
  id: reusableContentId,
  title: 'Support contact',
  document: 'doc_cmV2XzAxSkQzUTdGMlY2Uk0wQjpyc2NfMDFKRDNRRTJLOFBBNFpH',
};

export const RevisionReusableContent = z
  .object({
    id: z.string(),
    title: z.string(),
    document: z.string().openapi({ description: 'Id of the document holding the content in this revision (getDocumentById).' }).optional(),
    computed: RevisionComputedSource.openapi({ description: 'For computed reusable content: how it is produced.' }).optional(),
    computedSeed: z.string().optional(),
  })
  .openapi('RevisionReusableContent', {
    description: 'A block of content that pages of the space can include.',
    example: revisionReusableContentExample,
  });

export const revisionTypes = ['edits', 'merge', 'rollback', 'update', 'computed'] as const;

export const revisionExample = {
  object: 'revision' as const,
  id: ex.revisionId,
  parents: ['rev_01JD3Q7E8T1GH5C'],
  pages: [revisionPageExample],
  files: [revisionFileExample],
  reusableContents: [revisionReusableContentExample],
  tags: [],
  variables: { productName: 'Acme CLI' },
  createdAt: ex.updatedAt,
  urls: { app: `${ex.appUrl}/s/${ex.spaceId}` },
  type: 'edits' as const,
};

export const Revision = z
  .object({
    object: z.literal('revision'),
    id: z.string(),
    parents: z.array(z.string()).openapi({ description: 'Ids of the parent revisions.' }),
    pages: z.array(RevisionPage).openapi({ description: 'Top-level pages, in order, each with its child pages.' }),
    files: z.array(RevisionFile),
    reusableContents: z.array(RevisionReusableContent),
    tags: z
      .array(z.object({ slug: z.string(), label: z.string() }))
      .openapi({ description: 'The tags available in the revision: none on this server, which has no tags.' }),
    variables: z.record(z.string(), z.string()).openapi({ description: 'Variables of the space, by name.' }),
    createdAt: DateTime,
    urls: z.object({ app: z.url() }),
    type: z.enum(revisionTypes).openapi({
      description:
        'How the revision was made: edits (direct edits), merge (a merged change request), rollback, update (a change request brought up to date, or content imported from Git), computed.',
    }),
    git: GitSyncCommit.openapi(
      conditional('The Git commit the revision was imported from or exported to; absent when no Git Sync wrote it, and with `metadata=false`.'),
    ).optional(),
  })
  .openapi('Revision', { description: 'A version of the content of a space: its pages, files and reusable contents.', example: revisionExample });

// ---------------------------------------------------------------------------------------------------
// Links and backlinks

export const linkStatuses = ['ok', 'broken', 'in-app'] as const;

export const LinkStatus = z.enum(linkStatuses).openapi('LinkStatus', {
  description: 'ok: no problem found; broken: the target does not exist in the revision; in-app: the target is an internal URL in the app.',
  example: 'broken',
});

export const linkItemExample = {
  status: 'broken' as const,
  relation: 'link',
  targetReference: { kind: 'page' as const, page: 'pag_01JD3QF0Z3VC7MR' },
  locationReferences: [{ kind: 'page' as const, page: pageId }],
};

export const LinkItem = z
  .object({
    status: LinkStatus,
    relation: z.string().openapi({ description: 'How the location refers to the target, e.g. `link`.' }),
    targetReference: ContentRef.openapi({ description: 'What the link points to.' }),
    locationReferences: z.array(ContentRef).openapi({ description: 'Where the link appears.' }),
  })
  .openapi('LinkItem', { description: 'A link found in content, with its status.', example: linkItemExample });

export const LinkItemList = z
  .object({
    next: z
      .object({ page: z.string().openapi({ description: 'Pass as `page` to fetch the next page.' }) })
      .optional()
      .openapi({ description: 'Absent on the last page.' }),
    count: z.number().int().openapi({ description: 'Total number of items across all pages.' }),
    items: z.array(LinkItem),
    stats: z
      .object({
        total: z.number().int().openapi({ description: 'Number of links.' }),
        broken: z.object({
          total: z.number().int().openapi({ description: 'Number of broken links.' }),
          changeRequest: z.number().int().openapi({ description: 'Number of broken links in open change requests.' }),
        }),
      })
      .openapi({ description: 'Counts of all links, regardless of the `status` filter and pagination.' }),
  })
  .openapi('LinkItemList', { description: 'A page of links, with statistics.' });

export const linkItemListExample = {
  ...listExample([linkItemExample]),
  stats: { total: 148, broken: { total: 3, changeRequest: 1 } },
};

export const backlinkItemExample = {
  kind: 'page' as const,
  organization: ex.orgId,
  space: ex.spaceId2,
  versionContext: { type: 'revision' as const, revision: 'rev_01JD3Q7J6MB2W8D' },
  page: 'pag_01JD3QF2H9KD4SY',
};

export const BacklinkItem = z
  .object({
    kind: z.enum(['page', 'file']).openapi({ description: 'What kind of content holds the reference.' }),
    organization: z.string().openapi({ description: 'Id of the organization holding the reference.' }),
    space: z.string().openapi({ description: 'Id of the space holding the reference.' }),
    versionContext: z
      .object({ type: z.literal('revision'), revision: z.string() })
      .openapi({ description: 'Revision in which the reference was found.' }),
    file: z.string().openapi({ description: 'Id of the file holding the reference, when `kind` is `file`.' }).optional(),
    page: z.string().openapi({ description: 'Id of the page holding the reference, when `kind` is `page`.' }).optional(),
  })
  .openapi('BacklinkItem', { description: 'A place in content that refers to the page or file.', example: backlinkItemExample });

export const BacklinkItemList = listOf('BacklinkItemList', BacklinkItem);
export const backlinkItemListExample = listExample([backlinkItemExample]);

// ---------------------------------------------------------------------------------------------------
// Search results

export const searchSpaceResultExample = {
  id: pageId,
  title: 'Quickstart',
  description: 'Install the CLI and publish your first page.',
  path: 'getting-started/quickstart',
  sections: [
    {
      id: sectionId,
      title: 'Installing the CLI',
      path: `getting-started/quickstart#${sectionId}`,
      body: 'Install the CLI with npm, then sign in with your access token.',
      score: 1,
      urls: { app: `${ex.appUrl}/s/${ex.spaceId}/getting-started/quickstart#${sectionId}` },
    },
  ],
  ancestors: [{ title: 'Getting started' }],
  score: 1,
  rank: 1,
  urls: { app: `${ex.appUrl}/s/${ex.spaceId}/getting-started/quickstart` },
};

export const SearchSpaceResult = z
  .object({
    id: z.string().openapi({ description: 'Id of the page.' }),
    title: z.string(),
    description: z.string().openapi({ description: "The page's description; `\"\"` when it has none." }),
    path: z.string(),
    sections: z
      .array(
        z.object({
          id: z.string().openapi({ description: 'Anchor of the section in the page.' }),
          title: z.string(),
          path: z.string(),
          body: z.string().openapi({ description: 'Text of the section matching the query: up to 30 words around its matching words, which the space and organization searches mark `<b>…</b>`; plain text in a site\'s search (searchSiteContent), as GitBook\'s, whose renderer highlights the query itself.' }),
          score: z.number().min(0).openapi({ description: 'Relevance in this search, higher is better: the inverse of the rank (`1 / rank`) of its page in PostgreSQL\'s full-text ranking.' }),
          urls: z.object({ app: z.url() }),
        }),
      )
      .openapi({ description: 'Sections of the page matching the query.' }),
    ancestors: z.array(z.object({ title: z.string() })).openapi({ description: 'Parent pages, from the root.' }),
    score: z.number().min(0).openapi({ description: 'Relevance in this search, higher is better: the inverse of the rank (`1 / rank`) of the page in PostgreSQL\'s full-text ranking.' }),
    rank: z.number().int().min(1).openapi({ description: 'One-based position of the page in the whole ranked result set, kept across pages of results and spaces.' }),
    urls: z.object({ app: z.url() }),
  })
  .openapi('SearchSpaceResult', { description: 'A page of a space matching a search.', example: searchSpaceResultExample });

export const SearchSpaceResultList = listOf('SearchSpaceResultList', SearchSpaceResult);
export const searchSpaceResultListExample = listExample([searchSpaceResultExample]);

export const searchOrganizationResultExample = {
  type: 'space' as const,
  id: ex.spaceId,
  score: 1,
  title: 'Getting started',
  pages: [searchSpaceResultExample],
};

export const SearchOrganizationResult = z
  .object({
    type: z.literal('space'),
    id: z.string().openapi({ description: 'Id of the space.' }),
    title: z.string().openapi({ description: 'Title of the space.' }),
    score: z.number().min(0).openapi({ description: 'The score of its best page.' }),
    pages: z.array(SearchSpaceResult).openapi({ description: 'Pages of the space matching the query.' }),
  })
  .openapi('SearchOrganizationResult', {
    description: 'A space of an organization with its pages matching a search.',
    example: searchOrganizationResultExample,
  });

export const SearchOrganizationResultList = listOf('SearchOrganizationResultList', SearchOrganizationResult);
export const searchOrganizationResultListExample = listExample([searchOrganizationResultExample]);
