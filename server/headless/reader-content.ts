// What a site token's reader may see of a revision: the pages URL resolution would show them. A page whose
// `condition` the visitor's claims (carried by the token, taken by the site at resolution) do not meet is
// left out with its subpages, as the published site leaves it out (navigation.ts readablePages); every read
// through the token then answers 404 for it, as for a page that is not there. Other callers read the whole
// revision.
import type { Visitor } from '../conditions/evaluate.js';
import { conditionHolds } from '../conditions/evaluate.js';
import type { Ctx } from '../context.js';
import { markReaderView } from '../content/reader-views.js';
import type { RevisionContent, StoredPage } from '../content/revision-content.js';
import type { StoredRevision } from '../content/revisions.store.js';

/** The visitor a site token reads for; undefined for any other caller. */
export function tokenVisitor(ctx: Ctx): Visitor | undefined {
  const site = ctx.caller.site;
  return site ? { claims: (site.claims ?? {}) as Visitor['claims'] } : undefined;
}

/** The pages of `content` the visitor may read: a page whose condition fails takes its subpages with it. */
export function readablePagesOf(content: RevisionContent, visitor: Visitor): StoredPage[] {
  const byId = new Map(content.pages.map((p) => [p.id, p]));
  const known = new Map<string, boolean>();
  const readable = (page: StoredPage, depth = 0): boolean => {
    let ok = known.get(page.id);
    if (ok !== undefined) return ok;
    const parent = page.parent === null ? undefined : byId.get(page.parent);
    // A parent chain longer than the pages is a cycle: nothing in it is shown.
    ok = depth <= content.pages.length && conditionHolds(page.condition, visitor) && (parent === undefined || readable(parent, depth + 1));
    known.set(page.id, ok);
    return ok;
  };
  return content.pages.filter((p) => readable(p));
}

/** The revision as the caller may read it: for a site token, without the pages its visitor may not see. */
export function forReader(ctx: Ctx, revision: StoredRevision): StoredRevision {
  const visitor = tokenVisitor(ctx);
  if (!visitor) return revision;
  const pages = readablePagesOf(revision.content, visitor);
  if (pages.length === revision.content.pages.length) return revision;
  return { ...revision, content: markReaderView({ ...revision.content, pages }) };
}
