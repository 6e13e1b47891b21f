// The query of a document read (`evaluated`, `dereferenced`), and what it does to a document. Only what
// this server can fill is accepted (the contract refuses the rest, 400 naming the field): expressions are
// never evaluated (`evaluated=false` only), and of the references only reusable contents are expanded
// (`dereferenced=reusable-contents`).
import type { Block, Document } from '../content/markdown-document.js';
import type { RevisionContent } from '../content/revision-content.js';

export interface DocumentQuery {
  evaluated?: 'false';
  dereferenced?: 'false' | 'reusable-contents';
}

/** Whether reusable contents are to be expanded. */
export function readDocumentQuery(query: DocumentQuery): { dereference: boolean } {
  return { dereference: query.dereferenced === 'reusable-contents' };
}

/** How deep reusable contents including reusable contents are expanded (a cycle stops here too). */
const maxDepth = 8;

/** The id of the reusable content a `reusable-content` block includes. */
function includedId(block: Block): string | undefined {
  const ref = (block.data as { ref?: { kind?: unknown; reusableContent?: unknown } } | undefined)?.ref;
  return ref?.kind === 'reusable-content' && typeof ref.reusableContent === 'string' ? ref.reusableContent : undefined;
}

type Node = NonNullable<Block['nodes']>[number];

function expand(nodes: Node[], content: RevisionContent, seen: string[]): Node[] {
  const out: Node[] = [];
  for (const node of nodes) {
    if (node.object !== 'block') {
      out.push(node);
      continue;
    }
    const id = node.type === 'reusable-content' ? includedId(node) : undefined;
    const included = id === undefined ? undefined : content.reusableContents.find((r) => r.id === id);
    // The content's own blocks in its place; a block whose content is not in the revision stays, as does a
    // cycle or an expansion past maxDepth.
    if (included && id && !seen.includes(id) && seen.length < maxDepth) out.push(...expand(included.document?.nodes ?? [], content, [...seen, id]));
    else out.push({ ...node, ...(node.nodes && { nodes: expand(node.nodes, content, seen) }) });
  }
  return out;
}

/** The document with every `reusable-content` block replaced by the blocks of that content in `content`. */
export function dereferenceReusableContents(document: Document, content: RevisionContent, ownerId?: string): Document {
  return { ...document, nodes: expand(document.nodes, content, ownerId ? [ownerId] : []) as Block[] };
}
