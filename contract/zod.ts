// The one place that teaches Zod the `.openapi()` method; every contract file imports `z` from here,
// so the extension is always installed before a schema is declared.
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

/**
 * Every schema named with `.openapi('Name', …)`, as declared, in declaration order. The document
 * registers them all before the operations (scripts/openapi-document.ts): zod-to-openapi builds a
 * component from the first use it meets, so a property that describes a named schema
 * (`User.openapi({ description: 'Who …' })`) met first would lend the component its description and lose
 * its own; with the components built first, each use keeps its description next to the `$ref`.
 */
export const namedSchemas = new Map<string, z.ZodType>();
const openapi = z.ZodType.prototype.openapi;
z.ZodType.prototype.openapi = function (this: z.ZodType, ...args: Parameters<typeof openapi>) {
  const named = openapi.apply(this, args);
  if (typeof args[0] === 'string' && !namedSchemas.has(args[0])) namedSchemas.set(args[0], named);
  return named;
} as typeof openapi;

export { z };
