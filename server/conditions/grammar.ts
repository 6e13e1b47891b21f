// The one grammar of adaptive-content conditions (docs/sites-settings.md, "Conditions"): jsep reads the text
// as a JavaScript expression, and this module keeps only what the grammar allows, turning it into a small
// tree the evaluator walks. Writes (sections, site spaces, pages, header links) and reads (the published
// site) go through this same function, so what is accepted is exactly what is evaluated.
import jsep, { type Expression } from 'jsep';

/** The longest condition accepted, and the deepest nesting of parentheses: bounds on untrusted input. */
export const MAX_CONDITION_LENGTH = 2000;
const MAX_NESTING = 32;

export type Literal = string | number | boolean | null | undefined;

/** A claim of the visitor: `path` is what follows `visitor.claims`, `at` where each segment starts (0-based). */
export interface ClaimRef {
  kind: 'claim';
  path: string[];
  at: number[];
}

export type Condition =
  | { kind: 'literal'; value: Literal }
  | ClaimRef
  | { kind: 'not'; argument: Condition }
  | { kind: 'and' | 'or' | 'equal' | 'differ'; left: Condition; right: Condition }
  | { kind: 'choose'; test: Condition; then: Condition; otherwise: Condition };

/** A condition that is not in the grammar: `position` is the 0-based index of the offending character. */
export class ConditionError extends Error {
  constructor(
    readonly position: number,
    readonly reason: string,
  ) {
    super(`at character ${position + 1}: ${reason}`);
  }
}

// jsep gives no positions; these two hooks record where each token starts and ends (on the parser
// instance, which lives for one parse), so refusals can name the character. Numeric literals are read by
// the hook itself because jsep returns them without running `after-token`, which would unbalance the stack.
type Positioned = Expression & { start?: number; end?: number };
type Parser = { index: number; code: number; __starts?: number[]; gobbleNumericLiteral(): Expression };
jsep.hooks.add('gobble-token', function (env: { context?: unknown; node?: Expression }) {
  const parser = env.context as Parser;
  (parser.__starts ??= []).push(parser.index);
  const isDigit = parser.code >= 48 && parser.code <= 57;
  if (isDigit || parser.code === 46) env.node = parser.gobbleNumericLiteral();
});
jsep.hooks.add('after-token', function (env: { context?: unknown; node?: Expression }) {
  const parser = env.context as Parser;
  const start = parser.__starts?.pop();
  if (env.node && start !== undefined) Object.assign(env.node, { start, end: parser.index });
});

function startOf(node: Positioned): number {
  if (node.start !== undefined) return node.start;
  const first = (node.left ?? node.test ?? node.object ?? node.callee ?? (node.body as Expression[] | undefined)?.[0]) as Positioned | undefined;
  return first ? startOf(first) : 0;
}

function endOf(node: Positioned): number {
  if (node.end !== undefined) return node.end;
  const last = (node.right ?? node.alternate ?? node.property) as Positioned | undefined;
  return last ? endOf(last) : startOf(node);
}

const operators: Record<string, 'and' | 'or' | 'equal' | 'differ'> = {
  '&&': 'and',
  '||': 'or',
  '==': 'equal',
  '===': 'equal',
  '!=': 'differ',
  '!==': 'differ',
};

const forbiddenNames = new Set(['__proto__', 'constructor', 'prototype']);

/** The segments of a member chain (`visitor.claims.x` → visitor, claims, x), or a refusal. */
function chainOf(node: Expression, source: string, start: number): { names: string[]; at: number[] } {
  const names: string[] = [];
  let cursor: Expression = node;
  while (cursor.type === 'MemberExpression') {
    const property = cursor.property as Expression;
    if (!cursor.computed) names.unshift(String(property.name));
    else if (property.type === 'Literal' && typeof property.value === 'string') names.unshift(property.value);
    else throw new ConditionError(startOf(property as Positioned), 'a computed member must be a string literal, as in visitor.claims["name"]');
    cursor = cursor.object as Expression;
  }
  if (cursor.type !== 'Identifier') throw new ConditionError(start, 'only visitor.claims.<name> can be read');
  names.unshift(cursor.name as string);
  // Where each segment starts, found in order from the start of the chain.
  const at: number[] = [];
  let from = start;
  for (const name of names) {
    const index = source.indexOf(name, from);
    at.push(index < 0 ? from : index);
    from = index < 0 ? from : index + name.length;
  }
  return { names, at };
}

