// `evaluated` of a document read (docs/headless-reads.md): the document as its reader sees it. An inline
// `expression` (`space.vars.version`, `visitor.claims.plan`, `"v" + space.vars.version`) becomes the text of
// its value; an `if` block (`data.expression`) gives way to its blocks when its expression is true and is
// dropped otherwise. Expressions read `space.vars` (the revision's variables), `page.vars` (none are stored:
// empty) and `visitor.claims` (a site token's claims; none for other callers). jsep reads them, as it reads
// page conditions (conditions/grammar.ts); only literals, names, members, unary, binary, logical and `?:`
// are evaluated, so no expression runs code. `deterministic-only` evaluates what does not read the visitor
// and leaves the rest as written.
import jsep, { type Expression } from 'jsep';
import { LRUCache } from 'lru-cache';
import type { Block, Document } from '../content/markdown-document.js';

export interface EvaluationScope {
  variables: Record<string, string>;
  claims: Record<string, unknown>;
  /** `deterministic`: leave what reads the visitor as written. */
  mode: 'all' | 'deterministic';
}

type Node = NonNullable<Block['nodes']>[number];

/** Thrown while evaluating: the expression cannot be evaluated (not in what is evaluated, or reads the visitor in deterministic mode). */
class Unevaluable extends Error {}

const MAX_EXPRESSION = 2000;
const parsed = new LRUCache<string, Expression | false>({ max: 2000 });

function parse(text: string): Expression | false {
  const known = parsed.get(text);
  if (known !== undefined) return known;
  let tree: Expression | false;
  try {
    tree = text.length > MAX_EXPRESSION ? false : jsep(text);
  } catch {
    tree = false;
  }
  parsed.set(text, tree);
  return tree;
}

function own(value: unknown, name: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || (typeof name !== 'string' && typeof name !== 'number')) return undefined;
  return Object.hasOwn(value, String(name)) ? (value as Record<string, unknown>)[String(name)] : undefined;
}

function evaluate(node: Expression, env: Record<string, unknown>, deterministic: boolean): unknown {
  switch (node.type) {
    case 'Literal':
      return node.value;
    case 'Identifier': {
      const name = node.name as string;
      if (deterministic && name === 'visitor') throw new Unevaluable();
      if (!Object.hasOwn(env, name)) throw new Unevaluable();
      return env[name];
    }
    case 'MemberExpression': {
      const object = evaluate(node.object as Expression, env, deterministic);
      const property = node.computed ? evaluate(node.property as Expression, env, deterministic) : (node.property as Expression).name;
      return own(object, property);
    }
    case 'UnaryExpression': {
      const argument = evaluate(node.argument as Expression, env, deterministic);
      if (node.operator === '!') return !argument;
      if (node.operator === '-') return -Number(argument);
      if (node.operator === '+') return Number(argument);
      throw new Unevaluable();
    }
    case 'BinaryExpression':
    case 'LogicalExpression': {
      const left = evaluate(node.left as Expression, env, deterministic);
      if (node.operator === '&&') return left && evaluate(node.right as Expression, env, deterministic);
      if (node.operator === '||') return left || evaluate(node.right as Expression, env, deterministic);
      if (node.operator === '??') return left ?? evaluate(node.right as Expression, env, deterministic);
      const right = evaluate(node.right as Expression, env, deterministic);
      const [l, r] = [left as number, right as number];
      switch (node.operator) {
        case '==':
        case '===':
          return left === right;
        case '!=':
        case '!==':
          return left !== right;
        case '<':
          return l < r;
        case '>':
          return l > r;
        case '<=':
          return l <= r;
        case '>=':
          return l >= r;
        case '+':
          return typeof left === 'string' || typeof right === 'string' ? `${text(left)}${text(right)}` : l + r;
        case '-':
          return l - r;
        case '*':
          return l * r;
        case '/':
          return l / r;
        case '%':
          return l % r;
      }
      throw new Unevaluable();
    }
    case 'ConditionalExpression':
      return evaluate(node.test as Expression, env, deterministic)
        ? evaluate(node.consequent as Expression, env, deterministic)
        : evaluate(node.alternate as Expression, env, deterministic);
  }
  throw new Unevaluable();
}

/** How a value reads in text: nothing for null and undefined. */
function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The value of `expression`; `kept` when it is to stay as written (deterministic mode, reading the visitor). */
function valueOf(expression: unknown, scope: EvaluationScope): { value: unknown } | 'kept' {
  const tree = typeof expression === 'string' ? parse(expression) : false;
  const env = { space: { vars: scope.variables }, page: { vars: {} }, visitor: { claims: scope.claims } };
  if (tree === false) return scope.mode === 'deterministic' ? 'kept' : { value: undefined };
  try {
    return { value: evaluate(tree, env, scope.mode === 'deterministic') };
  } catch (err) {
    if (!(err instanceof Unevaluable)) throw err;
    return scope.mode === 'deterministic' ? 'kept' : { value: undefined };
  }
}

function walk(nodes: Node[], scope: EvaluationScope): Node[] {
  const out: Node[] = [];
  for (const node of nodes) {
    if (node.object === 'text') {
      out.push(node);
      continue;
    }
    const data = node.data as { expression?: unknown } | undefined;
    if (node.object === 'inline' && node.type === 'expression') {
      const result = valueOf(data?.expression, scope);
      if (result === 'kept') out.push(node);
      else out.push({ object: 'text', leaves: [{ object: 'leaf', text: text(result.value), marks: [] }] });
      continue;
    }
    if (node.object === 'block' && node.type === 'if') {
      const result = valueOf(data?.expression, scope);
      // A condition that cannot be evaluated hides its blocks, as a page condition does: nothing is shown by accident.
      if (result !== 'kept') {
        if (result.value) out.push(...walk(node.nodes ?? [], scope));
        continue;
      }
    }
    out.push(node.nodes ? ({ ...node, nodes: walk(node.nodes, scope) } as Node) : node);
  }
  return out;
}

/** The document evaluated for `scope`. */
export function evaluateDocument(document: Document, scope: EvaluationScope): Document {
  return { ...document, nodes: walk(document.nodes, scope) as Block[] };
}
