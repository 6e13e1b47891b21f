// What decides that a page needs translating again. After each run the translation records, per page id
// (and TITLE_UNIT for the space title), a hash of the source text together with what it was translated
// with: the provider and its model or server, the two languages and the instructions. A later run
// translates a page only when that hash differs, so a page is translated again when its text changed, and
// every page when the instructions changed or another translator was set up (a copy made before a
// translator existed is then really translated).
import { createHash } from 'node:crypto';
import type { TranslateRequest, Translator } from './translator.js';

export const TITLE_UNIT = '$title';

/** What every hash of one run shares: the translator, the languages and the instructions. */
export function runKey(translator: Translator, request: TranslateRequest): string {
  return JSON.stringify([translator.kind, translator.label, request.from, request.to, request.instructions ?? '']);
}

/** The hash of one unit's texts under a run key. */
export function unitHash(runKey: string, texts: string[]): string {
  return createHash('sha256').update(JSON.stringify([runKey, ...texts])).digest('base64url').slice(0, 22);
}
