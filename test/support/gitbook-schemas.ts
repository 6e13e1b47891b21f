// GitBook's own shapes, from @gitbook/api's spec/openapi.json (OpenAPI 3.1: JSON Schema 2020-12), for tests
// that check what this server sends integrations (event payloads, ContentKit outputs) against them with Ajv.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { gitbookSpec } from './gitbook-published.js';

// `strict: false`: OpenAPI adds keywords (`example`, `deprecated`, …) that plain JSON Schema does not know.
// `allErrors: false`: a payload may hold a Document, whose nested `oneOf`s take time exponential in its depth
// when every branch is walked to the end (test/support/spec.ts says more); the first error is enough to name.
const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats.default(ajv);
ajv.addSchema(gitbookSpec, 'gitbook.json');
const compiled = new Map<string, ValidateFunction>();

/** The errors of `value` against GitBook's component schema `name` (an empty list when it validates). */
export function gitbookSchemaErrors(name: string, value: unknown): string[] {
  if (!gitbookSpec.components.schemas[name]) throw new Error(`@gitbook/api has no schema ${name}`);
  let validate = compiled.get(name);
  if (!validate) {
    validate = ajv.compile({ $ref: `gitbook.json#/components/schemas/${name}` });
    compiled.set(name, validate);
  }
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
}
