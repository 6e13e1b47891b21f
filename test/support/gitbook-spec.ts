// GitBook's own published document (`@gitbook/api`'s spec/openapi.json), compiled for checking that our
// answers and requests have GitBook's shapes for every operation id both APIs have (test/gitbook-shapes.test.ts,
// test/gitbook-contract-drift.test.ts). GitBook's schemas are used as published (objects open to the
// fields we add), with one change: the Document family, below.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { gitbookSpec } from './gitbook-published.js';
import { specOperations, type SpecOperation } from './spec.js';

type Json = Record<string, any>;

export { gitbookSpec };

/**
 * The schemas of the Document itself (`JSONDocument` and its nodes: blocks, inlines, texts, marks,
 * fragments, tables), replaced by `true` in our copy of GitBook's document: the Document format has its
 * own test against GitBook's schemas (contract/document.ts, test/content-document-*.test.ts), so a page's,
 * comment's or reusable content's `document` is not checked twice here, and the shapes around it are.
 */
export function isDocumentSchema(name: string): boolean {
  return name === 'JSONDocument' || name === 'Document' || /^Document(Block|Inline|Text|Mark|Fragment|Table|Action)/.test(name);
}

const schemas: Json = Object.fromEntries(
  Object.entries(gitbookSpec.components.schemas as Json).map(([name, schema]) => [name, isDocumentSchema(name) ? true : schema]),
);
const document = { ...gitbookSpec, components: { ...gitbookSpec.components, schemas } };

// `strict: false`: OpenAPI adds keywords (`discriminator`, `example`, …) that plain JSON Schema does not know.
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
// GitBook's own formats, for which it publishes no definition: any string.
for (const format of ['emoji', 'icon']) ajv.addFormat(format, true);
ajv.addSchema(document, 'gitbook.json');

/** GitBook's operations by id: method, path and operation object. */
export const gitbookOperations = new Map<string, { method: string; path: string; operation: Json }>(
  Object.entries(gitbookSpec.paths as Json).flatMap(([path, item]) =>
    ['get', 'post', 'put', 'patch', 'delete'].filter((m) => item[m]).map((m) => [item[m].operationId as string, { method: m, path, operation: item[m] as Json }] as const),
  ),
);

/** Our operations (generated/openapi.json) whose operation id GitBook's API also has. */
export const sharedOperations: SpecOperation[] = specOperations.filter((op) => gitbookOperations.has(op.operationId));

/** The object a `$ref` of GitBook's document points to (or the object itself when it is no reference). */
export function resolveGitbook(node: Json | undefined): Json | undefined {
  if (!node?.$ref) return node;
  const pointer = (node.$ref as string).replace(/^#\//, '').split('/');
  return resolveGitbook(pointer.reduce((n: Json, key) => n?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], gitbookSpec));
}

const validators = new Map<string, ValidateFunction | null>();

function compiled(key: string, schema: Json | undefined): ValidateFunction | null {
  if (!validators.has(key)) {
    // Refs inside the schema are relative to GitBook's whole document.
    validators.set(key, schema ? ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"gitbook.json#/components/'))) : null);
  }
  return validators.get(key)!;
}

/** GitBook's JSON schema of an operation's answer with `status`, or undefined when GitBook declares no JSON body for it. */
export function gitbookResponseSchema(operationId: string, status: number): Json | undefined {
  const responses = gitbookOperations.get(operationId)?.operation.responses as Json | undefined;
  const response = resolveGitbook(responses?.[String(status)] ?? responses?.[`${String(status)[0]}XX`] ?? responses?.default);
  return response?.content?.['application/json']?.schema;
}

/** GitBook's JSON schema of an operation's request body, or undefined when it takes none. */
export function gitbookRequestSchema(operationId: string): Json | undefined {
  const body = resolveGitbook(gitbookOperations.get(operationId)?.operation.requestBody);
  return body?.content?.['application/json']?.schema;
}

function problems(validate: ValidateFunction, value: unknown, what: string): string[] {
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${what}: ${e.instancePath || '(body)'} ${e.message} ${e.params ? JSON.stringify(e.params) : ''}`.trim());
}

/** Why an answer of ours does not have GitBook's shape for the same operation and status: empty when it does. */
export function gitbookResponseProblems(operationId: string, status: number, body: unknown): string[] {
  const responses = gitbookOperations.get(operationId)?.operation.responses as Json | undefined;
  if (!responses?.[String(status)] && !responses?.[`${String(status)[0]}XX`] && !responses?.default) return [`${operationId}: GitBook declares no ${status} answer`];
  const validate = compiled(`response ${operationId} ${status}`, gitbookResponseSchema(operationId, status));
  if (!validate) return body === undefined || body === '' ? [] : [`${operationId} ${status}: GitBook declares no JSON body, we answered one`];
  return problems(validate, body, `${operationId} ${status}`);
}

/** Why a request body does not have GitBook's shape for the same operation: empty when it does. */
export function gitbookRequestProblems(operationId: string, body: unknown): string[] {
  const validate = compiled(`request ${operationId}`, gitbookRequestSchema(operationId));
  if (!validate) return body === undefined ? [] : [`${operationId}: GitBook's operation takes no JSON body`];
  return problems(validate, body, `${operationId} request`);
}
