// The query of a document read (`evaluated`, `dereferenced`), and what it does to a document
// (docs/headless-reads.md):
// - `dereferenced=reusable-contents` replaces each `reusable-content` block with the blocks of that content
//   in the same revision; `dereferenced=true` expands every reference to content this server stores in
//   place: reusable contents of the revision and those of other spaces (a `ref.space`) the caller may read;
// - `evaluated=true` evaluates expressions and `if` blocks for the reader (evaluate-document.ts);
//   `deterministic-only` only what does not read the visitor.
import type { SpaceGrant } from '../auth/access.js';
import type { Ctx } from '../context.js';
import type { Block, Document } from '../content/markdown-document.js';
import type { RevisionContent, StoredReusableContent } from '../content/revision-content.js';
import { tokenVisitor } from '../content/reader-content.js';
import { evaluateDocument } from './evaluate-document.js';
import { otherSpaceContents, type ShownPage } from './other-spaces-attached.js';

export interface DocumentQuery {
  evaluated?: 'true' | 'false' | 'deterministic-only';
  dereferenced?: 'true' | 'false' | 'reusable-contents';
}

/** What a read does to a document before answering it: `ownerId` is the reusable content read, which does not include itself. */
export type DocumentShape = (document: Document, ownerId?: string) => Document;

/** How deep reusable contents including reusable contents are expanded (a cycle stops here too). */
const maxDepth = 8;

type Node = NonNullable<Block['nodes']>[number];
type IncludeRef = { reusableContent: string; space?: string };

/** The reference a `reusable-content` block includes. */
function includedRef(block: Block): IncludeRef | undefined {
  const ref = (block.data as { ref?: { kind?: unknown; reusableContent?: unknown; space?: unknown } } | undefined)?.ref;
  if (ref?.kind !== 'reusable-content' || typeof ref.reusableContent !== 'string') return undefined;
  return { reusableContent: ref.reusableContent, ...(typeof ref.space === 'string' && { space: ref.space }) };
}

/** The reusable contents an expansion reads from: the read's own space's, and other spaces' by id (when `true`). */
interface Sources {
  home: string;
  contents: Map<string, StoredReusableContent[]>;
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
    const included = ref && sources.contents.get(space)?.find((r) => r.id === ref.reusableContent);
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

const identity: DocumentShape = (document) => document;

/** Where the read's page is, for the other spaces `dereferenced=true` reads (other-spaces-attached.ts). */
export interface ShownAt {
  /** The revision named in the path (null: the space's current one). */
  revision: string | null;
  shown: ShownPage;
  /** The page's id or path as the path gives it. */
  page?: string;
}

/**
 * What the read's `query` does to documents of `content` (the revision read, of the grant's space): the
 * reusable contents of the other spaces `dereferenced=true` takes came with the grant (other-spaces-attached.ts),
 * so the shaping itself is synchronous. `at` says which page the read shows, for a read that must look again.
 */
export async function documentShape(ctx: Ctx, grant: SpaceGrant, content: RevisionContent, query: DocumentQuery, at?: ShownAt): Promise<DocumentShape> {
  const deref = query.dereferenced === 'true' || query.dereferenced === 'reusable-contents' ? query.dereferenced : undefined;
  const evaluate = query.evaluated === 'true' ? 'all' : query.evaluated === 'deterministic-only' ? 'deterministic' : undefined;
  if (!deref && !evaluate) return identity;
  const sources: Sources = { home: grant.row.id, contents: new Map([[grant.row.id, content.reusableContents]]) };
  if (deref === 'true' && at) {
    for (const [space, contents] of await otherSpaceContents(ctx, grant, at.revision, at.shown, at.page)) if (space !== grant.row.id) sources.contents.set(space, contents);
  }
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
