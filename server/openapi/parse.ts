// Parsing and validating an OpenAPI document with a real parser (Swagger Parser: OpenAPI 2.0, 3.0, 3.1).
import SwaggerParser from '@apidevtools/swagger-parser';
import { parse as parseYaml } from 'yaml';

export type ParseOutcome = { ok: true; document: Record<string, unknown> } | { ok: false; errors: { message: string; code: string }[] };

/** Parses JSON or YAML text and validates it as an OpenAPI document; only local `$ref`s are resolved (no network). */
export async function parseOpenAPI(text: string): Promise<ParseOutcome> {
  let document: unknown;
  try {
    // YAML 1.2 is a superset of JSON: one parser reads both.
    document = parseYaml(text, { maxAliasCount: 100 });
  } catch (err) {
    return { ok: false, errors: [{ message: `Not JSON or YAML: ${(err as Error).message}`, code: 'PARSE_ERROR' }] };
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    return { ok: false, errors: [{ message: 'The document is not an object', code: 'PARSE_ERROR' }] };
  }
  try {
    // validate() dereferences what it is given in place: hand it a copy and keep the document as written.
    await SwaggerParser.validate(structuredClone(document) as never, { resolve: { external: false } });
  } catch (err) {
    const details = (err as { details?: { message?: string }[] }).details;
    const messages = details?.length ? details.map((d) => d.message ?? String(d)) : [(err as Error).message];
    return { ok: false, errors: messages.slice(0, 20).map((message) => ({ message, code: 'INVALID_OPENAPI' })) };
  }
  return { ok: true, document: document as Record<string, unknown> };
}

/** The file name a version stores the document under: the URL's own file name, else openapi.json or openapi.yaml. */
export function fileNameOf(sourceUrl: string | null, text: string): string {
  if (sourceUrl) {
    const last = new URL(sourceUrl).pathname.split('/').pop() ?? '';
    if (/^[\w.-]+\.(json|ya?ml)$/i.test(last)) return last;
  }
  return text.trimStart().startsWith('{') ? 'openapi.json' : 'openapi.yaml';
}
