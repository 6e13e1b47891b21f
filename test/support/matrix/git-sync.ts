// Matrix fixtures of Git Sync: an import or export of a repository URL (queued: the matrix runs no job, so
// nothing is fetched), and a space whose sync is configured for getSpaceGitInfo.
import type { MatrixFixtures } from './types.js';

const repository = { url: 'https://git.example.com/acme/docs.git', ref: 'refs/heads/main' };

export const gitSyncFixtures: MatrixFixtures = {
  bodies: {
    importGitRepository: () => repository,
    exportToGitRepository: () => ({ ...repository, commitMessage: 'Matrix export' }),
  },
  prepare: {
    getSpaceGitInfo: async ({ admin }, path) => {
      const res = await admin.api.post(`/spaces/${path.spaceId}/git/import`, repository);
      if (res.status !== 204) throw new Error(`importGitRepository for getSpaceGitInfo -> ${res.status} ${JSON.stringify(res.body)}`);
    },
  },
};
