// A hint inside a list item, which GitBook's Git Sync writes as HTML there (a `{% hint %}` tag line cannot
// sit in a list item's text): `<div data-gb-custom-block data-tag="hint" data-style="success" class="hint
// hint-success"><p>…</p></div>`. Read into a `hint` block (its style, its icon from `data-icon`), its blocks
// through the page's reader; written back the same way, built as a tree and serialized by hast-util-to-html.
import type { Element } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import type { DocumentBlockShape as Block } from '../../contract/document.js';
import { htmlToMdast, mdastToHtml, type HtmlReader, type HtmlWriter } from './markdown-html-mdast.js';
import { hintStyles, type HintStyle } from './markdown-liquid.js';

/** The hint of an HTML block that is one GitBook custom-block `<div data-tag="hint">`; undefined for any other HTML. */
export function customHintBlock(html: string, read: HtmlReader): Block | undefined {
  if (!/^\s*<div\s[^>]*\bdata-gb-custom-block\b/i.test(html)) return undefined;
  const parts = fromHtml(html, { fragment: true }).children.filter((c) => !(c.type === 'text' && c.value.trim() === ''));
  const div = parts[0];
  if (parts.length !== 1 || div.type !== 'element' || div.tagName !== 'div' || div.properties.dataTag !== 'hint') return undefined;
  const style = String(div.properties.dataStyle ?? 'info') as HintStyle;
  if (!hintStyles.includes(style)) return undefined;
  const icon = typeof div.properties.dataIcon === 'string' && div.properties.dataIcon !== '' ? div.properties.dataIcon : undefined;
  return { object: 'block', type: 'hint', data: { style, ...(icon && { icon }) }, nodes: read.blocks(htmlToMdast(div.children)) } as Block;
}

/** A hint in GitBook's custom-block HTML (see above). */
export function customHintHtml(b: Block, write: HtmlWriter): string {
  const data = (b.data ?? {}) as { style?: unknown; icon?: unknown };
  const style = hintStyles.includes(data.style as HintStyle) ? (data.style as HintStyle) : 'info';
  const blocks = (b.nodes ?? []).filter((n): n is Block => n.object === 'block');
  const properties: Element['properties'] = {
    dataGbCustomBlock: true,
    dataTag: 'hint',
    dataStyle: style,
    ...(typeof data.icon === 'string' && data.icon !== '' && { dataIcon: data.icon }),
    className: ['hint', `hint-${style}`],
  };
  return toHtml({ type: 'element', tagName: 'div', properties, children: mdastToHtml(write.blocks(blocks)) as Element['children'] });
}
