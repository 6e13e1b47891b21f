// The translatable text of a page's Document, and the Document rebuilt with translated text. Texts are
// taken from the structure, block by block in document order: the leaves of text runs (without the
// `code` mark) and the titles, captions and alternative texts blocks and inlines carry in `data`. Code
// blocks, math, references, URLs, keys and every other part of a block are never sent, so a translator
// cannot change them, and every block (hints, tabs, expandables, …) keeps its form in the translation.
// A page whose texts all come back unchanged keeps its Document as it was.
import { childrenOf } from '../content/document-walk.js';
import type { Block, Document, Inline, Text } from '../content/markdown-document.js';

/** A parsed page: its translatable texts, in document order, and how to put translations back. */
export interface DocumentText {
  /** The texts to translate (each without its leading and trailing white space). */
  readonly texts: string[];
  /** The Document with `translated[i]` in place of `texts[i]`; the source itself when nothing changed. */
  rebuild(translated: string[]): Document;
}

/** Blocks whose content is not prose: never sent. */
const untranslatedBlocks = new Set(['code', 'math', 'drawing', 'swagger', 'openapi-operation', 'openapi-schemas', 'openapi-webhook', 'integration', 'reusable-content', 'embed']);
/** Text fields of `data` that readers see. */
const dataTexts = ['title', 'caption', 'alt', 'label'];

/** Whether a text has anything a translator could change: some letter (not only digits, punctuation or symbols). */
function hasWords(text: string): boolean {
  return /\p{L}/u.test(text);
}

/** Splits a text into leading white space, the words, and trailing white space (translators trim). */
function splitSpace(value: string): [string, string, string] {
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(value)!;
  return [match[1], match[2], match[3]];
}

/** A link shown as its own address (a bare `https://…`, an email address): the text is the URL. */
function isAutolink(link: Inline): boolean {
  const ref = (link.data as { ref?: { kind?: string; url?: string } } | undefined)?.ref;
  if (link.type !== 'link' || ref?.kind !== 'url' || typeof ref.url !== 'string') return false;
  const shown = (link.nodes ?? []).map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : '')).join('');
  return ref.url === shown || ref.url === `mailto:${shown}` || ref.url === `http://${shown}` || ref.url === `https://${shown}`;
}

/** A place a text was read from, and how to write its translation there (on the copy). */
interface Slot {
  parts: [string, string, string];
  set(value: string): void;
}

type Node = Block | Inline | Text;

/** Reads the texts of a copy of the document; setting a slot changes the copy. */
function slotsOf(copy: Document): Slot[] {
  const slots: Slot[] = [];
  const add = (value: string, set: (v: string) => void) => {
    if (hasWords(value)) slots.push({ parts: splitSpace(value), set });
  };
  const walk = (node: Node) => {
    if (node.object === 'text') {
      for (const leaf of node.leaves) {
        if ((leaf.marks ?? []).some((m) => m.type === 'code')) continue;
        add(leaf.text, (v) => (leaf.text = v));
      }
      return;
    }
    if (node.object === 'block' && untranslatedBlocks.has(node.type)) return;
    if (node.object === 'inline' && isAutolink(node)) return;
    const data = node.data as Record<string, unknown> | undefined;
    if (data) for (const field of dataTexts) if (typeof data[field] === 'string') add(data[field], (v) => (data[field] = v));
    for (const child of childrenOf<Node>(node)) walk(child);
  };
  for (const block of copy.nodes) walk(block);
  return slots;
}

/** Parses a page's Document. */
export function documentText(document: Document): DocumentText {
  const copy = structuredClone(document);
  const slots = slotsOf(copy);
  return {
    texts: slots.map((s) => s.parts[1]),
    rebuild(translated) {
      if (translated.length !== slots.length) throw new Error(`Expected ${slots.length} translated texts, got ${translated.length}`);
      if (translated.every((t, i) => t === slots[i].parts[1])) return document;
      slots.forEach((slot, i) => slot.set(`${slot.parts[0]}${translated[i].trim()}${slot.parts[2]}`));
      return copy;
    },
  };
}
