// Code blocks of published pages, highlighted on the server by Shiki (the TextMate grammars VS Code uses)
// with GitHub's light and dark themes at once: each token's light colour inline, its dark colour as
// `--shiki-dark` (site-css.ts switches). Shiki's JavaScript regex engine (no WebAssembly to start) and
// only the grammars a page uses, each imported the first time a page needs it; two themes are loaded
// once. A block is a figure-like <div class="code-block"> with a header (its title, else its language,
// and a copy button for site-script.ts), line numbers and wrapping when the block asks.
import type { Element, ElementContent } from 'hast';
import { createHighlighterCore, type HighlighterCore } from 'shiki/core';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import { bundledLanguages, bundledLanguagesInfo } from 'shiki/langs';

const LIGHT = 'github-light-default';
const DARK = 'github-dark-default';
/** Longer code is shown as it is: highlighting it would hold the server for too long. */
const MAX_HIGHLIGHTED = 100_000;

let highlighter: Promise<HighlighterCore> | undefined;
const highlighterOf = () =>
  (highlighter ??= createHighlighterCore({
    themes: [import('shiki/themes/github-light-default.mjs'), import('shiki/themes/github-dark-default.mjs')],
    langs: [],
    engine: createJavaScriptRegexEngine({ forgiving: true }),
  }));

const ids = new Map<string, string>();
for (const info of bundledLanguagesInfo) for (const name of [info.id, ...(info.aliases ?? [])]) ids.set(name, info.id);

/** The grammar id for a code block's language, when Shiki has one. */
export const grammarOf = (language: string | undefined) => (language ? ids.get(language.toLowerCase()) : undefined);

/** Loads the grammars of `languages` not loaded yet (each once), so the synchronous render finds them. */
export async function prepareHighlighter(languages: Iterable<string>): Promise<HighlighterCore> {
  const h = await highlighterOf();
  const loaded = new Set(h.getLoadedLanguages());
  for (const language of languages) {
    const id = grammarOf(language);
    if (id && !loaded.has(id)) {
      await h.loadLanguage(bundledLanguages[id as keyof typeof bundledLanguages]);
      // A grammar's first tokenizing with two themes gives the first theme's colour of the first token to
      // every token of the line (Shiki 4.6, JavaScript engine); once warmed up, it colours each right.
      h.codeToTokens('a = 1', { lang: id, themes: { light: LIGHT, dark: DARK } });
      loaded.add(id);
    }
  }
  return h;
}

export interface CodeOptions {
  language?: string;
  title?: string;
  lineNumbers?: boolean;
  wrap?: boolean;
}

const text = (value: string): ElementContent => ({ type: 'text', value });

/** The highlighted block of `code` (a loaded highlighter: prepareHighlighter first). */
export function codeBlock(h: HighlighterCore, code: string, options: CodeOptions): Element {
  const id = grammarOf(options.language);
  let pre: Element;
  if (id && code.length <= MAX_HIGHLIGHTED && h.getLoadedLanguages().includes(id)) {
    const root = h.codeToHast(code, { lang: id, themes: { light: LIGHT, dark: DARK }, defaultColor: 'light' });
    pre = root.children.find((c): c is Element => c.type === 'element' && c.tagName === 'pre')!;
  } else {
    // No grammar: the same lines, uncoloured, so line numbers and copying work alike.
    const lines = code.split('\n').flatMap((line, i): ElementContent[] => [...(i > 0 ? [text('\n')] : []), { type: 'element', tagName: 'span', properties: { className: ['line'] }, children: [text(line)] }]);
    pre = { type: 'element', tagName: 'pre', properties: { className: ['plain'], tabIndex: 0 }, children: [{ type: 'element', tagName: 'code', properties: {}, children: lines }] };
  }
  if (options.language) pre.properties = { ...pre.properties, dataLanguage: options.language };
  const label = options.title ?? options.language ?? '';
  const header: Element = {
    type: 'element',
    tagName: 'div',
    properties: { className: ['code-header'] },
    children: [
      { type: 'element', tagName: 'span', properties: { className: ['code-title'] }, children: [text(label)] },
      { type: 'element', tagName: 'button', properties: { type: 'button', className: ['copy'] }, children: [text('Copy')] },
    ],
  };
  const className = ['code-block', ...(options.lineNumbers ? ['line-numbers'] : []), ...(options.wrap ? ['wrap'] : [])];
  return { type: 'element', tagName: 'div', properties: { className }, children: [header, pre] };
}
