// What the published site does with a condition: the same parse as on write (grammar.ts), then a walk of
// the tree against the visitor's claims. A condition that is not in the grammar (stored before conditions
// were checked on write, or whose claims the adaptive schema no longer defines) hides its item: a reader
// never sees content by accident.
import { LRUCache } from 'lru-cache';
import { parseCondition, type Condition } from './grammar.js';

export interface Visitor {
  /** The visitor's claims: the verified JWT's, with the unsigned ones under `unsigned`. */
  claims: Record<string, unknown> & { unsigned?: Record<string, unknown> };
}

// false: the condition is not in the grammar.
const parsed = new LRUCache<string, Condition | false>({ max: 2000 });

function parsedCondition(text: string): Condition | false {
  const known = parsed.get(text);
  if (known !== undefined) return known;
  let tree: Condition | false;
  try {
    tree = parseCondition(text);
  } catch {
    tree = false;
  }
  parsed.set(text, tree);
  return tree;
}

function claim(path: string[], visitor: Visitor): unknown {
  let value: unknown = visitor.claims;
  for (const name of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, name)) return undefined;
    value = (value as Record<string, unknown>)[name];
  }
  return value;
}

function evaluate(node: Condition, visitor: Visitor): unknown {
  switch (node.kind) {
    case 'literal':
      return node.value;
    case 'claim':
      return claim(node.path, visitor);
    case 'not':
      return !evaluate(node.argument, visitor);
    case 'and':
      return evaluate(node.left, visitor) && evaluate(node.right, visitor);
    case 'or':
      return evaluate(node.left, visitor) || evaluate(node.right, visitor);
    case 'equal':
      return evaluate(node.left, visitor) === evaluate(node.right, visitor);
    case 'differ':
      return evaluate(node.left, visitor) !== evaluate(node.right, visitor);
    case 'choose':
      return evaluate(node.test, visitor) ? evaluate(node.then, visitor) : evaluate(node.otherwise, visitor);
  }
}

/** Whether an item with `condition` is shown to `visitor` (no condition: shown; one that is not in the grammar: hidden). */
export function conditionHolds(condition: string | null | undefined, visitor: Visitor): boolean {
  if (condition === null || condition === undefined || condition.trim() === '') return true;
  const tree = parsedCondition(condition);
  return tree !== false && evaluate(tree, visitor) === true;
}
