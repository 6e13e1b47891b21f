// Conditions checked when they are written: in the grammar (grammar.ts), and naming only claims the adaptive
// schema defines. A refusal is a 400 naming the field, the character and the reason.
import { BadRequest } from '../errors.js';
import { ConditionError, parseCondition, type ClaimRef, type Condition } from './grammar.js';

/** The claims an adaptive schema defines: boolean properties, and those of its `unsigned` object. */
export interface ClaimNames {
  signed: Set<string>;
  unsigned: Set<string>;
}

/** The claim names of an adaptive schema (validated by sites/adaptive-schema.ts); undefined without one. */
export function claimNamesOf(jsonSchema: Record<string, unknown> | null | undefined): ClaimNames | undefined {
  if (!jsonSchema) return undefined;
  const properties = (jsonSchema.properties ?? {}) as Record<string, { properties?: Record<string, unknown> }>;
  const signed = new Set(Object.keys(properties).filter((name) => name !== 'unsigned'));
  const unsigned = new Set(Object.keys(properties.unsigned?.properties ?? {}));
  return { signed, unsigned };
}

/** The names of several schemas together (a page's condition is read on every site publishing its space). */
export function mergeClaimNames(all: (ClaimNames | undefined)[]): ClaimNames | undefined {
  const defined = all.filter((names): names is ClaimNames => names !== undefined);
  if (defined.length === 0) return undefined;
  return {
    signed: new Set(defined.flatMap((names) => [...names.signed])),
    unsigned: new Set(defined.flatMap((names) => [...names.unsigned])),
  };
}

function claimsOf(node: Condition, out: ClaimRef[] = []): ClaimRef[] {
  switch (node.kind) {
    case 'claim':
      out.push(node);
      break;
    case 'not':
      claimsOf(node.argument, out);
      break;
    case 'choose':
      claimsOf(node.test, out);
      claimsOf(node.then, out);
      claimsOf(node.otherwise, out);
      break;
    case 'literal':
      break;
    default:
      claimsOf(node.left, out);
      claimsOf(node.right, out);
  }
  return out;
}

const listed = (names: Set<string>) => (names.size ? [...names].sort().join(', ') : 'none');

function checkClaim(ref: ClaimRef, names: ClaimNames): void {
  const [first, second] = ref.path;
  if (first === 'unsigned') {
    if (second === undefined) throw new ConditionError(ref.at[0]!, 'visitor.claims.unsigned is the set of unsigned claims: name one');
    if (!names.unsigned.has(second)) {
      throw new ConditionError(ref.at[1]!, `unsigned claim \`${second}\` is not defined by the site's adaptive schema (unsigned claims: ${listed(names.unsigned)})`);
    }
    if (ref.path.length > 2) throw new ConditionError(ref.at[2]!, `unsigned claim \`${second}\` is a boolean: it has no \`${ref.path[2]}\``);
    return;
  }
  if (!names.signed.has(first!)) {
    throw new ConditionError(ref.at[0]!, `claim \`${first}\` is not defined by the site's adaptive schema (claims: ${listed(names.signed)})`);
  }
  if (ref.path.length > 1) throw new ConditionError(ref.at[1]!, `claim \`${first}\` is a boolean: it has no \`${ref.path[1]}\``);
}

/**
 * Throws BadRequest (`Invalid request: <field>: at character N: <reason>`) unless `text` is in the grammar
 * and, when `names` is given, reads only claims it defines. Null and blank text mean "no condition", as
 * evaluate.ts reads them: every reader sees the item.
 */
export function checkCondition(field: string, text: string | null | undefined, names: ClaimNames | undefined): void {
  if (text === null || text === undefined || text.trim() === '') return;
  try {
    const tree = parseCondition(text);
    if (names) for (const ref of claimsOf(tree)) checkClaim(ref, names);
  } catch (error) {
    if (error instanceof ConditionError) throw new BadRequest(`Invalid request: ${field}: ${error.message}`);
    throw error;
  }
}
