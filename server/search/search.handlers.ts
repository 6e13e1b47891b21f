import type { searchOperations } from '../../contract/search.js';
import type { AppHandlers } from '../handler-types.js';
import { searchOrganization, searchSpace } from './search.js';

export const searchHandlers = {
  async searchSpaceContent({ grant, query }, ctx) {
    return { status: 200, body: await searchSpace(ctx, grant.row, query.query, query, {}, grant.attached) };
  },
  async searchOrganizationContent({ grant, query }, ctx) {
    // Only the spaces the caller can see (docs/permissions.md): an admin sees them all.
    const userId = grant.role === 'admin' ? null : ctx.caller.userId;
    return { status: 200, body: await searchOrganization(ctx, grant.organization.id, userId, query.query, query, grant.attached) };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof searchOperations>>;
