// GitBook's tags are block structure, HTML blocks are not. CommonMark runs an HTML block (`<figure>…`,
// `<table>…`, `<div>…`) to the next blank line, so GitBook's own Git Sync, which writes a closing tag on
// the line right after the HTML (`<figure>…</figure>` then `{% endcolumn %}`), has the tag read as part
// of the HTML and the container falls apart. Here an HTML block holding a tag line ends before it: the
// lines from the tag on are read again as Markdown (`reparse`, the same parser with its tags left
// unpaired), so the tag pairs with its opening whatever HTML precedes it.
import type * as Md from 'mdast';

/** HTML blocks of CommonMark's kinds 1 to 5 end at their own closing (`</pre>`, `-->`, …), not at a blank line: their lines are never tags. */
const ownEnd = /^\s*<(?:(?:pre|script|style|textarea)[\s>/]|!|\?)/i;

/**
 * `nodes` with every HTML block that holds a tag line (`isTag`) cut before that line, the rest read by
 * `reparse` into nodes (themselves cut the same way).
 */
export function splitHtmlAtTags(nodes: Md.RootContent[], isTag: (line: string) => boolean, reparse: (markdown: string) => Md.RootContent[]): Md.RootContent[] {
  const out: Md.RootContent[] = [];
  for (const node of nodes) {
    if (node.type !== 'html' || ownEnd.test(node.value)) {
      out.push(node);
      continue;
    }
    const lines = node.value.split(/\r?\n/);
    // The first line is the HTML's own start: a tag line there would have been read as a tag.
    const at = lines.findIndex((line, i) => i > 0 && isTag(line));
    if (at < 0) {
      out.push(node);
      continue;
    }
    out.push({ type: 'html', value: lines.slice(0, at).join('\n') });
    out.push(...splitHtmlAtTags(reparse(lines.slice(at).join('\n')), isTag, reparse));
  }
  return out;
}
