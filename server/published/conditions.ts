// Adaptive-content conditions (`visitor.claims.isBetaUser && !visitor.claims.unsigned.hideBeta`), parsed
// with jsep and evaluated on a whitelist of nodes: literals, `visitor...` member chains, `! && || == !=
// === !==`, `?:` and parentheses. Anything else (calls, `this`, assignments, unknown names) makes the
// condition false, as does one that does not parse: a reader never sees content by accident.
import jsep, { type Expression } from 'jsep';
import { LRUCache } from 'lru-cache';

export interface Visitor {
  /** The visitor's claims: the verified JWT's, with the unsigned ones under `unsigned`. */
  claims: Record<string, unknown> & { unsigned?: Record<string, unknown> };
}

// false: the condition does not parse.
const parsed = new LRUCache<string, Expression | false>({ max: 2000 });

function parse(condition: string): Expression | false {
  const known = parsed.get(condition);
  if (known !== undefined) return known;
  let tree: Expression | false;
  try {
    tree = condition.length > 2000 ? false : jsep(condition);
  } catch {
    tree = false;
  }
  parsed.set(condition, tree);
  return tree;
}

class Refused extends Error {}

function evaluate(node: Expression, visitor: Visitor): unknown {
  switch (node.type) {
    case 'Literal':
      return node.value;
    case 'Identifier':
      if (node.name === 'visitor') return visitor;
      if (node.name === 'undefined') return undefined;
      throw new Refused();
    case 'MemberExpression': {
      const object = evaluate(node.object as Expression, visitor);
      const property = node.computed ? evaluate(node.property as Expression, visitor) : (node.property as { name: string }).name;
      if (typeof property !== 'string' || property === '__proto__' || property === 'constructor' || property === 'prototype') throw new Refused();
      if (object === null || typeof object !== 'object' || !Object.hasOwn(object, property)) return undefined;
      return (object as Record<string, unknown>)[property];
    }
    case 'UnaryExpression':
      if (node.operator === '!') return !evaluate(node.argument as Expression, visitor);
      throw new Refused();
    case 'BinaryExpression': {
      const left = () => evaluate(node.left as Expression, visitor);
      const right = () => evaluate(node.right as Expression, visitor);
      switch (node.operator) {
        case '&&':
          return left() && right();
        case '||':
          return left() || right();
        case '==':
        case '===':
          return left() === right();
        case '!=':
        case '!==':
          return left() !== right();
        default:
          throw new Refused();
      }
    }
    case 'ConditionalExpression':
      return evaluate(node.test as Expression, visitor) ? evaluate(node.consequent as Expression, visitor) : evaluate(node.alternate as Expression, visitor);
    default:
      throw new Refused();
  }
}

/** Whether an item with `condition` is shown to `visitor` (no condition: shown). */
export function conditionHolds(condition: string | null | undefined, visitor: Visitor): boolean {
  if (condition === null || condition === undefined || condition.trim() === '') return true;
  const tree = parse(condition);
  if (!tree) return false;
  try {
    return evaluate(tree, visitor) === true;
  } catch (error) {
    if (error instanceof Refused) return false;
    throw error;
  }
}
