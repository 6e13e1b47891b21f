import { and, eq, isNull } from 'drizzle-orm';
import type { searchOperations } from '../../contract/search.js';
import { emptyContent, type RevisionContent } from '../content/revision-content.js';
import { pageOfItems } from '../content/revision-view.js';
import { spaceContent } from '../content/space-content.js';
import { contentRevisions, spaces } from '../db/schema/index.js';
import type { AppHandlers } from '../handlers.js';
import { searchPages } from './search.js';

/** Results are ranked, so the cursor is the position in the ranking (zero-padded to sort as text). */
const rankKey = (_: unknown, i: number) => String(i).padStart(10, '0');

function ranked<T>(items: T[]) {
  return items.map((item, i) => ({ item, key: rankKey(item, i) }));
}

export const searchHandlers = {
  async searchSpaceContent({ grant, query }, ctx) {
    const { revision } = await spaceContent(ctx, grant.row);
    const results = await searchPages(ctx, [{ spaceId: grant.row.id, content: revision.content }], query.query);
    return { status: 200, body: pageOfItems(ranked(results), (r) => r.key, query, (r) => r.item.result) };
  },
  async searchOrganizationContent({ grant, query }, ctx) {
    // Guests read no content unless granted it, and content grants are not stored (as for the space list);
    // members read every space of the organization.
    if (grant.role === null) return { status: 200, body: { items: [], count: 0 } };
    const rows = await ctx.db
      .select({ id: spaces.id, title: spaces.title, content: contentRevisions.content })
      .from(spaces)
      .leftJoin(contentRevisions, eq(contentRevisions.id, spaces.revisionId))
      .where(and(eq(spaces.organizationId, grant.organization.id), isNull(spaces.deletedAt)));
    const results = await searchPages(
      ctx,
      rows.map((r) => ({ spaceId: r.id, content: (r.content as RevisionContent | null) ?? emptyContent() })),
      query.query,
    );
    // Spaces in the order of their best page.
    const bySpace = new Map<string, { id: string; title: string; pages: (typeof results)[number]['result'][] }>();
    const titles = new Map(rows.map((r) => [r.id, r.title]));
    for (const { spaceId, result } of results) {
      const entry = bySpace.get(spaceId) ?? { id: spaceId, title: titles.get(spaceId) ?? '', pages: [] };
      entry.pages.push(result);
      bySpace.set(spaceId, entry);
    }
    return { status: 200, body: pageOfItems(ranked([...bySpace.values()]), (r) => r.key, query, (r) => r.item) };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof searchOperations>>;
