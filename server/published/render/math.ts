// Math of published pages (`$$…$$` inline and as a block), typeset on the server by KaTeX as HTML (styled
// by KaTeX's own style sheet, site-assets.ts) and MathML (what screen readers read), so no script runs to
// show it. The TeX is the page's, untrusted: KaTeX's `trust` stays off (no \href, \url, \includegraphics,
// \htmlClass…), macro expansion and sizes are bounded, and an error shows the TeX in KaTeX's error colour
// instead of failing the page.
import type { Raw } from 'mdast-util-to-hast';
import katex from 'katex';

/** KaTeX's HTML for `tex`; the page writes it as it is (rehype-stringify's raw node), after sanitizing. */
export function mathHtml(tex: string, display: boolean): Raw {
  const value = katex.renderToString(tex, {
    displayMode: display,
    output: 'htmlAndMathml',
    throwOnError: false,
    trust: false,
    strict: 'ignore',
    maxSize: 50,
    maxExpand: 1000,
  });
  return { type: 'raw', value };
}
