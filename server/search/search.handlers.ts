import { and, eq, isNull } from 'drizzle-orm';
import type { searchOperations } from '../../contract/search.js';
import { spaces } from '../db/schema/index.js';
import type { AppHandlers } from '../handlers.js';
import { searchSpace, searchSpaces } from './search.js';

export const searchHandlers = {
  async searchSpaceContent({ grant, query }, ctx) {
    return { status: 200, body: await searchSpace(ctx, grant.row, query.query, query) };
  },
  async searchOrganizationContent({ grant, query }, ctx) {
    // Guests read no content unless granted it, and content grants are not stored (as for the space list);
    // members read every space of the organization.
    if (grant.role === null) return { status: 200, body: { items: [], count: 0 } };
    const readable = await ctx.db
      .select({ id: spaces.id, title: spaces.title })
      .from(spaces)
      .where(and(eq(spaces.organizationId, grant.organization.id), isNull(spaces.deletedAt)));
    return { status: 200, body: await searchSpaces(ctx, readable, query.query, query) };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof searchOperations>>;