function claimOf(node: Expression, source: string, start: number): ClaimRef {
  const { names, at } = chainOf(node, source, start);
  if (names[0] !== 'visitor') throw new ConditionError(at[0]!, `unknown name \`${names[0]}\`: conditions read visitor.claims.<name>`);
  if (names[1] !== 'claims') {
    const where = names.length > 1 ? at[1]! : at[0]!;
    const what = names.length > 1 ? `\`${names[1]}\` is not a property of visitor` : 'visitor alone is not a value';
    throw new ConditionError(where, `${what}: conditions read visitor.claims.<name>`);
  }
  if (names.length === 2) throw new ConditionError(at[1]!, 'visitor.claims is the set of claims: name one, as in visitor.claims.isBetaUser');
  const forbidden = names.findIndex((name) => forbiddenNames.has(name));
  if (forbidden >= 0) throw new ConditionError(at[forbidden]!, `\`${names[forbidden]}\` cannot be a claim name`);
  return { kind: 'claim', path: names.slice(2), at: at.slice(2) };
}

function toCondition(node: Expression, source: string, depth: number): Condition {
  const position = startOf(node as Positioned);
  if (depth > MAX_NESTING) throw new ConditionError(position, `nested deeper than ${MAX_NESTING} levels`);
  switch (node.type) {
    case 'Literal':
      return { kind: 'literal', value: node.value as Literal };
    case 'Identifier':
      if (node.name === 'undefined') return { kind: 'literal', value: undefined };
      return claimOf(node, source, position);
    case 'MemberExpression':
      return claimOf(node, source, position);
    case 'UnaryExpression':
      if (node.operator !== '!') throw new ConditionError(position, `operator \`${String(node.operator)}\` is not in the grammar (use !, &&, ||, ==, !=)`);
      return { kind: 'not', argument: toCondition(node.argument as Expression, source, depth + 1) };
    case 'BinaryExpression': {
      const operator = node.operator as string;
      const kind = operators[operator];
      const left = node.left as Positioned;
      if (!kind) {
        const at = source.indexOf(operator, endOf(left));
        throw new ConditionError(at < 0 ? position : at, `operator \`${operator}\` is not in the grammar (use !, &&, ||, ==, !=)`);
      }
      return { kind, left: toCondition(left, source, depth + 1), right: toCondition(node.right as Expression, source, depth + 1) };
    }
    case 'ConditionalExpression':
      return {
        kind: 'choose',
        test: toCondition(node.test as Expression, source, depth + 1),
        then: toCondition(node.consequent as Expression, source, depth + 1),
        otherwise: toCondition(node.alternate as Expression, source, depth + 1),
      };
    case 'CallExpression': {
      // The callee is part of the call's token and has no position of its own: search from the call's start
      // (searching from position 0 found a `(` inside an earlier string literal).
      const at = source.indexOf('(', position);
      throw new ConditionError(at < 0 ? position : at, 'function calls are not in the grammar');
    }
    case 'Compound': {
      const second = (node.body as Expression[])[1];
      throw new ConditionError(second ? startOf(second as Positioned) : position, 'one expression expected (join conditions with && or ||)');
    }
    case 'ThisExpression':
      throw new ConditionError(position, '`this` is not in the grammar: conditions read visitor.claims.<name>');
    case 'ArrayExpression':
      throw new ConditionError(position, 'arrays are not in the grammar');
    default:
      throw new ConditionError(position, `${node.type} is not in the grammar`);
  }
}

function deepestNesting(text: string): { depth: number; at: number } {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    if (depth > MAX_NESTING) return { depth, at: i };
  }
  return { depth, at: -1 };
}

/** The condition `text` as a tree; throws ConditionError naming the position and the reason when it is not in the grammar. */
export function parseCondition(text: string): Condition {
  if (text.length > MAX_CONDITION_LENGTH) throw new ConditionError(MAX_CONDITION_LENGTH, `longer than ${MAX_CONDITION_LENGTH} characters`);
  if (text.trim() === '') throw new ConditionError(0, 'empty condition (remove it instead)');
  const nesting = deepestNesting(text);
  if (nesting.at >= 0) throw new ConditionError(nesting.at, `nested deeper than ${MAX_NESTING} levels`);
  let tree: Expression;
  try {
    tree = jsep(text);
  } catch (error) {
    const { index, description } = error as { index?: number; description?: string };
    throw new ConditionError(typeof index === 'number' ? Math.min(index, text.length) : 0, description ?? 'does not parse');
  }
  return toCondition(tree, text, 0);
}
