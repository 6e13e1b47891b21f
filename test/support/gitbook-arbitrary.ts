// fast-check arbitraries built from GitBook's own JSON schemas (@gitbook/api's spec): Documents as GitBook
// describes them, every block, inline, mark, table definition and ContentRef kind its schemas list, with
// depth bounded. GitBook's `oneOf`s overlap in places (a `file` ref is both a ContentRef and an image
// record), so a generated document is kept only when Ajv finds it valid against `JSONDocument`.
import fc from 'fast-check';
import { gitbookDocumentErrors, gitbookSpec, type JsonSchema } from './gitbook-document.js';

const schemas = gitbookSpec.components.schemas;
const MAX_DEPTH = 5;

const word = fc.stringMatching(/^[A-Za-z][a-z0-9 ]{0,8}$/);
const refOf = (s: JsonSchema) => (typeof s.$ref === 'string' ? schemas[s.$ref.split('/').pop()!] : undefined);

/** Object schemas of an allOf (refs resolved) merged into one; the other parts kept apart. */
function flattenAllOf(parts: JsonSchema[]): { object: JsonSchema; others: JsonSchema[] } {
  const object: JsonSchema = { type: 'object', properties: {}, required: [] };
  const others: JsonSchema[] = [];
  for (const raw of parts) {
    const part = refOf(raw) ?? raw;
    if (part.allOf) {
      const inner = flattenAllOf(part.allOf as JsonSchema[]);
      Object.assign(object.properties as object, inner.object.properties);
      (object.required as string[]).push(...((inner.object.required as string[]) ?? []));
      others.push(...inner.others);
    } else if (part.properties || part.type === 'object') {
      Object.assign(object.properties as object, part.properties);
      (object.required as string[]).push(...((part.required as string[]) ?? []));
    } else others.push(part);
  }
  return { object, others };
}

const cache = new Map<string, fc.Arbitrary<unknown>>();

/** An arbitrary of values valid (mostly: see above) for `schema`, `depth` levels of arrays deep. */
export function arbitraryOf(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop()!;
    const key = `${name}@${depth}`;
    let arb = cache.get(key);
    if (!arb) {
      cache.set(key, fc.constant(null)); // a placeholder while the schema refers to itself
      arb = arbitraryOf(schemas[name], depth);
      cache.set(key, arb);
    }
    return arb;
  }
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  const union = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (union) return fc.oneof(...union.map((m) => arbitraryOf(m, depth)));
  if (schema.allOf) {
    const { object, others } = flattenAllOf(schema.allOf as JsonSchema[]);
    return fc.tuple(arbitraryOf(object, depth), ...others.map((o) => arbitraryOf(o, depth))).map((parts) => Object.assign({}, ...(parts as object[])));
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'date-time') return fc.date({ min: new Date('2000-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
      if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= 20);
      return schema.maxLength !== undefined ? word.map((w) => w.slice(0, schema.maxLength as number)) : word;
    case 'integer':
      return fc.integer({ min: (schema.minimum as number) ?? 0, max: (schema.maximum as number) ?? 50 });
    case 'number':
      return fc.integer({ min: 0, max: 100 });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const min = (schema.minItems as number) ?? 0;
      // Past the depth, arrays are empty (or, where one item is required, cut short: Ajv drops those documents).
      if (depth >= MAX_DEPTH && min === 0) return fc.constant([]);
      if (depth >= MAX_DEPTH + 3) return fc.constant(null);
      const max = Math.max(min, Math.min((schema.maxItems as number) ?? 2, depth >= MAX_DEPTH ? 0 : 2));
      return fc.array(arbitraryOf((schema.items as JsonSchema) ?? {}, depth + 1), { minLength: min, maxLength: max });
    }
    default: {
      if (!schema.properties) {
        if (depth >= MAX_DEPTH) return fc.constant({});
        // A map (a table's records and definition, PlainObject): a few entries.
        const values = schema.additionalProperties && typeof schema.additionalProperties === 'object' ? arbitraryOf(schema.additionalProperties as JsonSchema, depth + 1) : fc.constant('x');
        return fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), values, { maxKeys: depth >= MAX_DEPTH ? 0 : 2 });
      }
      const properties = schema.properties as Record<string, JsonSchema>;
      const required = new Set((schema.required as string[]) ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      // `key` of blocks and inlines is given afterwards (a key names one block of a document).
      for (const [name, s] of Object.entries(properties)) if (name !== 'key') record[name] = arbitraryOf(s, depth);
      return fc.record(record, { requiredKeys: [...required].filter((k) => k in record) });
    }
  }
}

/** Gives every block (children and fragments' blocks) a key unique in its document. */
function keyed(nodes: unknown[], counter: { n: number }): unknown[] {
  return (nodes as { object?: string; nodes?: unknown[]; fragments?: { nodes: unknown[] }[] }[]).map((node) => {
    if (node?.object !== 'block') return node;
    return {
      ...node,
      key: `k${counter.n++}`,
      ...(node.nodes && { nodes: keyed(node.nodes, counter) }),
      ...(node.fragments && { fragments: node.fragments.map((f) => ({ ...f, nodes: keyed(f.nodes, counter) })) }),
    };
  });
}

/** GitBook Documents, generated from GitBook's JSON schemas, each valid against its `JSONDocument`. */
export const gitbookDocument: fc.Arbitrary<{ object: 'document'; data: Record<string, unknown>; nodes: unknown[] }> = fc
  .tuple(fc.array(arbitraryOf({ $ref: '#/components/schemas/DocumentBlocksTopLevels' }, 1), { minLength: 1, maxLength: 3 }), fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }))
  .map(([nodes, schemaVersion]) => ({ object: 'document' as const, data: schemaVersion === undefined ? {} : { schemaVersion }, nodes: keyed(nodes, { n: 0 }) }))
  .filter((doc) => gitbookDocumentErrors(doc) === undefined);
