import type { searchOperations } from '../../contract/search.js';
import type { AppHandlers } from '../handler-types.js';
import { searchOrganization, searchSpace } from './search.js';

export const searchHandlers = {
  async searchSpaceContent({ grant, query }, ctx) {
    return { status: 200, body: await searchSpace(ctx, grant.row, query.query, query) };
  },
  async searchOrganizationContent({ grant, query }, ctx) {
    // Guests read no content: the description has no per-user grants on content (as for the space list);
    // members read every space of the organization.
    if (grant.role === null) return { status: 200, body: { items: [], count: 0 } };
    return { status: 200, body: await searchOrganization(ctx, grant.organization.id, query.query, query) };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof searchOperations>>;
