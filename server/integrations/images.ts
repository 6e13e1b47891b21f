// Icons and preview images arrive as base64 text. Their type is read from the bytes' signature, never
// from a name: anything that is not a PNG, JPEG, GIF, WebP or SVG image is refused.
import { BadRequest } from '../errors.js';

export interface Image {
  contentType: string;
  extension: string;
  /** The base64 text as received (stored as is, decoded when served). */
  base64: string;
}

function startsWith(bytes: Buffer, signature: number[], offset = 0): boolean {
  return bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);
}

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The image type of `bytes` by signature, or undefined. */
export function sniffImage(bytes: Buffer): { contentType: string; extension: string } | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { contentType: 'image/png', extension: 'png' };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { contentType: 'image/jpeg', extension: 'jpg' };
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return { contentType: 'image/gif', extension: 'gif' };
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return { contentType: 'image/webp', extension: 'webp' };
  // SVG is text: an optional BOM, XML declaration, comments or doctype, then an <svg> root element.
  const head = bytes.subarray(0, 4096).toString('utf8').replace(/^\uFEFF/, '');
  const prolog = /^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s/>]/i;
  if (prolog.test(head)) return { contentType: 'image/svg+xml', extension: 'svg' };
  return undefined;
}

/** Decodes and checks one base64 image; `field` names it in the error (e.g. `body.icon`). */
export function readImage(base64: string, field: string): Image {
  const bytes = Buffer.from(base64, 'base64');
  const kind = bytes.length > 0 ? sniffImage(bytes) : undefined;
  if (!kind) throw new BadRequest(`Invalid request: ${field}: not a PNG, JPEG, GIF, WebP or SVG image`);
  return { ...kind, base64 };
}
