// Rich text and content references, shared by comments, change requests, translations, agent
// instructions and space content.
import { z } from './zod.js';

export const topLevelBlockTypes = [
  'paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider',
  'blockquote', 'hint', 'prompt', 'images', 'file', 'drawing', 'embed', 'code', 'math', 'expandable', 'tabs', 'table',
  'swagger', 'openapi-operation', 'openapi-schemas', 'openapi-webhook', 'content-ref', 'integration', 'reusable-content',
  'stepper', 'if', 'columns', 'updates',
] as const;
export const nestedBlockTypes = ['list-item', 'code-line', 'image', 'tabs-item', 'stepper-step', 'column', 'update', 'table-row', 'table-cell'] as const;
export const inlineTypes = ['link', 'inline-image', 'emoji', 'inline-math', 'annotation', 'mention', 'expression', 'icon', 'button'] as const;
/** The marks GitBook's editor gives text; a mark of another type is kept as given. */
export const markTypes = ['bold', 'italic', 'strikethrough', 'code', 'keyboard', 'color', 'superscript', 'subscript'] as const;

export interface DocumentTextShape {
  object: 'text';
  leaves: { object: 'leaf'; text: string; marks?: { object?: 'mark'; type: string; data?: Record<string, unknown> }[] }[];
}

export const DocumentText: z.ZodType<DocumentTextShape> = z
  .object({
    object: z.literal('text'),
    leaves: z
      .array(
        z.object({
          object: z.literal('leaf'),
          text: z.string().max(100_000),
          marks: z
            .array(
              z.object({
                object: z.literal('mark').optional(),
                type: z.string().max(50),
                data: z.record(z.string(), z.unknown()).optional().openapi({ description: 'For `color`: `text` and `background`, colour names.' }),
              }),
            )
            .max(20)
            .optional()
            .openapi({ description: 'Formatting of the text: `bold`, `italic`, `strikethrough`, `code`, `keyboard`, `color`, `superscript`, `subscript`.' }),
        }),
      )
      .max(1000),
  })
  .openapi('DocumentText', { description: 'A run of text inside a block.' });

export interface DocumentInlineShape {
  object: 'inline';
  type: (typeof inlineTypes)[number];
  key?: string;
  isVoid?: boolean;
  data?: Record<string, unknown>;
  nodes?: (DocumentTextShape | DocumentInlineShape)[];
}

export const DocumentInline: z.ZodType<DocumentInlineShape> = z
  .object({
    object: z.literal('inline'),
    type: z.enum(inlineTypes),
    key: z.string().max(100).optional(),
    isVoid: z.boolean().optional(),
    data: z.record(z.string(), z.unknown()).openapi({
      description: 'For `link`: `ref` (a content reference; Markdown links are `{kind: url}`) and `title`; for `inline-image`: `ref`, `alt`, `caption`.',
    }).optional(),
    nodes: z.array(z.lazy(() => z.union([DocumentText, DocumentInline]))).max(10_000).optional(),
  })
  .openapi('DocumentInline', { description: 'An inline node inside a block: a link, an image, …' });

export interface DocumentBlockShape {
  object: 'block';
  type: (typeof topLevelBlockTypes)[number] | (typeof nestedBlockTypes)[number];
  key?: string;
  isVoid?: boolean;
  data?: { align?: 'start' | 'center' | 'end' } & Record<string, unknown>;
  nodes?: (DocumentBlockShape | DocumentTextShape | DocumentInlineShape)[];
}

export const DocumentBlock: z.ZodType<DocumentBlockShape> = z
  .object({
    object: z.literal('block'),
    type: z.enum([...topLevelBlockTypes, ...nestedBlockTypes]),
    key: z.string().max(100).openapi({
      description:
        'Stable identity of the block in its page: it survives edits of other blocks and of the block itself; comments (`node`) and `revert_page.block` name blocks by it.',
    }).optional(),
    isVoid: z.boolean().optional(),
    data: z.looseObject({ align: z.enum(['start', 'center', 'end']).optional() }).optional(),
    nodes: z.array(z.lazy(() => z.union([DocumentBlock, DocumentText, DocumentInline]))).max(10_000).optional(),
  })
  .openapi('DocumentBlock', {
    description:
      'A block of a rich-text document; blocks nest. A `table` holds `table-row` blocks (the first is the header row) of `table-cell` blocks, with `data.alignments` (one per column: left, center, right or none). A `hint` holds blocks, with `data.style` (info, warning, danger or success); in Markdown it is `{% hint style=\"…\" %}` … `{% endhint %}`.',
  });

export const documentExample = {
  object: 'document' as const,
  data: { schemaVersion: 1 },
  nodes: [
    {
      object: 'block' as const,
      type: 'paragraph' as const,
      key: 'b7fQz2',
      nodes: [{ object: 'text' as const, leaves: [{ object: 'leaf' as const, text: 'Answer in a friendly, concise tone.' }] }],
    },
  ],
};

export const Document = z
  .object({
    object: z.literal('document'),
    data: z.looseObject({ schemaVersion: z.number().int().optional() }).optional(),
    nodes: z.array(DocumentBlock).max(10_000),
  })
  .openapi('Document', { description: 'A rich-text document: a tree of blocks.', example: documentExample });

const space = z.string().optional();

export type ContentRefShape =
  | { kind: 'file'; file: string; space?: string }
  | { kind: 'url'; url: string }
  | { kind: 'page'; page: string; space?: string }
  | { kind: 'anchor'; anchor: string; page?: string; space?: string }
  | { kind: 'user'; user: string }
  | { kind: 'collection'; collection: string }
  | { kind: 'space'; space: string }
  | { kind: 'reusable-content'; reusableContent: string; space?: string }
  | { kind: 'tag'; tag: string; space?: string }
  | { kind: 'openapi'; spec: string };

export const ContentRef = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('file'), file: z.string(), space }),
    z.object({ kind: z.literal('url'), url: z.string() }),
    z.object({ kind: z.literal('page'), page: z.string(), space }),
    z.object({ kind: z.literal('anchor'), anchor: z.string(), page: z.string().optional(), space }),
    z.object({ kind: z.literal('user'), user: z.string() }),
    z.object({ kind: z.literal('collection'), collection: z.string() }),
    z.object({ kind: z.literal('space'), space: z.string() }),
    z.object({ kind: z.literal('reusable-content'), reusableContent: z.string(), space }),
    z.object({ kind: z.literal('tag'), tag: z.string(), space }),
    z.object({ kind: z.literal('openapi'), spec: z.string() }),
  ])
  .openapi('ContentRef', {
    description: 'A reference to a piece of content: a file, a URL, a page, an OpenAPI specification, …',
    example: { kind: 'file', file: 'fil_01JD3QC8M2ZR7TB' },
  });
