// The query of a document read (`evaluated`, `dereferenced`), and what it does to a document
// (docs/headless-reads.md):
// - `dereferenced=reusable-contents` replaces each `reusable-content` block with the blocks of that content
//   in the same revision; `dereferenced=true` expands every reference to content this server stores in
//   place: reusable contents of the revision and those of other spaces (a `ref.space`) the caller may read;
// - `evaluated=true` evaluates expressions and `if` blocks for the reader (evaluate-document.ts);
//   `deterministic-only` only what does not read the visitor.
import { childrenOf } from '../content/document-walk.js';
import type { Access } from '../../contract/access.js';
import { checkAccess, type SpaceGrant, type SpaceRow } from '../auth/access.js';
import { checkInstallationAccess } from '../auth/installation-caller.js';
import { checkSiteTokenAccess } from '../auth/site-token-caller.js';
import type { Ctx } from '../context.js';
import type { Block, Document } from '../content/markdown-document.js';
import type { RevisionContent } from '../content/revision-content.js';
import { attachedRevision, currentContentAttached } from '../content/revision-attached.js';
import { loadRevision } from '../content/revisions.store.js';
import { ApiError } from '../errors.js';
import { tokenVisitor } from '../content/reader-content.js';
import { evaluateDocument } from './evaluate-document.js';

export interface DocumentQuery {
  evaluated?: 'true' | 'false' | 'deterministic-only';
  dereferenced?: 'true' | 'false' | 'reusable-contents';
}

/** What a read does to a document before answering it: `ownerId` is the reusable content read, which does not include itself. */
export type DocumentShape = (document: Document, ownerId?: string) => Document;

/** How deep reusable contents including reusable contents are expanded (a cycle stops here too). */
const maxDepth = 8;
/** How many other spaces one read may take reusable contents from. */
const maxSpaces = 10;

type Node = NonNullable<Block['nodes']>[number];
type IncludeRef = { reusableContent: string; space?: string };

/** The reference a `reusable-content` block includes. */
function includedRef(block: Block): IncludeRef | undefined {
  const ref = (block.data as { ref?: { kind?: unknown; reusableContent?: unknown; space?: unknown } } | undefined)?.ref;
  if (ref?.kind !== 'reusable-content' || typeof ref.reusableContent !== 'string') return undefined;
  return { reusableContent: ref.reusableContent, ...(typeof ref.space === 'string' && { space: ref.space }) };
}

/** The contents an expansion reads from: the read's own space, and other spaces by id (when `true`). */
interface Sources {
  home: string;
  contents: Map<string, RevisionContent>;
}

function expand(nodes: Node[], sources: Sources, at: string, seen: string[]): Node[] {
  const out: Node[] = [];
  for (const node of nodes) {
    if (node.object !== 'block') {
      out.push(node);
      continue;
    }
    const ref = node.type === 'reusable-content' ? includedRef(node) : undefined;
    // A ref without a space is of the space the block is in (the read's, or the one it was included from).
    const space = ref?.space ?? at;
    const id = ref && `${space}/${ref.reusableContent}`;
    const included = ref && sources.contents.get(space)?.reusableContents.find((r) => r.id === ref.reusableContent);
    // The content's own blocks in its place; a block whose content cannot be read stays, as does a cycle or an
    // expansion past maxDepth.
    if (included && id && !seen.includes(id) && seen.length < maxDepth) out.push(...expand(included.document?.nodes ?? [], sources, space, [...seen, id]));
    else
      out.push({
        ...node,
        ...(node.nodes && { nodes: expand(node.nodes, sources, at, seen) }),
        ...(node.fragments && { fragments: node.fragments.map((f) => ({ ...f, nodes: expand(f.nodes, sources, at, seen) as Block[] })) }),
      });
  }
  return out;
}

/** The document with its `reusable-content` blocks expanded from `sources`. */
function dereference(document: Document, sources: Sources, ownerId?: string): Document {
  return { ...document, nodes: expand(document.nodes, sources, sources.home, ownerId ? [`${sources.home}/${ownerId}`] : []) as Block[] };
}

