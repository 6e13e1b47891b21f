// GitBook's block tags in Markdown, as its Git Sync writes and reads them, for micromark and mdast (no
// library reads this syntax):
//
//   {% hint style="info" %}            {% tabs %}                     {% embed url="https://…" %}
//   Any blocks.                        {% tab title="npm" %}          {% file src="fil_…" %}
//   {% endhint %}                      …                              Caption.
//                                      {% endtab %}                   {% endfile %}
//                                      {% endtabs %}                  {% include "…/snippet.md" %}
//
// Each tag line is read as one flow token (it interrupts a paragraph, so tags need no blank lines around
// them); a transform then pairs an opening tag with its closing tag among the same siblings and gathers
// the blocks between into a node: a `hint` (with its `style`: info, warning, danger or success, and its
// `icon`) or a `liquid` node with the tag's name and attributes. `embed`, `file`, the OpenAPI tags and an
// integration's block (`{% @github-files/github-code-block url="…" %}`) may stand alone (no closing tag);
// `include` (a reusable content, its path or id quoted, read into the attribute `path`) always does. A
// condition, `{% if visitor.claims.unsigned.beta %}` … `{% endif %}`, has its expression as written in
// the attribute `expression`.
// Any other tag with no partner stays its text, in a paragraph. Writing, a node is its tags around its
// blocks, attribute values have `&`, `"` and line ends written as entities (an attribute read without quotes,
// `lineNumbers=true`, or as a flag alone, `fullWidth`, is written back so when it reads the same), and a text `{%` is escaped
// (`\{%`) so it never reads back as a tag. Used by the content conversions (markdown-document.ts), the
// published site's renderer and the PDF.
import type * as Md from 'mdast';
import type { CompileContext, Extension as FromMarkdownExtension } from 'mdast-util-from-markdown';
import type { Handle, Options as ToMarkdownExtension } from 'mdast-util-to-markdown';
import type { Code, Effects, Extension as MicromarkExtension, State, Token } from 'micromark-util-types';
import { splitHtmlAtTags } from './markdown-html-blocks.js';

export const hintStyles = ['info', 'warning', 'danger', 'success'] as const;
export type HintStyle = (typeof hintStyles)[number];

/** Tags that hold blocks and need their closing tag. */
const containerTags = ['hint', 'tabs', 'tab', 'stepper', 'step', 'columns', 'column', 'code', 'content-ref', 'updates', 'update', 'prompt', 'if'] as const;
/**
 * Tags that may stand alone, or hold a caption up to their closing tag: an OpenAPI block holds a link to its
 * specification; an integration's block (`{% @github-files/github-code-block url="…" %}`) is one line.
 */
const voidTags = ['embed', 'file', 'openapi', 'openapi-operation', 'openapi-webhook', 'openapi-schemas'] as const;
/** Tags that are one line, never holding anything. */
const lineTags = ['include'] as const;
/** An integration's block: `@integration/block`. */
export type IntegrationName = `@${string}/${string}`;
export type LiquidName = (typeof containerTags)[number] | (typeof voidTags)[number] | (typeof lineTags)[number] | IntegrationName;
const allTags = new Set<string>([...containerTags, ...voidTags]);
const integrationName = /^@[a-z0-9][a-z0-9_-]*\/[a-z0-9][a-z0-9_-]*$/i;
const isVoidName = (name: string) => (voidTags as readonly string[]).includes(name) || integrationName.test(name);

declare module 'micromark-util-types' {
  interface TokenTypeMap {
    gitbookTag: 'gitbookTag';
  }
}

/** A hint: a styled container of blocks. */
export interface Hint extends Md.Parent {
  type: 'hint';
  style: HintStyle;
  /** The hint's icon, in place of its style's. */
  icon?: string;
  /** The attributes not written `name="value"`, and how they were (as a Liquid node's). */
  forms?: Record<string, AttributeForm>;
  children: Md.BlockContent[];
}

/**
 * How an attribute was written when not `name="value"`: `name=value` (unquoted: a JSON value such as
 * `true`, `3`, `["a"]`, or a bare word) or `name` alone (a flag, `true`).
 */
export type AttributeForm = 'unquoted' | 'bare';

