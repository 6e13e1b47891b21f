// Validates responses against the published document, generated/openapi.json, with a JSON Schema
// validator (OpenAPI 3.1 schemas are JSON Schema 2020-12).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Json = Record<string, any>;

export const spec: Json = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../generated/openapi.json'), 'utf8'));

/**
 * The document with every object schema that lists its properties closed to others
 * (`unevaluatedProperties: false`, which unlike `additionalProperties` sees the properties of `allOf`
 * and `$ref` siblings): an answer or example with a property the document does not declare fails. For
 * tests only: the published document leaves objects open, so clients accept additions.
 */
function closedObjects(schema: unknown): unknown {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const s = { ...(schema as Json) };
  const map = (m: Json) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, closedObjects(v)]));
  for (const k of ['properties', 'patternProperties', '$defs']) if (s[k]) s[k] = map(s[k]);
  for (const k of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) if (Array.isArray(s[k])) s[k] = s[k].map(closedObjects);
  for (const k of ['items', 'additionalProperties', 'not', 'if', 'then', 'else']) if (s[k] && typeof s[k] === 'object') s[k] = closedObjects(s[k]);
  if (s.properties && !('additionalProperties' in s) && !('unevaluatedProperties' in s)) s.unevaluatedProperties = false;
  return s;
}

/** The document with its schemas (components and those of each request and response) closed. */
function closedDocument(node: unknown, key = ''): unknown {
  if (key === 'schema') return closedObjects(node);
  if (key === 'schemas' && node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, closedObjects(v)]));
  if (Array.isArray(node)) return node.map((v) => closedDocument(v));
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, closedDocument(v, k)]));
}

// `strict: false`: OpenAPI adds keywords (`example`, …) that plain JSON Schema does not know.
// Each document is compiled twice. `allErrors: false` decides: it leaves a `oneOf` branch at its first failing
// keyword (a Document block's `type`), so a Document nested n levels deep is checked in time linear in n. With
// `allErrors: true` every branch of every `oneOf` would walk its `nodes` too: 2 to 3 times longer each level
// (0.3 s at 6 levels; a fuzz test's 20-level Document never finished). The `allErrors` copy only describes a
// value already found wrong, for the message.
function validatorsOf(document: Json): { decide: Ajv2020; describe: Ajv2020 } {
  const make = (allErrors: boolean) => {
    const instance = new Ajv2020({ strict: false, allErrors });
    addFormats.default(instance);
    instance.addSchema(document, 'openapi.json');
    return instance;
  };
  return { decide: make(false), describe: make(true) };
}
const ajv = validatorsOf(closedDocument(spec) as Json);
// The document as published (objects open to additions), for answers that are not the server's: Prism's
// generated data adds properties the open schemas allow, as any client must accept.
const openAjv = validatorsOf(spec);

/** A schema compiled for deciding, and for describing what is wrong only when it is. */
interface Check {
  (value: unknown): boolean;
  errors(value: unknown): { instancePath: string; message?: string }[];
}

function compileCheck(pair: { decide: Ajv2020; describe: Ajv2020 }, schema: Json): Check {
  const decide = pair.decide.compile(schema);
  let describe: ValidateFunction | undefined;
  const check = ((value: unknown) => decide(value) as boolean) as Check;
  check.errors = (value) => {
    describe ??= pair.describe.compile(schema);
    return describe(value) ? [] : (describe.errors ?? []);
  };
  return check;
}

export interface SpecOperation {
  operationId: string;
  method: string;
  /** The OpenAPI path template, e.g. `/spaces/{spaceId}`. */
  path: string;
  pattern: RegExp;
  /** The operation object of the document. */
  operation: Json;
  responses: Json;
}

const methods = ['get', 'post', 'put', 'patch', 'delete'];

