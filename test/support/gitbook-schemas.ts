// GitBook's own shapes, from @gitbook/api's spec/openapi.json (OpenAPI 3.1: JSON Schema 2020-12), for tests
// that check what this server sends integrations (event payloads, ContentKit outputs) against them with Ajv.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const require = createRequire(import.meta.url);
const gitbookSpec = JSON.parse(readFileSync(require.resolve('@gitbook/api/spec/openapi.json'), 'utf8'));
// PlainObject lists its properties without `type: object`, so a string value of a PlainObject (`props: { content:
// 'graph TD' }`) matches two branches of its `oneOf` (PlainObject and string) and nothing with a string would ever
// validate; its intent is an object: said so here, the one change made to GitBook's schemas.
gitbookSpec.components.schemas.PlainObject = { type: 'object', ...gitbookSpec.components.schemas.PlainObject };

// `strict: false`: OpenAPI adds keywords (`example`, `deprecated`, …) that plain JSON Schema does not know.
const ajv = new Ajv2020({ strict: false, allErrors: true });
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