/** Any other tag pair (or lone void tag): its name, its attributes and the blocks between. */
export interface Liquid extends Md.Parent {
  type: 'liquid';
  name: LiquidName;
  /** Each attribute's text (an unquoted one as written, a flag `true`). */
  attributes: Record<string, string>;
  /** The attributes not written `name="value"`, and how they were. */
  forms?: Record<string, AttributeForm>;
  /** An unquoted attribute's value read as JSON (`3`, `true`, `{"a":1}`); absent when it is no JSON. */
  values?: Record<string, unknown>;
  children: Md.BlockContent[];
}

/** One tag line, before the transform pairs it (or turns it back into text). */
interface LiquidTag extends Md.Literal {
  type: 'liquidTag';
}

declare module 'mdast' {
  interface RootContentMap {
    hint: Hint;
    liquid: Liquid;
    liquidTag: LiquidTag;
  }
  interface BlockContentMap {
    hint: Hint;
    liquid: Liquid;
  }
}

const tagLine = /^\{%\s*(end)?([a-z][a-z-]*|@[\w-]+\/[\w-]+)((?:\s.*?)?)\s*%\}\s*$/;
/** A conditional block's opening: `{% if visitor.claims.unsigned.beta %}`, its expression as written. */
const ifLine = /^\{%\s*if\s+(.*?)\s*%\}\s*$/;
const includeLine = /^\{%\s*include\s+"([^"]*)"\s*%\}\s*$/;
const isLineEnd = (code: Code) => code === null || code === -5 || code === -4 || code === -3;

interface ParsedTag {
  closing: boolean;
  name: string;
  attributes: Record<string, string>;
  forms?: Record<string, AttributeForm>;
  values?: Record<string, unknown>;
}

function decode(value: string): string {
  return value.replace(/&(quot|amp|#10|#13|#37);/g, (_, e: string) => ({ quot: '"', amp: '&', '#10': '\n', '#13': '\r', '#37': '%' })[e]!);
}

export function encodeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/%\}/g, '&#37;}');
}

