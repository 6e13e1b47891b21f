// GitBook's block tags (markdown-liquid.ts: `{% tabs %}`, `{% code %}`, `{% embed %}`, …) and hints as hast,
// before sanitizing: each tag is a placeholder `div.gb-<tag>` holding its blocks, its attributes as
// `data-*` (the sanitizer keeps exactly these, sanitize-schema.ts), and the URL of an embed or a file as a
// link, so the sanitizer's protocol check sees it. blocks.ts then builds each block's real HTML.
import type { Element, ElementContent } from 'hast';
import type { State } from 'mdast-util-to-hast';
import type { Hint, Liquid } from '../../content/markdown-liquid.js';

/** A hint is an aside (a note beside the text) with its style as a class. */
export function hintToHast(state: State, node: Hint): Element {
  const element: Element = {
    type: 'element',
    tagName: 'aside',
    properties: { className: ['hint', `hint-${node.style}`], role: 'note' },
    children: state.wrap(state.all(node), true),
  };
  state.patch(node, element);
  return state.applyData(node, element);
}

/** The tag attributes kept, by tag, as the `data-*` attribute each becomes. */
const kept: Record<string, Record<string, string>> = {
  tab: { title: 'dataTitle' },
  column: { width: 'dataWidth' },
  update: { date: 'dataDate' },
  code: { title: 'dataTitle', lineNumbers: 'dataLineNumbers', overflow: 'dataOverflow' },
};

const link = (href: string, text: string): Element => ({ type: 'element', tagName: 'a', properties: { href }, children: [{ type: 'text', value: text }] });

/** A GitBook tag as its placeholder; `include` (a reusable content) shows nothing here, as before. */
export function liquidToHast(state: State, node: Liquid): Element | undefined {
  if (node.name === 'include') return undefined;
  const properties: Element['properties'] = { className: [`gb-${node.name}`] };
  for (const [name, property] of Object.entries(kept[node.name] ?? {})) {
    const value = node.attributes[name];
    if (value !== undefined) properties[property] = value;
  }
  const children: ElementContent[] = [];
  if (node.name === 'embed' && node.attributes.url) children.push(link(node.attributes.url, node.attributes.url));
  if (node.name === 'file' && node.attributes.src) children.push(link(node.attributes.src, node.attributes.src));
  children.push(...state.wrap(state.all(node), true));
  const element: Element = { type: 'element', tagName: 'div', properties, children };
  state.patch(node, element);
  return state.applyData(node, element);
}
