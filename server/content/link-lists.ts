// The link and backlink lists: links grouped by target (one item per target and relation, with every
// page holding it), counted, filtered by status and paginated in a stable order.
import type { components } from '../../generated/types.js';
import type { Ctx } from '../context.js';
import { LinkResolver, type FoundLink, type LinkStatus } from './links.js';
import type { RevisionContent } from './revision-content.js';
import { pageOfItems } from './revision-view.js';

type LinkItem = components['schemas']['LinkItem'];
type BacklinkItem = components['schemas']['BacklinkItem'];

/** The resolver of a revision's links; internal app URLs are those under the app's base URL. */
export function resolverFor(ctx: Ctx, content: RevisionContent): LinkResolver {
  return new LinkResolver(content, ctx.urls.app('/'));
}

function groupLinks(links: FoundLink[]): (LinkItem & { key: string })[] {
  const items = new Map<string, LinkItem & { key: string }>();
  for (const link of links) {
    const key = `${link.status}\u0001${link.relation}\u0001${JSON.stringify(link.target)}`;
    const item = items.get(key) ?? { key, status: link.status, relation: link.relation, targetReference: link.target, locationReferences: [] };
    if (!item.locationReferences.some((r) => r.kind === 'page' && r.page === link.from)) item.locationReferences.push({ kind: 'page', page: link.from });
    items.set(key, item);
  }
  return [...items.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** A page of grouped links with `status`, and the stats of all of them (`changeRequestBroken`: see callers). */
export function linkList(links: FoundLink[], query: { page?: string; limit?: number; status?: LinkStatus }, changeRequestBroken: number) {
  const grouped = groupLinks(links);
  const shown = query.status === undefined ? grouped : grouped.filter((i) => i.status === query.status);
  const page = pageOfItems(shown, (i) => i.key, query, ({ key: _key, ...item }) => item);
  return {
    ...page,
    stats: { total: links.length, broken: { total: links.filter((l) => l.status === 'broken').length, changeRequest: changeRequestBroken } },
  };
}

/** The pages of the revision that link to the page or file `target`, as backlink items. */
export function backlinkList(
  ctx: Ctx,
  content: RevisionContent,
  where: { organizationId: string; spaceId: string; revisionId: string },
  target: { kind: 'page' | 'file'; id: string },
  query: { page?: string; limit?: number },
) {
  const pages = new Set(
    resolverFor(ctx, content)
      .allLinks()
      .filter((l) => (target.kind === 'page' ? l.target.kind === 'page' && l.target.page === target.id : l.target.kind === 'file' && l.target.file === target.id))
      .map((l) => l.from),
  );
  const items: BacklinkItem[] = [...pages].sort().map((page) => ({
    kind: 'page',
    organization: where.organizationId,
    space: where.spaceId,
    versionContext: { type: 'revision', revision: where.revisionId },
    page,
  }));
  return pageOfItems(items, (i) => i.page!, query, (i) => i);
}
