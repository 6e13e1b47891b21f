import type { gitSyncOperations } from '../../contract/git-sync.js';
import type { AppHandlers } from '../handler-types.js';
import { gitSyncInfo, requestGitOperation } from './git-sync.store.js';

export const gitSyncHandlers = {
  async importGitRepository({ grant, body }, ctx) {
    await requestGitOperation(ctx, grant, 'import', body);
    return { status: 204 };
  },
  async exportToGitRepository({ grant, body }, ctx) {
    await requestGitOperation(ctx, grant, 'export', body);
    return { status: 204 };
  },
  async getSpaceGitInfo({ grant }) {
    return { status: 200, body: gitSyncInfo(grant) };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof gitSyncOperations>>;
