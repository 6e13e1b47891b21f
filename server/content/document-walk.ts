// The nodes under a node of a Document: its children and, in GitBook's Document JSON, the blocks of its
// fragments (a table's cells, an expandable's title and body, an image's caption). Every reader that
// looks for text, links, files or embeds walks both, so content in fragments is never missed.
interface Walkable {
  nodes?: unknown[];
  fragments?: { nodes?: unknown[] }[];
}

/** The node's children followed by the blocks of its fragments. */
export function childrenOf<T>(node: Walkable): T[] {
  const nodes = (node.nodes ?? []) as T[];
  if (!node.fragments || node.fragments.length === 0) return nodes;
  return [...nodes, ...node.fragments.flatMap((f) => (f.nodes ?? []) as T[])];
}
