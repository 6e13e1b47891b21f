// JSON text of the API's answers, with the text of large immutable values written once: a page read in the
// `document` format answers a stored Document (shared, never changed: content-documents.ts) that
// JSON.stringify would otherwise write again on every read (a 500-block page's GitBook JSON is 270 kB).
// A value registered with `onceSerialized` keeps its text; an answer that holds such values
// (`holdsOnceSerialized`) is written with them spliced in, byte for byte what JSON.stringify writes.
import { randomBytes } from 'node:crypto';

/** The JSON text of values that never change, by the value. */
const texts = new WeakMap<object, string>();

/** Answers that hold some of those values (marked by whoever built them): only those take the slower path. */
const holders = new WeakSet<object>();

/** `value`, whose JSON text is written once and kept: it must never change afterwards. */
export function onceSerialized<T extends object>(value: T): T {
  if (!texts.has(value)) texts.set(value, JSON.stringify(value));
  return value;
}

/** `body`, marked as holding values registered with `onceSerialized` (at any depth). */
export function holdsOnceSerialized<T extends object>(body: T): T {
  holders.add(body);
  return body;
}

/** JSON.stringify(body), the registered values' kept texts spliced in where they are. */
export function jsonText(body: unknown): string {
  if (body === null || typeof body !== 'object' || !holders.has(body)) return JSON.stringify(body);
  // Each registered value stands in as a string naming it, unique to this call, and is replaced by its text.
  const tag = `\u0000${randomBytes(9).toString('base64url')}:`;
  const parts: string[] = [];
  const text = JSON.stringify(body, (_name, value: unknown) => {
    if (value === null || typeof value !== 'object') return value;
    const kept = texts.get(value);
    if (kept === undefined) return value;
    parts.push(kept);
    return `${tag}${parts.length - 1}`;
  });
  if (parts.length === 0) return text;
  const quotedTag = JSON.stringify(tag).slice(0, -1);
  const pieces = text.split(quotedTag);
  let out = pieces[0];
  for (let i = 1; i < pieces.length; i++) {
    // Each piece starts with `<index>"`: the index of the kept text, then the quote that closed the string.
    const end = pieces[i].indexOf('"');
    out += parts[Number(pieces[i].slice(0, end))] + pieces[i].slice(end + 1);
  }
  return out;
}
