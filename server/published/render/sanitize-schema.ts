// What of a page's content survives into the published site's HTML: GitHub's schema (hast-util-sanitize's
// default: no script, no style, no event handlers, no `javascript:` URLs, ids prefixed), extended only by
// what GitBook-flavoured Markdown says and this renderer reads back after sanitizing (blocks.ts): the
// placeholders of GitBook's block tags (liquid-hast.ts: `div.gb-*` with their attributes as `data-*`),
// hints, figures, <picture> light/dark images, cards views of tables (`data-view` and the columns' roles),
// buttons (`a.button.primary`, their `data-icon` and `data-action`), Font Awesome icons (`i.fa-*`), mention
// chips (`a.mention`, `span.mention`, written by markdown-document.ts for the site), custom blocks inside
// lists (`data-tag`) and marks. Every value that becomes a URL is an `href`/`src` the sanitizer's protocol check has seen.
import { defaultSchema, type Options as Schema } from 'rehype-sanitize';
import { hintStyles } from '../../content/markdown-liquid.js';

/** The placeholder classes of GitBook's block tags, as liquid-hast.ts writes them. */
export const tagClasses = ['gb-tabs', 'gb-tab', 'gb-stepper', 'gb-step', 'gb-columns', 'gb-column', 'gb-updates', 'gb-update', 'gb-code', 'gb-content-ref', 'gb-embed', 'gb-file'];

const attributes = defaultSchema.attributes ?? {};

/** What a mention chip names (markdown-document.ts). */
export const mentionKinds = ['page', 'space', 'user', 'file'];

export const sanitizeSchema: Schema = {
  ...defaultSchema,
  // A style sheet's text is not the page's text: dropped whole, as a script is.
  strip: [...(defaultSchema.strip ?? []), 'style'],
  tagNames: [...(defaultSchema.tagNames ?? []), 'aside', 'figure', 'figcaption', 'mark', 'picture', 'i'],
  attributes: {
    ...attributes,
    aside: [['className', 'hint', ...hintStyles.map((s) => `hint-${s}`)], ['role', 'note']],
    div: [...(attributes.div ?? []), ['className', ...tagClasses], 'dataTitle', 'dataLineNumbers', 'dataOverflow', 'dataWidth', 'dataDate', 'dataTag', 'dataStyle', 'dataGbCustomBlock'],
    a: [
      ...(attributes.a ?? []).filter((a) => !(Array.isArray(a) && a[0] === 'className')),
      ['className', 'data-footnote-backref', 'button', 'primary', 'secondary', 'mention'],
      ['dataMention', ...mentionKinds],
      ['dataIcon', /^[a-z0-9-]{1,60}$/],
      ['dataAction', 'search', 'ask', 'select'],
      'dataQuery',
      'dataSlug',
    ],
    span: [['className', 'mention'], ['dataMention', ...mentionKinds]],
    i: [['className', /^fa-[a-z0-9-]{1,60}$/]],
    table: [...(attributes.table ?? []), ['dataView', 'cards'], 'dataCardSize', 'dataFullWidth'],
    th: ['dataHidden', 'dataCardTarget', 'dataCardCover', 'dataType', 'width'],
    source: [...(attributes.source ?? []), 'media'],
    img: [...(attributes.img ?? []), 'width', 'height'],
  },
};
