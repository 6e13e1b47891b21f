// What a site token's reader may see of a revision: the pages URL resolution would show them. A page whose
// `condition` the visitor's claims (carried by the token, taken by the site at resolution) do not meet is
// left out with its subpages, as the published site leaves it out (navigation.ts readablePages); every read
// through the token then answers 404 for it, as for a page that is not there. The files only such pages
// refer to go with them, as the site serves a file only to a reader of a page referring to it
// (published/site-files.ts); a file nothing refers to stays. Other callers read the whole revision.
import { childrenOf } from './document-walk.js';
import { LRUCache } from 'lru-cache';
import type { Visitor } from '../conditions/evaluate.js';
import { conditionHolds } from '../conditions/evaluate.js';
import type { Ctx } from '../context.js';
import { markReaderView } from './reader-views.js';
import type { RevisionContent, StoredPage } from './revision-content.js';
import type { StoredRevision } from './revisions.store.js';
import { pageDocument } from './page-content.js';
import { RefResolver } from './ref-resolver.js';

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

type Node = { data?: { ref?: unknown }; nodes?: unknown[]; fragments?: { nodes?: unknown[] }[] };

/** The ids of the files `nodes` refer to (resolved as the site resolves them, from `page`). */
function filesReferred(resolver: RefResolver, nodes: unknown[] | undefined, page: StoredPage | undefined, into: Set<string>): void {
  for (const node of (nodes ?? []) as Node[]) {
    const resolved = node?.data?.ref ? resolver.resolve(node.data.ref as never, page) : undefined;
    if (resolved?.kind === 'file') into.add(resolved.file.id);
    if (node) filesReferred(resolver, childrenOf(node), page, into);
  }
}

// The files only hidden pages refer to, by revision and hidden pages (a revision never changes).
const hiddenFiles = new LRUCache<string, Set<string>>({ max: 500 });

function filesOnlyOf(content: RevisionContent, hidden: StoredPage[], key: string): Set<string> {
  let only = hiddenFiles.get(key);
  if (!only) {
    const resolver = new RefResolver(content);
    const hiddenIds = new Set(hidden.map((p) => p.id));
    const ofHidden = new Set<string>();
    const ofOthers = new Set<string>();
    for (const page of content.pages) filesReferred(resolver, pageDocument(page).nodes, page, hiddenIds.has(page.id) ? ofHidden : ofOthers);
    for (const reusable of content.reusableContents) filesReferred(resolver, reusable.document?.nodes, undefined, ofOthers);
    only = new Set([...ofHidden].filter((id) => !ofOthers.has(id)));
    hiddenFiles.set(key, only);
  }
  return only;
}

/** The revision as the caller may read it: for a site token, without the pages its visitor may not see (and their own files). */
export function forReader(ctx: Ctx, revision: StoredRevision): StoredRevision {
  const visitor = tokenVisitor(ctx);
  if (!visitor) return revision;
  const pages = readablePagesOf(revision.content, visitor);
  if (pages.length === revision.content.pages.length) return revision;
  const kept = new Set(pages);
  const hidden = revision.content.pages.filter((p) => !kept.has(p));
  const gone = filesOnlyOf(revision.content, hidden, `${revision.id}\u0000${hidden.map((p) => p.id).sort().join(',')}`);
  const files = gone.size === 0 ? revision.content.files : revision.content.files.filter((f) => !gone.has(f.id));
  return { ...revision, content: markReaderView({ ...revision.content, pages, files }) };
}
