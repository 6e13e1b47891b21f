// What a Document must be for this server to store it exactly, checked before anything is written: a 400
// naming the node's path (`body.changes[0].document.document.nodes[2].key`) rather than a loss. A block
// key names one block of its document (comments and reverts find blocks by key); nesting is bounded so
// every reader of the tree (conversions, merge, the site) stays within its stack. Strings that PostgreSQL
// cannot store (U+0000, lone surrogates) never get this far: request validation refuses them, naming the
// field, for every body of the API.
import { BadRequest } from '../errors.js';

const MAX_DEPTH = 64;

interface NodeLike {
  object?: string;
  key?: string;
  nodes?: NodeLike[];
  fragments?: { nodes?: NodeLike[] }[];
}

/** Throws BadRequest naming the node's path when the document (`{nodes}`, at `path`) cannot be stored as given. */
export function assertStorableDocument(document: { nodes: unknown[] }, path: string): void {
  const keys = new Map<string, string>();
  const walk = (nodes: NodeLike[], at: string, depth: number) => {
    if (depth > MAX_DEPTH) throw new BadRequest(`${at}: blocks nested more than ${MAX_DEPTH} deep cannot be stored`);
    nodes.forEach((node, i) => {
      if (node.object === 'block' && node.key !== undefined) {
        const here = `${at}[${i}]`;
        const first = keys.get(node.key);
        if (first !== undefined) throw new BadRequest(`${here}.key: the block key ${JSON.stringify(node.key)} is already the key of ${first}; a key names one block`);
        keys.set(node.key, here);
      }
      if (Array.isArray(node.nodes)) walk(node.nodes, `${at}[${i}].nodes`, depth + 1);
      if (Array.isArray(node.fragments)) node.fragments.forEach((f, j) => Array.isArray(f?.nodes) && walk(f.nodes, `${at}[${i}].fragments[${j}].nodes`, depth + 1));
    });
  };
  walk(document.nodes as NodeLike[], `${path}.nodes`, 0);
}
