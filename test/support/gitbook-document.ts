// GitBook's own published document (@gitbook/api's spec/openapi.json) and an Ajv validator of its
// Document family: what GitBook's clients expect a Document to be.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { gitbookSpec as published } from './gitbook-published.js';

export interface JsonSchema {
  [key: string]: unknown;
}

/** GitBook's spec, parsed (gitbook-published.ts). */
export const gitbookSpec = published as { components: { schemas: Record<string, JsonSchema> } };

/** The names of GitBook's Document family: the schemas our contract mirrors one for one. */
export const documentFamily = Object.keys(gitbookSpec.components.schemas).filter(
  (name) => name === 'JSONDocument' || name === 'DocumentAction' || /^(Document(Block|Inline|Text|Mark|Table|Fragment))|^ContentRef/.test(name),
);

let validator: ((value: unknown) => boolean) & { errors?: unknown } = undefined as never;

/** Validates a value against GitBook's `JSONDocument`; returns Ajv's errors, or undefined when it validates. */
export function gitbookDocumentErrors(document: unknown): unknown[] | undefined {
  if (!validator) {
    const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
    addFormats.default(ajv);
    ajv.addFormat('icon', true);
    ajv.addSchema({ $id: 'gitbook', components: gitbookSpec.components });
    validator = ajv.compile({ $ref: 'gitbook#/components/schemas/JSONDocument' }) as typeof validator;
  }
  return validator(document) ? undefined : (validator.errors as unknown[]);
}
