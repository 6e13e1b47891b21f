// Response properties that some answers leave out by design ("absent until one is set", "absent at the top
// level"). The flag, an OpenAPI extension the published document carries, is what the mock/server drift
// check (test/fuzz.test.ts) exempts: a property the example shows and no answer had is drift unless its
// schema is flagged, whatever its description says.

/** The extension's name: `x-conditional: true` on a property schema. */
export const CONDITIONAL = 'x-conditional';

/** `.openapi()` metadata of a conditional property: its description (which says when it is absent) and the flag. */
export function conditional(description: string): { description: string; 'x-conditional': true } {
  return { description, [CONDITIONAL]: true } as { description: string; 'x-conditional': true };
}

/**
 * Moves the flag of a conditional use of a named schema (`User.openapi(conditional(…))`, which zod-to-openapi
 * writes as `allOf: [{ $ref }, { description, x-conditional }]`) up onto the property itself. Redocly's diff
 * (the breaking-change gate, scripts/api-diff.ts) reads an `allOf` part holding an extension as a schema
 * of any type and reports every such property as widened; on the property it is an annotation like any.
 */
export function hoistConditionalFlags(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(hoistConditionalFlags);
  if (node === null || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf as Record<string, unknown>[]) {
      if (part?.[CONDITIONAL] !== true || part.$ref) continue;
      delete part[CONDITIONAL];
      schema[CONDITIONAL] = true;
    }
  }
  for (const child of Object.values(schema)) hoistConditionalFlags(child);
}
