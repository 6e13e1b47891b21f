// The opaque `next.page` cursor every list hands out: the sort-key values of the previous page's last
// row, as base64url JSON. Decoding checks the shape the list expects, so a forged cursor is a 400 naming
// `query.page`, never a value that reaches the database and fails there (a NUL, a malformed timestamp).
import { BadRequest } from '../errors.js';

export type CursorValue = string | number;

/** What one key of a cursor must hold: a string or a number, a string, or a timestamp as this API writes them. */
export type CursorKey = 'scalar' | 'string' | 'timestamp';

export function encodeCursor(values: CursorValue[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/** The values of `page`, one per key and each of its key's kind; a 400 otherwise. */
export function decodeCursor(page: string, keys: readonly CursorKey[]): CursorValue[] {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(values) || values.length !== keys.length || !values.every((v, i) => fits(v, keys[i]))) throw invalidCursor();
  return values;
}

/** The one-string cursor of lists keyed by an id alone. */
export function decodeIdCursor(page: string): string {
  return decodeCursor(page, ['string'])[0] as string;
}

export function invalidCursor(): BadRequest {
  return new BadRequest('Invalid request: query.page: not a page identifier returned by this list');
}

function fits(value: unknown, key: CursorKey): boolean {
  if (typeof value === 'string' && value.includes('\u0000')) return false;
  if (key === 'timestamp') return isCursorTimestamp(value);
  if (key === 'string') return typeof value === 'string';
  return typeof value === 'string' || typeof value === 'number';
}

/** Whether `value` is a timestamp as this API writes them (`Date#toISOString`). */
function isCursorTimestamp(value: unknown): value is string {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value)) && new Date(value).toISOString() === value;
}