/** The spaces named by `reusable-content` blocks of the nodes (other than `home`). */
function spacesNamed(nodes: Node[], into: Set<string>): void {
  for (const node of nodes) {
    if (node.object !== 'block') continue;
    const ref = node.type === 'reusable-content' ? includedRef(node) : undefined;
    if (ref?.space) into.add(ref.space);
    spacesNamed(childrenOf<Node>(node), into);
  }
}

const readRule: Access = { to: 'space', role: 'read' };

/**
 * The current content of the space `spaceId` when the caller may read it, as the request's own access rules
 * say: its revision comes with its grant (revision-attached.ts), without the pages' Documents or `git`, which
 * dereferencing does not read (it takes the space's reusable contents, whose Documents are in the revision).
 */
async function readableContent(ctx: Ctx, spaceId: string): Promise<RevisionContent | undefined> {
  const { installation, site } = ctx.caller;
  const options = { spaceCounters: false, attach: currentContentAttached(spaceId) };
  try {
    const decision = installation
      ? await checkInstallationAccess(ctx, installation, 'getCurrentRevision', readRule, { spaceId }, options)
      : site
        ? await checkSiteTokenAccess(ctx, site, 'getCurrentRevision', readRule, { spaceId }, options)
        : await checkAccess(ctx, readRule, { spaceId }, options);
    const grant = 'grant' in decision ? (decision.grant as SpaceGrant | undefined) : undefined;
    if (!grant?.row) return undefined;
    return (await loadRevision(ctx.db, grant.row.revisionId, grant.row.createdAt, { documents: false, git: false }, attachedRevision(grant))).content;
  } catch (err) {
    if (err instanceof ApiError) return undefined; // not readable: its blocks stay as references
    throw err;
  }
}

/** The contents of the other spaces the document (and what it includes, transitively) takes reusable contents from. */
async function otherSpaces(ctx: Ctx, home: string, content: RevisionContent, document: Document): Promise<Map<string, RevisionContent>> {
  const contents = new Map<string, RevisionContent>([[home, content]]);
  const tried = new Set([home]);
  let frontier: Node[] = [...document.nodes, ...content.reusableContents.flatMap((r) => r.document?.nodes ?? [])];
  while (frontier.length > 0 && tried.size <= maxSpaces) {
    const named = new Set<string>();
    spacesNamed(frontier, named);
    frontier = [];
    for (const space of named) {
      if (tried.has(space) || tried.size > maxSpaces) continue;
      tried.add(space);
      const found = await readableContent(ctx, space);
      if (!found) continue;
      contents.set(space, found);
      frontier.push(...found.reusableContents.flatMap((r) => r.document?.nodes ?? []));
    }
  }
  return contents;
}

const identity: DocumentShape = (document) => document;

/**
 * What the read's `query` does to documents of `content` (the revision read, of the space `space`): the
 * other spaces `dereferenced=true` reads are read here, once, so the shaping itself is synchronous.
 * `sample` is a document the read answers, whose references name the other spaces to read.
 */
export async function documentShape(ctx: Ctx, space: Pick<SpaceRow, 'id'>, content: RevisionContent, query: DocumentQuery, sample?: Document): Promise<DocumentShape> {
  const deref = query.dereferenced === 'true' || query.dereferenced === 'reusable-contents' ? query.dereferenced : undefined;
  const evaluate = query.evaluated === 'true' ? 'all' : query.evaluated === 'deterministic-only' ? 'deterministic' : undefined;
  if (!deref && !evaluate) return identity;
  const sources: Sources = { home: space.id, contents: new Map([[space.id, content]]) };
  if (deref === 'true' && sample) sources.contents = await otherSpaces(ctx, space.id, content, sample);
  const claims = tokenVisitor(ctx)?.claims ?? {};
  return (document, ownerId) => {
    const expanded = deref ? dereference(document, sources, ownerId) : document;
    return evaluate ? evaluateDocument(expanded, { variables: content.variables, claims, mode: evaluate }) : expanded;
  };
}

/** Whether the shape changes documents (a read that is not shaped keeps its cached Markdown). */
export function shapes(shape: DocumentShape): boolean {
  return shape !== identity;
}
