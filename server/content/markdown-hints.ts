// GitBook's hint blocks in Markdown, for micromark and mdast (no library reads this syntax):
//
//   {% hint style="info" %}
//   Any blocks.
//   {% endhint %}
//
// Each marker line is read as one flow token (it interrupts a paragraph, so the markers need no blank
// lines around them); a transform then gathers the blocks between an opening and its closing marker,
// among the same siblings, into a `hint` node with its `style` (info, warning, danger or success, the
// public API's Document enum). A marker with no partner stays its text, in a paragraph. Writing, a
// `hint` is its markers around its blocks, and a text `{%` is escaped (`\{%`) so it never reads back as
// a marker. Used by the content conversions (markdown-document.ts) and the published site's renderer.
import type * as Md from 'mdast';
import type { Extension as FromMarkdownExtension, CompileContext } from 'mdast-util-from-markdown';
import type { Options as ToMarkdownExtension, Handle } from 'mdast-util-to-markdown';
import type { Code, Effects, Extension as MicromarkExtension, State, Token } from 'micromark-util-types';

export const hintStyles = ['info', 'warning', 'danger', 'success'] as const;
export type HintStyle = (typeof hintStyles)[number];

declare module 'micromark-util-types' {
  interface TokenTypeMap {
    gitbookHintMarker: 'gitbookHintMarker';
  }
}

/** A hint: a styled container of blocks. */
export interface Hint extends Md.Parent {
  type: 'hint';
  style: HintStyle;
  children: Md.BlockContent[];
}

/** One marker line, before the transform pairs it (or turns it back into text). */
interface HintMarker extends Md.Literal {
  type: 'hintMarker';
}

declare module 'mdast' {
  interface RootContentMap {
    hint: Hint;
    hintMarker: HintMarker;
  }
  interface BlockContentMap {
    hint: Hint;
  }
}

const opening = /^\{%\s*hint\s+style="(info|warning|danger|success)"\s*%\}\s*$/;
const closing = /^\{%\s*endhint\s*%\}\s*$/;
const isLineEnd = (code: Code) => code === null || code === -5 || code === -4 || code === -3;

/** micromark: a whole line `{% hint style="…" %}` or `{% endhint %}` is a `gitbookHintMarker` token. */
export function hintSyntax(): MicromarkExtension {
  return {
    flow: {
      123: {
        name: 'gitbookHintMarker',
        tokenize(effects: Effects, ok: State, nok: State): State {
          let line = '';
          const rest: State = (code) => {
            if (isLineEnd(code)) {
              if (!opening.test(line) && !closing.test(line)) return nok(code);
              effects.exit('gitbookHintMarker');
              return ok(code);
            }
            // Tabs and virtual spaces (negative codes) are whitespace; a marker is short.
            line += (code as number) < 0 ? ' ' : String.fromCodePoint(code as number);
            if (line.length > 200) return nok(code);
            effects.consume(code);
            return rest;
          };
          return (code) => {
            effects.enter('gitbookHintMarker');
            return rest(code);
          };
        },
      },
    },
  };
}

/** Pairs the markers among `children` (nested hints too) into hints; lone markers become paragraphs. */
function gather(children: Md.RootContent[]): Md.RootContent[] {
  const out: Md.RootContent[] = [];
  const open: { hint: Hint; marker: HintMarker; into: Md.RootContent[] }[] = [];
  let into = out;
  for (const child of children) {
    if ('children' in child) (child as Md.Parent).children = gather((child as Md.Parent).children);
    if (child.type !== 'hintMarker') {
      into.push(child);
      continue;
    }
    const style = opening.exec(child.value)?.[1] as HintStyle | undefined;
    if (style) {
      const hint: Hint = { type: 'hint', style, children: [], ...(child.position && { position: child.position }) };
      open.push({ hint, marker: child, into });
      into = hint.children as Md.RootContent[];
    } else if (open.length > 0) {
      const { hint, into: parent } = open.pop()!;
      parent.push(hint);
      into = parent;
    } else into.push(asText(child));
  }
  // Openings never closed: their marker is text again, and their blocks go back where they were.
  while (open.length > 0) {
    const { hint, marker, into: parent } = open.pop()!;
    parent.push(asText(marker), ...(hint.children as Md.RootContent[]));
  }
  return out;
}

function asText(marker: HintMarker): Md.Paragraph {
  return { type: 'paragraph', children: [{ type: 'text', value: marker.value.trim() }] };
}

/** mdast-util-from-markdown: marker tokens to marker nodes, then the transform that makes the hints. */
export function hintFromMarkdown(): FromMarkdownExtension {
  return {
    enter: {
      gitbookHintMarker(this: CompileContext, token: Token) {
        this.enter({ type: 'hintMarker', value: '' }, token);
      },
    },
    exit: {
      gitbookHintMarker(this: CompileContext, token: Token) {
        const node = this.stack[this.stack.length - 1] as HintMarker;
        node.value = this.sliceSerialize(token);
        this.exit(token);
      },
    },
    transforms: [
      (tree) => {
        tree.children = gather(tree.children);
      },
    ],
  };
}

const writeHint: Handle = (node: Hint, _parent, state, info) => {
  const inner = state.containerFlow(node, info);
  return `{% hint style="${node.style}" %}\n${inner}\n{% endhint %}`;
};

/** mdast-util-to-markdown: a hint as its markers around its blocks; a text `{%` escaped. */
export function hintToMarkdown(): ToMarkdownExtension {
  return {
    handlers: { hint: writeHint },
    unsafe: [{ character: '{', after: '%', atBreak: true }],
  };
}
