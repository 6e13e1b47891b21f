// The `request` of renderIntegrationUIWithGet: a RenderIntegrationUI body's JSON compressed with LZ-string's
// compressToEncodedURIComponent (what GitBook's renderer puts in the URL), decompressed and checked against the
// same schema as the POST body, its problems named under `query.request`.
import lzString from 'lz-string';
import type { z } from 'zod';
import { RenderIntegrationUI } from '../../contract/integration-ui.js';
import { BadRequest } from '../errors.js';
import { validatePart } from '../http/validation.js';
import { z as zod } from '../../contract/zod.js';

const holder = zod.object({ request: RenderIntegrationUI });

/** The body `request` stands for; a BadRequest naming `query.request` (or the field within it) when it is not one. */
export function renderRequestOf(request: string): z.output<typeof RenderIntegrationUI> {
  const json = lzString.decompressFromEncodedURIComponent(request);
  let value: unknown;
  try {
    if (!json) throw new Error('empty');
    value = JSON.parse(json);
  } catch {
    throw new BadRequest('Invalid request: query.request: not LZ-string compressed JSON (compressToEncodedURIComponent of a RenderIntegrationUI body)');
  }
  return validatePart('query', holder, { request: value }).request;
}
