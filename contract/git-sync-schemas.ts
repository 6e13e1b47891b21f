// The state of a space's Git Sync (`gitSync` on a Space, getSpaceGitInfo). Apart from contract/git-sync.ts
// so that contract/spaces.ts can show it without an import cycle.
import { DateTime } from './common.js';
import { ex } from './examples.js';
import { z } from './zod.js';
import { conditional } from './conditional.js';

export const gitSyncProviders = ['github', 'gitlab', 'git'] as const;
export const gitSyncOperationStates = ['running', 'failure', 'success', 'timeout'] as const;
export const gitSyncOperationResults = ['applied', 'unchanged', 'skipped'] as const;

const repoUrl = 'https://github.com/acme/docs.git';

const exampleOperation = {
  id: 'job_01JD3QN4H8ZP2RC',
  state: 'success' as const,
  direction: 'import' as const,
  startedAt: ex.updatedAt,
  endedAt: ex.updatedAt,
  result: 'applied' as const,
  commit: '5b2c0f3a9e1d4c7b8a6f0e2d1c3b4a5968776655',
  revision: ex.revisionId,
};

export const gitSyncStateExample = {
  installationId: 'gsy_01JD3QN2B7WX4TQ',
  installationProvider: 'github' as const,
  provider: 'github' as const,
  installationStatus: 'active' as const,
  integration: 'github',
  repoName: 'acme/docs',
  url: 'https://github.com/acme/docs/blob/main/',
  repository: { url: repoUrl, ref: 'refs/heads/main', projectDirectory: 'docs' },
  commit: '5b2c0f3a9e1d4c7b8a6f0e2d1c3b4a5968776655',
  revision: ex.revisionId,
  timestamp: ex.updatedAt,
  operation: exampleOperation,
  operations: [exampleOperation],
  updatedAt: ex.updatedAt,
};

const GitSyncConflict = z
  .object({
    page: z.string().openapi({ description: 'Id of the page.' }),
    title: z.string(),
    path: z.string().openapi({ description: 'Path of the page in the space.' }),
    gitPath: z.string().openapi({ description: 'Path of its file in the repository, when it has one.' }).optional(),
  })
  .openapi('GitSyncConflict', { description: 'A page changed both in the space and in the repository since the last sync.' });

/** How many warnings an operation's outcome keeps (`warnings`). */
export const GIT_SYNC_WARNINGS = 50;

/** How many operations a sync keeps in its history (`operations`). */
export const GIT_SYNC_HISTORY = 20;

const GitSyncOperation = z
  .object({
    id: z.string().openapi({ description: 'Id of the operation.' }),
    state: z.enum(gitSyncOperationStates),
    direction: z.enum(['import', 'export']),
    startedAt: DateTime.openapi({ description: 'When the operation was requested.' }),
    endedAt: DateTime.optional(),
    error: z.string().openapi({ description: 'Why the operation failed, when it did.' }).optional(),
    result: z.enum(gitSyncOperationResults).openapi({
      description:
        'For a success: applied (content or a commit was written), unchanged (both sides already held the same content), ' +
        'skipped (its `timestamp` is older than the last operation applied).',
    }).optional(),
    warnings: z
      .array(z.string())
      .max(GIT_SYNC_WARNINGS)
      .openapi({
        description:
          `What the operation read or wrote that names nothing, each naming its file (an include of no reusable content of the space, a SUMMARY.md entry naming no file, …); at most ${GIT_SYNC_WARNINGS}, the last one saying how many more there were.`,
      })
      .optional(),
    conflicts: z.array(GitSyncConflict).openapi({ description: 'For a failure caused by changes on both sides: the pages changed on both.' }).optional(),
    commit: z.string().openapi({ description: 'The commit imported, or the one an export pushed.' }).optional(),
    revision: z.string().openapi({ description: 'The revision an import wrote (for a standalone import, a revision that is not the space\'s), or the revision an export that merged the repository\'s changes wrote.' }).optional(),
  })
  .openapi('GitSyncOperation', { description: 'An import or export of a space and its outcome.' });

export const GitSyncState = z
  .object({
    installationId: z.string().openapi({ description: 'Id of the sync of this space (one per space).' }),
    installationProvider: z.enum(['github', 'gitlab']).openapi({
      description:
        "GitBook's provider of the sync: `gitlab` for a GitLab host, `github` for GitHub and for any other smart-HTTP Git " +
        'server (GitBook has no value for those; `provider` says which it is).',
    }),
    provider: z.enum(gitSyncProviders).openapi({
      description: 'Where the repository is hosted: github (github.com), gitlab (gitlab.com or a host named gitlab…), git (any other smart-HTTP Git server).',
    }),
    installationStatus: z.enum(['active']).openapi({ description: 'Always `active`: a sync is configured by its first import or export.' }),
    integration: z.string().openapi({ description: 'Deprecated: the provider again, for clients of the older field.', deprecated: true }).optional(),
    repoName: z.string().openapi({ description: 'Repository name: the path of the repository URL without `.git` (`acme/docs`).' }),
    url: z.string().openapi(
      conditional('The repository tree URL (`repoTreeURL` or `gitInfo.url` of the last operation), used for the "edit on" links of published pages; absent when none was given.'),
    ).optional(),
    repository: z
      .object({
        url: z.string().openapi({ description: 'The repository URL, without any credentials it was given with.' }),
        ref: z.string(),
        projectDirectory: z.string().optional(),
        commitURL: z.string().openapi({ description: '`repoCommitURL`: prefix of the URL of a commit.' }).optional(),
      })
      .openapi({ description: 'The repository of the last operation.' }),
    commit: z.string().openapi(conditional('The commit the space was last synchronized with (absent before the first sync ends).')).optional(),
    revision: z.string().openapi(conditional('The revision of the space at that sync (absent before the first sync ends).')).optional(),
    timestamp: DateTime.openapi(conditional('The `timestamp` of the last operation applied: an operation with an older one is skipped (absent until one is applied).')).optional(),
    operation: GitSyncOperation.openapi({ description: 'The latest operation requested on the space.' }).optional(),
    operations: z
      .array(GitSyncOperation)
      .max(GIT_SYNC_HISTORY)
      .openapi({
        description: `The last ${GIT_SYNC_HISTORY} operations requested on the space, newest first, each with its own outcome (one superseded by a later request included); the first is \`operation\`.`,
      })
      .optional(),
    updatedAt: DateTime.openapi({ description: 'When the sync was last configured or ran.' }),
  })
  .openapi('GitSyncState', { description: 'The Git Sync of a space: its repository, the latest operation and the history of the last ones, each with its outcome.', example: gitSyncStateExample });