/** Where a JSON object or array starting at `at` ends (after its closing bracket); -1 when it does not. */
function jsonEnd(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      if (i >= text.length) return -1;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/**
 * A tag's attributes as GitBook's Markdown has them: `name="text"` (entities decoded), `name=value`
 * without quotes (a JSON value, `true`, `3`, `["a","b"]`, `{"a":1}`, or a bare word) and a flag `name`
 * alone; undefined when the text is none of these.
 */
function parseAttributes(text: string): Pick<ParsedTag, 'attributes' | 'forms' | 'values'> | undefined {
  const attributes: Record<string, string> = {};
  const forms: Record<string, AttributeForm> = {};
  const values: Record<string, unknown> = {};
  // Sticky expressions read at `at` without copying the rest of the line.
  const read = (pattern: RegExp, at: number) => {
    pattern.lastIndex = at;
    return pattern.exec(text)?.[0] ?? '';
  };
  let at = 0;
  for (;;) {
    const space = read(/\s*/y, at).length;
    if (at + space >= text.length) break;
    if (space === 0 && at > 0) return undefined;
    at += space;
    const name = read(/[A-Za-z][\w-]*/y, at);
    if (!name) return undefined;
    at += name.length;
    if (text[at] !== '=') {
      attributes[name] = 'true';
      forms[name] = 'bare';
      continue;
    }
    at++;
    if (text[at] === '"') {
      const close = text.indexOf('"', at + 1);
      if (close < 0) return undefined;
      attributes[name] = decode(text.slice(at + 1, close));
      at = close + 1;
      continue;
    }
    const end = text[at] === '{' || text[at] === '[' ? jsonEnd(text, at) : at + read(/[^\s"]*/y, at).length;
    if (end <= at) return undefined;
    const raw = text.slice(at, end);
    at = end;
    attributes[name] = raw;
    forms[name] = 'unquoted';
    try {
      values[name] = JSON.parse(raw);
    } catch {
      // A bare word: its text is its value.
    }
  }
  return { attributes, ...(Object.keys(forms).length > 0 && { forms }), ...(Object.keys(values).length > 0 && { values }) };
}

function parseTag(line: string): ParsedTag | undefined {
  const include = includeLine.exec(line);
  if (include) return { closing: false, name: 'include', attributes: { path: decode(include[1]) } };
  const condition = ifLine.exec(line);
  if (condition && condition[1] !== '' && !condition[1].includes('%}')) return { closing: false, name: 'if', attributes: { expression: condition[1] } };
  const match = tagLine.exec(line);
  if (!match || !(allTags.has(match[2]) || integrationName.test(match[2]))) return undefined;
  const parsed = parseAttributes(match[3]);
  if (!parsed || (match[1] === 'end' && match[3].trim() !== '')) return undefined;
  return { closing: match[1] === 'end', name: match[2], ...parsed };
}

/** micromark: a whole line `{% name … %}` or `{% endname %}` of a known tag is a `gitbookTag` token. */
export function liquidSyntax(): MicromarkExtension {
  return {
    flow: {
      123: {
        name: 'gitbookTag',
        tokenize(effects: Effects, ok: State, nok: State): State {
          let line = '';
          const rest: State = (code) => {
            if (isLineEnd(code)) {
              if (!parseTag(line)) return nok(code);
              effects.exit('gitbookTag');
              return ok(code);
            }
            // Tabs and virtual spaces (negative codes) are whitespace; a tag line is short.
            line += (code as number) < 0 ? ' ' : String.fromCodePoint(code as number);
            if (line.length > 4000) return nok(code);
            effects.consume(code);
            return rest;
          };
          return (code) => {
            effects.enter('gitbookTag');
            return rest(code);
          };
        },
      },
    },
  };
}

type Open = { node: Hint | Liquid; tag: LiquidTag; into: Md.RootContent[] };

function nodeOf(tag: ParsedTag, at: LiquidTag): Hint | Liquid | undefined {
  const position = at.position && { position: at.position };
  if (tag.name === 'hint') {
    const style = tag.attributes.style as HintStyle;
    if (!hintStyles.includes(style)) return undefined;
    const icon = tag.attributes.icon;
    return { type: 'hint', style, ...(icon !== undefined && icon !== '' && { icon }), ...(tag.forms && { forms: tag.forms }), children: [], ...position };
  }
  return { type: 'liquid', name: tag.name as LiquidName, attributes: tag.attributes, ...(tag.forms && { forms: tag.forms }), ...(tag.values && { values: tag.values }), children: [], ...position };
}

/** Whether a line is a tag line of a known tag (one the tokenizer reads as a tag). */
const isTagLine = (line: string) => parseTag(line.trim()) !== undefined;

/**
 * Pairs the tags among `children` (nested ones too) into nodes; lone tags become paragraphs. With `reparse`,
 * an HTML block holding a tag line is first cut before it (markdown-html-blocks.ts).
 */
function gather(input: Md.RootContent[], reparse?: Reparse): Md.RootContent[] {
  const children = reparse ? splitHtmlAtTags(input, isTagLine, reparse) : input;
  const out: Md.RootContent[] = [];
  const open: Open[] = [];
  let into = out;
  const closeVoids = () => {
    // A void tag still open when a tag of another name closes or the siblings end stands alone.
    while (open.length > 0 && open.at(-1)!.node.type === 'liquid' && isVoidName((open.at(-1)!.node as Liquid).name)) {
      const { node, into: parent } = open.pop()!;
      parent.push(node, ...(node.children as Md.RootContent[]));
      node.children = [];
      into = parent;
    }
  };
  for (const child of children) {
    if ('children' in child) (child as Md.Parent).children = gather((child as Md.Parent).children, reparse);
    if (child.type !== 'liquidTag') {
      into.push(child);
      continue;
    }
    const tag = parseTag(child.value);
    const node = tag && !tag.closing ? nodeOf(tag, child) : undefined;
    if (node && (lineTags as readonly string[]).includes(tag!.name)) {
      into.push(node);
      continue;
    }
    if (node) {
      open.push({ node, tag: child, into });
      into = node.children as Md.RootContent[];
      continue;
    }
    const name = tag?.closing ? tag.name : undefined;
    const matches = (o: Open) => (o.node.type === 'hint' ? 'hint' : o.node.name) === name;
    if (name && !matches(open.at(-1) ?? ({ node: { type: 'liquid', name: '' } } as unknown as Open))) closeVoids();
    const top = open.at(-1);
    if (name && top && matches(top)) {
      open.pop();
      top.into.push(top.node);
      into = top.into;
    } else into.push(asText(child));
  }
  closeVoids();
  // Openings never closed: their tag is text again, and their blocks go back where they were.
  while (open.length > 0) {
    const { node, tag, into: parent } = open.pop()!;
    if (node.type === 'liquid' && isVoidName(node.name)) parent.push(node, ...(node.children as Md.RootContent[]));
    else parent.push(asText(tag), ...(node.children as Md.RootContent[]));
    if (node.type === 'liquid' && isVoidName(node.name)) node.children = [];
  }
  return out;
}

function asText(tag: LiquidTag): Md.Paragraph {
  return { type: 'paragraph', children: [{ type: 'text', value: tag.value.trim() }] };
}

/** Markdown read into nodes with its tags left unpaired (the parser of liquidFromMarkdown with `pair: false`). */
export type Reparse = (markdown: string) => Md.RootContent[];

/**
 * mdast-util-from-markdown: tag tokens to tag nodes, then the transform that pairs them (unless `pair` is
 * false); `reparse` reads the rest of an HTML block that holds a tag line (markdown-html-blocks.ts).
 */
export function liquidFromMarkdown(options: { pair?: boolean; reparse?: Reparse } = {}): FromMarkdownExtension {
  return {
    enter: {
      gitbookTag(this: CompileContext, token: Token) {
        this.enter({ type: 'liquidTag', value: '' }, token);
      },
    },
    exit: {
      gitbookTag(this: CompileContext, token: Token) {
        const node = this.stack[this.stack.length - 1] as LiquidTag;
        node.value = this.sliceSerialize(token);
        this.exit(token);
      },
    },
    transforms:
      options.pair === false
        ? []
        : [
            (tree) => {
              tree.children = gather(tree.children, options.reparse);
            },
          ],
  };
}

/** An attribute as written: in its form when it reads back the same so (`lineNumbers=true`, `fullWidth`), else `name="value"`. */
function attributeText(name: string, value: string, form: AttributeForm | undefined): string {
  if (form === 'bare' && value === 'true') return ` ${name}`;
  // A flag no longer `true` is written as its value, unquoted.
  if ((form === 'unquoted' || form === 'bare') && !value.includes('%}')) {
    const read = parseAttributes(` ${name}=${value}`);
    if (read?.attributes[name] === value && Object.keys(read.attributes).length === 1) return ` ${name}=${value}`;
  }
  return ` ${name}="${encodeAttribute(value)}"`;
}

function openingTag(name: string, attributes: Record<string, string>, forms: Record<string, AttributeForm> = {}): string {
  const attrs = Object.entries(attributes).map(([k, v]) => attributeText(k, v, forms[k])).join('');
  return `{% ${name}${attrs} %}`;
}

/**
 * A container's blocks between its tags, the tags on the lines next to them as GitBook writes them (an HTML
 * block right before the closing tag is cut there when read: markdown-html-blocks.ts).
 */
function betweenTags(open: string, inner: string, close: string): string {
  return `${open}\n${inner}\n${close}`;
}

const writeHint: Handle = (node: Hint, _parent, state, info) => {
  const inner = state.containerFlow(node, info);
  return betweenTags(openingTag('hint', { style: node.style, ...(node.icon !== undefined && { icon: node.icon }) }, node.forms), inner, '{% endhint %}');
};

const writeLiquid: Handle = (node: Liquid, _parent, state, info) => {
  if (node.name === 'include') return `{% include "${encodeAttribute(node.attributes.path ?? '')}" %}`;
  // A condition is written as it was read; one that would end the tag early is not one GitBook reads.
  const open = node.name === 'if' ? `{% if ${(node.attributes.expression ?? '').replace(/%\}|[\r\n]/g, ' ')} %}` : openingTag(node.name, node.attributes, node.forms);
  if (isVoidName(node.name) && node.children.length === 0) return open;
  const inner = state.containerFlow(node, info);
  return betweenTags(open, inner, `{% end${node.name} %}`);
};

/** mdast-util-to-markdown: a node as its tags around its blocks; a text `{%` escaped. */
export function liquidToMarkdown(): ToMarkdownExtension {
  return {
    handlers: { hint: writeHint, liquid: writeLiquid },
    unsafe: [{ character: '{', after: '%', atBreak: true }],
  };
}
