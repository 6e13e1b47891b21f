// Git Sync of a space: import from and export to a Git repository (background operations), and the
// state of the sync (GET /spaces/{spaceId}/git/info, and `gitSync` on a Space).
import { DateTime } from './common.js';
import { ex } from './examples.js';
import { GitSyncState, gitSyncStateExample } from './git-sync-schemas.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { SpaceIdParams } from './spaces.js';
import { z } from './zod.js';

const repoUrl = 'https://github.com/acme/docs.git';
const refPattern = /^refs\/(heads|tags)\/[^\s~^:?*[\\]+$/;

const gitOperationFields = {
  url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .openapi({ description: 'URL of the Git repository (smart HTTP). It may carry basic-auth credentials (`https://user:token@host/repo.git`): they are used for this operation only, encrypted while it waits, and never stored with the sync or logged.' }),
  ref: z.string().max(256).regex(refPattern, 'must be a full ref such as refs/heads/main').openapi({ description: 'The Git ref, e.g. `refs/heads/main`.' }),
  repoTreeURL: z.url({ protocol: /^https?$/ }).max(2048).optional().openapi({ description: 'URL to use as a prefix for external file references, and for the "edit on" links of published pages.' }),
  repoCommitURL: z.url({ protocol: /^https?$/ }).max(2048).optional().openapi({ description: 'URL to use as a prefix for the commit URL (a revision\'s `git.url`).' }),
  repoProjectDirectory: z
    .string()
    .max(512)
    .refine((path) => !path.startsWith('/') && !path.includes('\\') && !path.split('/').some((part) => part === '..' || part === '.'), 'must be a relative path inside the repository')
    .optional()
    .openapi({ description: 'Path to the root directory of the docs in the repository.' }),
  timestamp: DateTime.optional().openapi({
    description: 'The time of the event that triggered the operation: operations run in this order, and one older than the last one applied is skipped. Default: when the request is received.',
  }),
  force: z.boolean().optional().openapi({ description: 'Overwrite the other side even when both changed since the last sync.' }),
  gitInfo: z
    .strictObject({
      provider: z.enum(['github', 'gitlab']).optional(),
      url: z.url({ protocol: /^https?$/ }).max(2048).optional().openapi({ description: 'The repository tree URL.' }),
    })
    .optional()
    .openapi({ description: 'Deprecated: the provider and tree URL to show on the space (`repoTreeURL` is preferred).', deprecated: true }),
};

export const ImportGitRepository = z
  .strictObject({
    ...gitOperationFields,
    standalone: z.boolean().optional().openapi({ description: 'Write the imported content as a revision without making it the space\'s content (its id is the operation\'s `revision`).' }),
  })
  .openapi('ImportGitRepository');

export const ExportToGitRepository = z
  .strictObject({
    ...gitOperationFields,
    ref: z.string().max(256).regex(/^refs\/heads\/[^\s~^:?*[\\]+$/, 'must be a branch ref such as refs/heads/main').openapi({ description: 'The branch to push the commit to, e.g. `refs/heads/main`.' }),
    commitMessage: z.string().min(1).max(10_000).openapi({ description: 'Message of the commit the export writes.' }),
    standalone: z.boolean().optional().openapi({ description: 'Push a snapshot of the content without linking it to the sync: the space\'s sync state (its commit and revision) is left as it was.' }),
  })
  .openapi('ExportToGitRepository');

export const gitSyncOperations = operations({
  importGitRepository: {
    method: 'post',
    path: '/spaces/{spaceId}/git/import',
    tag: 'space-git',
    summary: 'Pull content into a space from a Git repository',
    description:
      'Queues an import of the ref of the repository into the space, in GitBook\'s repository format (`.gitbook.yaml`, `SUMMARY.md`, ' +
      'Markdown pages, `.gitbook/assets/`), and configures the space\'s Git Sync with this repository. It runs in the background ' +
      'after the request returns 204; its outcome is the `operation` of getSpaceGitInfo (and of the space\'s `gitSync`). The import ' +
      'writes one new revision (type `update`) recording the commit in its `git`. When both the space and the repository changed since ' +
      'the last sync, pages changed on one side only are merged, and pages changed on both make the import fail naming them, unless ' +
      '`force` (the repository wins). A repository over the limits (files, bytes) or that cannot be fetched fails the operation with the ' +
      'reason; the space is then left as it was.',
    params: SpaceIdParams,
    body: ImportGitRepository,
    bodyExample: { url: repoUrl, ref: 'refs/heads/main', repoProjectDirectory: 'docs', repoTreeURL: 'https://github.com/acme/docs/blob/main/', repoCommitURL: 'https://github.com/acme/docs/commit/', timestamp: ex.updatedAt },
    responses: { 204: { description: 'The import is queued.' } },
    errors: [403, 404, 409],
    access: access.space('edit'),
    statements: 4,
  },
  exportToGitRepository: {
    method: 'post',
    path: '/spaces/{spaceId}/git/export',
    tag: 'space-git',
    summary: 'Push space content to a Git repository',
    description:
      'Queues an export of the space\'s current content to the branch `ref` of the repository: the pages, `SUMMARY.md`, `.gitbook.yaml` and ' +
      'the files under `.gitbook/assets/`, written as one commit on top of the branch (files of the repository outside the docs are kept) ' +
      'and pushed. The commit\'s author is the creator of the change request whose merge made the current revision, or else the caller. ' +
      'It runs in the background after the request returns 204; its outcome is the `operation` of getSpaceGitInfo. When the branch ' +
      'moved since the last sync, the export fails (naming the pages changed on both sides) unless `force`; a failed push leaves the ' +
      'space and the branch as they were.',
    params: SpaceIdParams,
    body: ExportToGitRepository,
    bodyExample: { url: repoUrl, ref: 'refs/heads/main', commitMessage: 'Update the quickstart', repoProjectDirectory: 'docs', timestamp: ex.updatedAt },
    responses: { 204: { description: 'The export is queued.' } },
    errors: [403, 404, 409],
    access: access.space('edit'),
    statements: 4,
  },
  getSpaceGitInfo: {
    method: 'get',
    path: '/spaces/{spaceId}/git/info',
    tag: 'space-git',
    summary: 'Get the Git Sync state of a space',
    description:
      'Returns the space\'s Git Sync: its repository (without credentials), the commit and revision of the last sync, and the latest ' +
      'operation with its state and outcome. 404 when no import or export was ever requested on the space.',
    params: SpaceIdParams,
    responses: { 200: { description: 'The Git Sync of the space.', schema: GitSyncState, example: gitSyncStateExample } },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
});