export const specOperations: SpecOperation[] = Object.entries(spec.paths as Json).flatMap(([template, item]) =>
  methods
    .filter((m) => item[m])
    .map((m) => ({
      operationId: item[m].operationId as string,
      method: m,
      path: template,
      operation: item[m] as Json,
      // `/spaces/{spaceId}` -> ^/v1/spaces/[^/]+$
      pattern: new RegExp(`^/v1${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      responses: item[m].responses as Json,
    })),
);

/** The operation a request addresses, by method and concrete path (without query string). */
export function findOperation(method: string, urlPath: string): SpecOperation | undefined {
  const candidates = specOperations.filter((op) => op.method === method.toLowerCase() && op.pattern.test(urlPath));
  // A literal segment beats a parameter: `/versions/latest` over `/versions/{versionId}`.
  return candidates.sort((a, b) => b.pattern.source.split('[^/]+').length - a.pattern.source.split('[^/]+').length).at(-1);
}

/** The object a `$ref` points to in the document (or the object itself when it is no reference). */
export function resolveRef(ref: Json): Json {
  if (!ref.$ref) return ref;
  const pointer = (ref.$ref as string).replace(/^#\//, '').split('/');
  return pointer.reduce((node: Json, key) => node[key.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
}

const validators = new Map<string, Check>();

function validatorFor(op: SpecOperation, status: string, open = false): Check | undefined {
  const key = `${op.operationId} ${status}${open ? ' open' : ''}`;
  if (!validators.has(key)) {
    const schema = resolveRef(op.responses[status])?.content?.['application/json']?.schema;
    if (!schema) return undefined;
    // Refs inside the schema are relative to the whole document.
    validators.set(key, open ? compileCheck(openAjv, withAbsoluteRefs(schema)) : compileCheck(ajv, withAbsoluteRefs(closedObjects(schema) as Json)));
  }
  return validators.get(key);
}

/** The schema with its local refs (`#/components/...`) pointing into the registered document. */
function withAbsoluteRefs(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi.json#/components/'));
}

/** Why `value` does not match a schema of the document: empty when it does. */
export function schemaProblems(schema: Json, value: unknown): string[] {
  const validate = compileCheck(ajv, withAbsoluteRefs(closedObjects(schema) as Json));
  return validate(value) ? [] : validate.errors(value).map((e) => `${e.instancePath || '(value)'} ${e.message}`);
}

/**
 * Problems of a response against the spec: undeclared status, or a body that does not match (with
 * undeclared properties refused, unless `open`: the published document's own rules). Empty when valid.
 */
export function responseProblems(
  op: SpecOperation,
  status: number,
  body: unknown,
  headers: Record<string, string | undefined>,
  options: { open?: boolean } = {},
): string[] {
  const declared = op.responses[String(status)];
  if (!declared) return [`${op.operationId} answered ${status}, which it does not declare`];
  // Headers declared `required: false` (the rate-limit headers, absent when the limit is off) may be missing.
  const missingHeaders = Object.entries((resolveRef(declared).headers ?? {}) as Json)
    .filter(([h, header]) => header.required !== false && headers[h.toLowerCase()] === undefined)
    .map(([h]) => h);
  if (missingHeaders.length > 0) return [`${op.operationId} ${status} lacks the header(s) ${missingHeaders.join(', ')}`];
  const contentType = headers['content-type'];
  // A body that is not JSON (a file, a PDF, an image, YAML: contract/downloads.ts) is bytes of a declared media type.
  const mediaTypes = Object.keys(resolveRef(declared).content ?? {}).filter((type) => type !== 'application/json');
  if (mediaTypes.length > 0 && !contentType?.startsWith('application/json')) {
    const matches = mediaTypes.some((type) => type === '*/*' || contentType?.split(';')[0].trim() === type);
    return matches ? [] : [`${op.operationId} ${status} must be ${mediaTypes.join(' or ')}, got ${contentType}`];
  }
  const validate = validatorFor(op, String(status), options.open);
  if (!validate) return body === undefined || body === '' || (typeof body === 'object' && body !== null && Object.keys(body).length === 0) ? [] : [`${op.operationId} ${status} must have no body`];
  if (!contentType?.startsWith('application/json')) return [`${op.operationId} ${status} must be application/json, got ${contentType}`];
  return validate(body) ? [] : validate.errors(body).map((e) => `${op.operationId} ${status}: ${e.instancePath || '(body)'} ${e.message}`);
}
