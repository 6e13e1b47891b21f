// Rich text and content references, shared by pages, comments, change requests, translations, agent
// instructions and reusable content: GitBook's own Document JSON (`JSONDocument` and its `Document*`
// family in @gitbook/api's spec), schema for schema and name for name, so that every GitBook client reads
// what this API returns. test/document-contract.test.ts compares each schema with GitBook's, so the two
// cannot drift. Objects are loose where GitBook's are open (a key GitBook allows is kept, never stripped)
// and strict where GitBook forbids other keys. Unions are discriminated by `type` (or `kind`), so an
// invalid node is refused naming its path and rule (`nodes.3.data.records: …`).
import { z } from './zod.js';

// ---------------------------------------------------------------------------------------------------
// Shapes the server works with: one loose type per node kind (the schemas below are exact).

export interface DocumentMarkShape {
  object: 'mark';
  type: (typeof markTypes)[number];
  data?: { text: DocumentTextColorValue; background: DocumentTextColorValue };
}
export interface DocumentLeafShape {
  object: 'leaf';
  text: string;
  marks: DocumentMarkShape[];
}
export interface DocumentTextShape {
  object: 'text';
  key?: string;
  leaves: DocumentLeafShape[];
}
export interface DocumentFragmentShape {
  object: 'fragment';
  key?: string;
  fragment?: string;
  type?: string;
  nodes: DocumentBlockShape[];
}
export interface DocumentInlineShape {
  object: 'inline';
  type: (typeof inlineTypes)[number];
  key?: string;
  isVoid?: boolean;
  data?: Record<string, unknown>;
  nodes?: (DocumentTextShape | DocumentInlineShape)[];
  fragments?: DocumentFragmentShape[];
}
export interface DocumentBlockShape {
  object: 'block';
  type: BlockType;
  key?: string;
  isVoid?: boolean;
  data?: Record<string, unknown>;
  meta?: Record<string, unknown>;
  nodes?: (DocumentBlockShape | DocumentTextShape | DocumentInlineShape)[];
  fragments?: DocumentFragmentShape[];
}
export interface DocumentShape {
  object: 'document';
  data: { schemaVersion?: number } & Record<string, unknown>;
  nodes: DocumentBlockShape[];
  meta?: { token?: string };
}

export const topLevelBlockTypes = [
  'paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider',
  'blockquote', 'hint', 'prompt', 'images', 'file', 'drawing', 'embed', 'code', 'math', 'expandable', 'tabs', 'table',
  'swagger', 'openapi-operation', 'openapi-schemas', 'openapi-webhook', 'content-ref', 'integration', 'reusable-content',
  'stepper', 'if', 'columns', 'updates',
] as const;
export const nestedBlockTypes = ['list-item', 'code-line', 'image', 'tabs-item', 'stepper-step', 'column', 'update'] as const;
export type BlockType = (typeof topLevelBlockTypes)[number] | (typeof nestedBlockTypes)[number];
export const inlineTypes = ['link', 'inline-image', 'emoji', 'inline-math', 'annotation', 'mention', 'expression', 'icon', 'button'] as const;
export const markTypes = ['bold', 'italic', 'code', 'keyboard', 'strikethrough', 'color', 'superscript', 'subscript'] as const;
/** Blocks whose `isVoid` is `true` (GitBook fixes it per type; the others are `false`). */
export const voidBlockTypes: ReadonlySet<string> = new Set([
  'divider', 'embed', 'integration', 'table', 'math', 'image', 'file', 'drawing', 'reusable-content', 'expandable',
  'content-ref', 'swagger', 'openapi-operation', 'openapi-schemas', 'openapi-webhook',
]);
export const voidInlineTypes: ReadonlySet<string> = new Set(['inline-image', 'emoji', 'icon', 'expression', 'inline-math', 'mention', 'button']);

// ---------------------------------------------------------------------------------------------------
// Shared values GitBook's Document family refers to (inlined: they are not Document schemas).

const TextAlignment = z.enum(['start', 'center', 'end']);
const VerticalAlignment = z.enum(['top', 'middle', 'bottom']);
const Length = z.union([z.number(), z.looseObject({ unit: z.string(), value: z.number() })]);
const Icon = z.string().max(50).openapi({ description: 'Name of the icon', format: 'icon' });
const Timestamp = z.string().openapi({ format: 'date-time' }).refine((s) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d{2}-\d{2}T/.test(s), 'must be a date-time (RFC 3339)');
const PlainObject = z.record(z.string(), z.unknown()).openapi({ description: 'Properties passed to the block during rendering (strings, booleans, numbers, arrays and objects of them).' });
const ContentKitAction = z.looseObject({ action: z.string() }).openapi({ description: 'The action of the integration block.' });
const blockMeta = z.looseObject({ id: z.string().openapi({ description: 'Unique ID to be used in an URL for the block.' }) });
const key = z.string().max(100);
const isVoid = (value: boolean) => z.literal(value);

// ---------------------------------------------------------------------------------------------------
// Marks, leaves, texts

export const DocumentTextColor = z
  .enum(['default', 'green', 'blue', 'red', 'orange', 'yellow', 'purple', 'pink', 'violet', 'cyan', '$primary', '$info', '$success', '$warning', '$danger', '$tint'])
  .openapi('DocumentTextColor', { description: 'Colour tokens of colour marks (text and background).' });
type DocumentTextColorValue = z.infer<typeof DocumentTextColor>;
export const DocumentTextBackgroundColor = DocumentTextColor.openapi('DocumentTextBackgroundColor', { description: 'Colour tokens of a colour mark\'s background.' });

const simpleMark = <T extends string>(type: T, name: string) => z.looseObject({ object: z.literal('mark'), type: z.literal(type) }).openapi(name);
export const DocumentMarkBold = simpleMark('bold', 'DocumentMarkBold');
export const DocumentMarkItalic = simpleMark('italic', 'DocumentMarkItalic');
export const DocumentMarkCode = simpleMark('code', 'DocumentMarkCode');
export const DocumentMarkKeyboard = simpleMark('keyboard', 'DocumentMarkKeyboard');
export const DocumentMarkStrikethrough = simpleMark('strikethrough', 'DocumentMarkStrikethrough');
export const DocumentMarkSuperscript = simpleMark('superscript', 'DocumentMarkSuperscript');
export const DocumentMarkSubscript = simpleMark('subscript', 'DocumentMarkSubscript');
export const DocumentMarkColor = z
  .looseObject({
    object: z.literal('mark'),
    type: z.literal('color'),
    data: z.looseObject({ text: DocumentTextColor, background: DocumentTextColor }),
  })
  .openapi('DocumentMarkColor');
export const DocumentTextMark = z
  .discriminatedUnion('type', [DocumentMarkBold, DocumentMarkItalic, DocumentMarkCode, DocumentMarkKeyboard, DocumentMarkStrikethrough, DocumentMarkColor, DocumentMarkSuperscript, DocumentMarkSubscript])
  .openapi('DocumentTextMark');

export const DocumentTextLeaf = z
  .looseObject({
    object: z.literal('leaf'),
    text: z.string().max(100_000),
    marks: z.array(DocumentTextMark).max(20).openapi({ description: 'Formatting of the text, `[]` when it has none.' }),
  })
  .openapi('DocumentTextLeaf');

export const DocumentText = z
  .looseObject({ object: z.literal('text'), key: key.optional(), leaves: z.array(DocumentTextLeaf).max(1000) })
  .openapi('DocumentText', { description: 'A run of text inside a block.' });

// ---------------------------------------------------------------------------------------------------
// Content references

const inSpace = (what: string) => z.string().optional().openapi({ description: `ID of the space the ${what} is in; the current space if none is provided.` });
export const ContentRefURL = z.looseObject({ kind: z.literal('url'), url: z.string() }).openapi('ContentRefURL');
export const ContentRefFile = z.looseObject({ kind: z.literal('file'), file: z.string(), space: inSpace('file') }).openapi('ContentRefFile');
export const ContentRefPage = z.looseObject({ kind: z.literal('page'), page: z.string(), space: inSpace('page') }).openapi('ContentRefPage');
export const ContentRefAnchor = z
  .looseObject({ kind: z.literal('anchor'), anchor: z.string(), space: inSpace('page'), page: z.string().optional().openapi({ description: 'ID of the page the anchor is in; the current page if none is provided.' }) })
  .openapi('ContentRefAnchor');
export const ContentRefUser = z.looseObject({ kind: z.literal('user'), user: z.string() }).openapi('ContentRefUser');
export const ContentRefCollection = z.looseObject({ kind: z.literal('collection'), collection: z.string() }).openapi('ContentRefCollection');
export const ContentRefSpace = z.looseObject({ kind: z.literal('space'), space: z.string() }).openapi('ContentRefSpace');
export const ContentRefReusableContent = z
  .looseObject({ kind: z.literal('reusable-content'), reusableContent: z.string(), space: inSpace('reusable content') })
  .openapi('ContentRefReusableContent');
export const ContentRefTag = z
  .looseObject({ kind: z.literal('tag'), tag: z.string().openapi({ description: 'The slug of the tag.' }), space: inSpace('tag') })
  .openapi('ContentRefTag');
export const ContentRefOpenAPI = z.looseObject({ kind: z.literal('openapi'), spec: z.string().openapi({ description: 'Slug of the OpenAPI specification' }) }).openapi('ContentRefOpenAPI');

export const ContentRef = z
  .discriminatedUnion('kind', [ContentRefFile, ContentRefURL, ContentRefPage, ContentRefAnchor, ContentRefUser, ContentRefCollection, ContentRefSpace, ContentRefReusableContent, ContentRefTag, ContentRefOpenAPI])
  .openapi('ContentRef', {
    description: 'A reference to a piece of content: a file, a URL, a page, an OpenAPI specification, …',
    example: { kind: 'file', file: 'fil_01JD3QC8M2ZR7TB' },
  });
export type ContentRefShape = z.infer<typeof ContentRef>;
const urlOrFile = z.discriminatedUnion('kind', [ContentRefURL, ContentRefFile]);
const fileOrUrl = z.discriminatedUnion('kind', [ContentRefFile, ContentRefURL]);

// ---------------------------------------------------------------------------------------------------
// Inlines

const inline = <T extends string>(type: T) => ({ object: z.literal('inline'), type: z.literal(type), key: key.optional() });

export const DocumentInlineImage = z
  .looseObject({
    ...inline('inline-image'),
    data: z.looseObject({ ref: urlOrFile, refDark: urlOrFile.optional(), caption: z.string().optional(), alt: z.string().optional(), size: z.enum(['original', 'line']).optional() }),
    isVoid: isVoid(true),
  })
  .openapi('DocumentInlineImage');
export const DocumentInlineLink = z
  .looseObject({
    ...inline('link'),
    get nodes() {
      return z.array(z.discriminatedUnion('object', [DocumentText, DocumentInlineImage])).max(10_000);
    },
    data: z.looseObject({ ref: ContentRef }),
    isVoid: isVoid(false).optional(),
  })
  .openapi('DocumentInlineLink');
export const DocumentInlineEmoji = z.looseObject({ ...inline('emoji'), data: z.looseObject({ code: z.string() }), isVoid: isVoid(true) }).openapi('DocumentInlineEmoji');
export const DocumentInlineIcon = z
  .looseObject({ ...inline('icon'), data: z.looseObject({ icon: z.string(), color: DocumentTextColor.optional() }), isVoid: isVoid(true) })
  .openapi('DocumentInlineIcon');
export const DocumentInlineExpression = z
  .looseObject({ ...inline('expression'), data: z.looseObject({ expression: z.string() }), isVoid: isVoid(true) })
  .openapi('DocumentInlineExpression');
export const DocumentInlineMath = z.looseObject({ ...inline('inline-math'), data: z.looseObject({ formula: z.string() }), isVoid: isVoid(true) }).openapi('DocumentInlineMath');
export const DocumentInlineMention = z.looseObject({ ...inline('mention'), data: z.looseObject({ ref: ContentRef }), isVoid: isVoid(true) }).openapi('DocumentInlineMention');

export const DocumentAction = z
  .union([
    z.strictObject({ action: z.literal('search'), query: z.string().optional().openapi({ description: 'The search query to prefill.' }) }),
    z.strictObject({ action: z.literal('ask'), query: z.string().optional().openapi({ description: 'The question to prefill.' }) }),
    z.strictObject({ action: z.literal('select'), slug: z.string().openapi({ description: 'The slug of the option to select.' }) }),
  ])
  .openapi('DocumentAction', { description: 'Action to perform when an inline button is clicked.' });
export const DocumentInlineButton = z
  .looseObject({
    ...inline('button'),
    data: z.intersection(
      z.looseObject({ label: z.string(), kind: z.enum(['primary', 'secondary']), size: z.enum(['small', 'medium', 'large']).optional(), icon: Icon.optional() }),
      // GitBook closes these two objects (`additionalProperties: false`), so that no button with its required
      // label would validate; they are open here, the one reading under which GitBook's own buttons validate.
      z.union([z.looseObject({ ref: ContentRef }), z.looseObject({ action: DocumentAction })]),
    ),
    isVoid: isVoid(true),
  })
  .openapi('DocumentInlineButton');

export const DocumentInlineAnnotation: z.ZodType<DocumentInlineShape> = z
  .looseObject({
    ...inline('annotation'),
    get fragments() {
      return z
        .array(
          z.intersection(
            DocumentFragment,
            z.looseObject({ type: z.literal('annotation-body'), nodes: z.array(anyBlockOf([DocumentBlocksEssentials, DocumentBlockCode])).min(1) }),
          ),
        )
        .max(100);
    },
    isVoid: isVoid(false),
    nodes: z.array(DocumentText).max(10_000),
    data: z.strictObject({}).optional(),
  })
  .openapi('DocumentInlineAnnotation') as unknown as z.ZodType<DocumentInlineShape>;

export const DocumentInline: z.ZodType<DocumentInlineShape> = z
  .discriminatedUnion('type', [
    DocumentInlineLink,
    DocumentInlineEmoji,
    DocumentInlineIcon,
    DocumentInlineExpression,
    DocumentInlineMath,
    DocumentInlineImage,
    DocumentInlineAnnotation as never,
    DocumentInlineMention,
    DocumentInlineButton,
  ])
  .openapi('DocumentInline', { description: 'An inline node inside a block: a link, an image, a mention, …' }) as unknown as z.ZodType<DocumentInlineShape>;

// ---------------------------------------------------------------------------------------------------
// Blocks

const block = <T extends string>(type: T) => ({ object: z.literal('block'), type: z.literal(type), key: key.optional() });
const nodesOf = <T extends z.ZodType>(item: T) => z.array(item).max(10_000);
/** A union of block schemas, told apart by `type`, so a problem is reported inside the block that has it. */
const anyBlockOf = (options: z.ZodType[]) => z.discriminatedUnion('type', options as never) as unknown as z.ZodType<DocumentBlockShape>;
const lazyBlocks = (options: () => z.ZodType[]) => z.lazy(() => anyBlockOf(options()));
const textual = () => nodesOf(z.discriminatedUnion('object', [DocumentText, DocumentInline as never]));

/** A fragment: a named part of a block that is not among its children (a table's cell text, an expandable's title). */
export const DocumentFragment: z.ZodType<DocumentFragmentShape> = z
  .looseObject({
    object: z.literal('fragment'),
    key: key.optional(),
    fragment: z.string().max(100).optional(),
    type: z.string().max(100).optional(),
    get nodes() {
      return nodesOf(DocumentBlock);
    },
  })
  .openapi('DocumentFragment') as unknown as z.ZodType<DocumentFragmentShape>;

export const DocumentBlockParagraph = z
  .looseObject({
    ...block('paragraph'),
    get nodes() {
      return textual();
    },
    isVoid: isVoid(false).optional(),
    data: z.strictObject({ align: TextAlignment.optional() }).optional(),
  })
  .openapi('DocumentBlockParagraph');
export const DocumentBlockHeading = z
  .looseObject({
    object: z.literal('block'),
    type: z.enum(['heading-1', 'heading-2', 'heading-3']),
    key: key.optional(),
    get nodes() {
      return textual();
    },
    data: z.looseObject({ id: z.string().regex(/^[-a-z0-9.+_]+$/).optional(), align: TextAlignment.optional() }),
    meta: blockMeta.optional(),
    isVoid: isVoid(false).optional(),
  })
  .openapi('DocumentBlockHeading');
export const DocumentBlockCodeLine = z
  .looseObject({
    ...block('code-line'),
    get nodes() {
      return nodesOf(z.union([DocumentText, DocumentInlineAnnotation, DocumentInlineExpression]));
    },
    data: z.looseObject({ highlighted: z.boolean().optional() }),
    isVoid: isVoid(false).optional(),
  })
  .openapi('DocumentBlockCodeLine');
export const DocumentBlockCode = z
  .looseObject({
    ...block('code'),
    data: z.looseObject({
      syntax: z.string().optional(),
      title: z.string().optional(),
      overflow: z.enum(['scroll', 'wrap']).optional(),
      lineNumbers: z.boolean().optional(),
      fullWidth: z.boolean().optional(),
      expandable: z.boolean().optional(),
      collapsedLineCount: z.number().int().min(1).optional().openapi({ description: 'Number of lines rendered in a code block when it is collapsed' }),
    }),
    nodes: nodesOf(DocumentBlockCodeLine),
    isVoid: isVoid(false).optional(),
  })
  .openapi('DocumentBlockCode');
export const DocumentBlockListItem: z.ZodType<DocumentBlockShape> = z
  .looseObject({
    ...block('list-item'),
    get nodes() {
      return nodesOf(lazyBlocks(() => [DocumentBlocksEssentials, DocumentBlockCode, DocumentBlockHint, DocumentBlockQuote, DocumentBlockMath, DocumentBlockTable]));
    },
    isVoid: isVoid(false).optional(),
    data: z.looseObject({ checked: z.boolean().optional() }).optional(),
  })
  .openapi('DocumentBlockListItem') as unknown as z.ZodType<DocumentBlockShape>;
export const DocumentBlockListOrdered = z
  .looseObject({
    ...block('list-ordered'),
    data: z.looseObject({ start: z.number().optional().openapi({ description: 'An integer to start counting from for the list items.' }) }),
    nodes: nodesOf(DocumentBlockListItem),
    isVoid: isVoid(false).optional(),
  })
  .openapi('DocumentBlockListOrdered');
export const DocumentBlockListUnordered = z
  .looseObject({ ...block('list-unordered'), nodes: nodesOf(DocumentBlockListItem), data: z.strictObject({}).optional(), isVoid: isVoid(false).optional() })
  .openapi('DocumentBlockListUnordered');
export const DocumentBlockListTasks = z
  .looseObject({ ...block('list-tasks'), nodes: nodesOf(DocumentBlockListItem), isVoid: isVoid(false).optional(), data: z.strictObject({}).optional() })
  .openapi('DocumentBlockListTasks');
export const DocumentBlockDivider = z.looseObject({ ...block('divider'), isVoid: isVoid(true), data: z.strictObject({}) }).openapi('DocumentBlockDivider');

export const DocumentBlocksEssentials = z
  .discriminatedUnion('type', [DocumentBlockParagraph, DocumentBlockHeading, DocumentBlockListOrdered, DocumentBlockListUnordered, DocumentBlockListTasks, DocumentBlockDivider])
  .openapi('DocumentBlocksEssentials');

export const DocumentBlockEmbed = z
  .looseObject({ ...block('embed'), data: z.looseObject({ url: z.string(), fullWidth: z.boolean().optional() }), isVoid: isVoid(true) })
  .openapi('DocumentBlockEmbed');
export const DocumentBlockIntegration = z
  .looseObject({
    ...block('integration'),
    data: z.looseObject({
      integration: z.string().openapi({ description: 'Name of the integration' }),
      block: z.string().openapi({ description: 'ID of the block in the integration' }),
      props: PlainObject,
      action: ContentKitAction.optional(),
      url: z.string().optional().openapi({ description: 'URL associated with the content represented by the block.' }),
      fullWidth: z.boolean().optional(),
    }),
    isVoid: isVoid(true),
    meta: z.looseObject({ token: z.string().optional(), spaceId: z.string().optional() }).optional(),
  })
  .openapi('DocumentBlockIntegration');

// Tables: a void block; its columns are `definition`, its rows `records` (ordered by `orderIndex`), a
// text cell's rich content is the fragment whose `fragment` is the cell's value.
export const DocumentTableViewGrid = z
  .looseObject({
    type: z.literal('grid'),
    columns: z.array(z.string()).openapi({ description: 'Ordered list of the definition IDs to display' }),
    columnWidths: z.record(z.string(), z.number()).optional().openapi({ description: 'Percent width of each column' }),
    hideHeader: z.boolean().openapi({ description: 'Should we display the header with column titles' }),
    stickyHeader: z.boolean().optional(),
    stickyFirstColumn: z.boolean().optional(),
    useNewSizing: z.boolean().optional(),
  })
  .openapi('DocumentTableViewGrid');
export const DocumentTableViewCards = z
  .looseObject({
    type: z.literal('cards'),
    cardSize: z.enum(['medium', 'large']),
    columns: z.array(z.string()),
    targetDefinition: z.string().optional(),
    coverDefinition: z.string().optional(),
    coverDefinitionDark: z.string().optional(),
    hideColumnTitle: z.boolean().optional(),
    wrap: z.boolean().optional(),
  })
  .openapi('DocumentTableViewCards');
export const DocumentTableImageRecord = z
  .union([ContentRefFile, ContentRefURL, z.looseObject({ ref: fileOrUrl, objectFit: z.enum(['contain', 'fill', 'cover']).optional(), alt: z.string().optional() })])
  .openapi('DocumentTableImageRecord');
export const DocumentTableRecord = z
  .looseObject({
    orderIndex: z.string(),
    values: z.record(z.string(), z.union([z.number(), z.string().nullable(), z.boolean(), z.array(z.string()), ContentRef, DocumentTableImageRecord])),
  })
  .openapi('DocumentTableRecord');
const definitionBase = { id: z.string(), title: z.string().openapi({ description: 'Title for the column' }) };
export const DocumentTableDefinitionBase = z.looseObject(definitionBase).openapi('DocumentTableDefinitionBase', { description: 'What every column of a table has.' });
export const DocumentTableDefinitionText = z
  .looseObject({ ...definitionBase, type: z.literal('text'), textAlignment: z.enum(['center', 'right', 'left']), verticalAlignment: VerticalAlignment.optional() })
  .openapi('DocumentTableDefinitionText');
export const DocumentTableDefinitionNumber = z.looseObject({ ...definitionBase, type: z.literal('number') }).openapi('DocumentTableDefinitionNumber');
export const DocumentTableDefinitionCheckbox = z.looseObject({ ...definitionBase, type: z.literal('checkbox') }).openapi('DocumentTableDefinitionCheckbox');
export const DocumentTableDefinitionFiles = z.looseObject({ ...definitionBase, type: z.literal('files') }).openapi('DocumentTableDefinitionFiles');
export const DocumentTableDefinitionUsers = z.looseObject({ ...definitionBase, type: z.literal('users'), multiple: z.boolean() }).openapi('DocumentTableDefinitionUsers');
export const DocumentTableDefinitionRating = z.looseObject({ ...definitionBase, type: z.literal('rating'), max: z.number() }).openapi('DocumentTableDefinitionRating');
export const DocumentTableSelectOption = z.looseObject({ value: z.string(), label: z.string(), color: z.string() }).openapi('DocumentTableSelectOption');
export const DocumentTableDefinitionSelect = z
  .looseObject({ ...definitionBase, type: z.literal('select'), multiple: z.boolean(), options: z.array(DocumentTableSelectOption) })
  .openapi('DocumentTableDefinitionSelect');
export const DocumentTableDefinitionContentRef = z.looseObject({ ...definitionBase, type: z.literal('content-ref') }).openapi('DocumentTableDefinitionContentRef');
export const DocumentTableDefinitionImage = z.looseObject({ ...definitionBase, type: z.literal('image') }).openapi('DocumentTableDefinitionImage');
export const DocumentTableDefinition = z
  .discriminatedUnion('type', [
    DocumentTableDefinitionText,
    DocumentTableDefinitionNumber,
    DocumentTableDefinitionCheckbox,
    DocumentTableDefinitionFiles,
    DocumentTableDefinitionUsers,
    DocumentTableDefinitionRating,
    DocumentTableDefinitionSelect,
    DocumentTableDefinitionContentRef,
    DocumentTableDefinitionImage,
  ])
  .openapi('DocumentTableDefinition');
export const DocumentTableCellSpan = z.number().int().min(1).max(50).openapi('DocumentTableCellSpan', { description: 'Number of rows or columns covered by a table cell merge' });
export const DocumentTableCellMerge = z
  .looseObject({
    anchor: z.looseObject({ record: z.string(), column: z.string() }).openapi({ description: 'Cell at the top-left of the merged range' }),
    rowSpan: DocumentTableCellSpan,
    colSpan: DocumentTableCellSpan,
  })
  .openapi('DocumentTableCellMerge', { description: 'A range of merged table cells, anchored at its top-left cell.' });
export const DocumentBlockTable = z
  .looseObject({
    ...block('table'),
    isVoid: isVoid(true),
    data: z.looseObject({
      view: z.discriminatedUnion('type', [DocumentTableViewGrid, DocumentTableViewCards]),
      records: z.record(z.string(), DocumentTableRecord),
      definition: z.record(z.string(), DocumentTableDefinition),
      cellMerges: z.array(DocumentTableCellMerge).optional(),
      fullWidth: z.boolean().optional().openapi({ description: 'Whether to render the block as a full width one' }),
      search: z.boolean().optional(),
    }),
    get fragments() {
      return z.array(DocumentFragment).max(100_000);
    },
  })
  .openapi('DocumentBlockTable', {
    description:
      'A table: `data.definition` are its columns (by id; a `text` column\'s cell is the fragment named by the cell\'s value), `data.records` its rows (ordered by `orderIndex`), `data.view` how it shows (`grid` with its `columns` in order, or `cards`).',
  });

export const DocumentBlockHint = z
  .looseObject({
    ...block('hint'),
    data: z.looseObject({ style: z.enum(['info', 'warning', 'danger', 'success']), icon: Icon.optional() }),
    get nodes() {
      return nodesOf(anyBlockOf([DocumentBlocksEssentials, DocumentBlockEmbed, DocumentBlockIntegration, DocumentBlockTable]));
    },
    isVoid: isVoid(false).optional(),
  })
  .openapi('DocumentBlockHint');
export const DocumentBlockQuote: z.ZodType<DocumentBlockShape> = z
  .looseObject({
    ...block('blockquote'),
    get nodes() {
      return nodesOf(anyBlockOf([DocumentBlocksEssentials, DocumentBlockQuote]));
    },
    isVoid: isVoid(false).optional(),
    data: z.strictObject({}).optional(),
  })
  .openapi('DocumentBlockQuote') as unknown as z.ZodType<DocumentBlockShape>;
export const DocumentBlockMath = z.looseObject({ ...block('math'), data: z.looseObject({ formula: z.string() }), isVoid: isVoid(true) }).openapi('DocumentBlockMath');
export const DocumentBlockPrompt = z
  .looseObject({
    ...block('prompt'),
    data: z.strictObject({
      description: z.string(),
      icon: Icon.optional(),
      openInAIProviders: z.boolean().optional(),
      defaultExpanded: z.enum(['hidden', 'partial', 'full']).optional().openapi({ description: 'Controls how much of the prompt content is visible by default.' }),
    }),
    nodes: z.array(DocumentBlockCode).min(1).max(1),
    isVoid: isVoid(false).optional(),
  })
  .openapi('DocumentBlockPrompt');

export const DocumentBlockImage = z
  .looseObject({
    ...block('image'),
    data: z.looseObject({ ref: urlOrFile, refDark: urlOrFile.optional(), width: Length.optional(), height: Length.optional(), alt: z.string().optional() }),
    get fragments() {
      return z.array(z.intersection(DocumentFragment, z.looseObject({ fragment: z.literal('caption'), nodes: nodesOf(DocumentBlockParagraph) }))).max(10);
    },
    isVoid: isVoid(true),
  })
  .openapi('DocumentBlockImage');
export const DocumentBlockImages = z
  .looseObject({
    ...block('images'),
    data: z.looseObject({ align: z.enum(['center', 'left', 'right']).optional(), fullWidth: z.boolean().optional(), withFrame: z.boolean().optional() }),
    nodes: nodesOf(DocumentBlockImage),
    isVoid: isVoid(false),
  })
  .openapi('DocumentBlockImages');
export const DocumentBlockFile = z.looseObject({ ...block('file'), data: z.looseObject({ ref: ContentRefFile }), isVoid: isVoid(true) }).openapi('DocumentBlockFile');
export const DocumentBlockDrawing = z.looseObject({ ...block('drawing'), data: z.looseObject({ ref: ContentRefFile.optional() }), isVoid: isVoid(true) }).openapi('DocumentBlockDrawing');
export const DocumentBlockReusableContent = z
  .looseObject({
    ...block('reusable-content'),
    data: z.looseObject({ ref: ContentRefReusableContent }),
    isVoid: isVoid(true),
    meta: z.looseObject({ token: z.string().optional() }).optional(),
  })
  .openapi('DocumentBlockReusableContent');
export const DocumentBlockContentRef = z.looseObject({ ...block('content-ref'), data: z.looseObject({ ref: ContentRef }), isVoid: isVoid(true) }).openapi('DocumentBlockContentRef');
export const DocumentBlockExpandable = z
  .looseObject({
    ...block('expandable'),
    isVoid: isVoid(true),
    data: z.strictObject({ defaultExpanded: z.boolean().optional() }),
    get fragments() {
      return z
        .array(
          z.union([
            z.intersection(
              DocumentFragment,
              z.looseObject({ fragment: z.literal('expandable-title'), type: z.literal('expandable-title'), nodes: z.array(DocumentBlockParagraph).min(1).max(1) }),
            ),
            z.intersection(
              DocumentFragment,
              z.looseObject({
                fragment: z.literal('expandable-body'),
                type: z.literal('expandable-body'),
                nodes: nodesOf(
                  anyBlockOf([
                    DocumentBlocksEssentials,
                    DocumentBlockFile,
                    DocumentBlockImages,
                    DocumentBlockCode,
                    DocumentBlockTable,
                    DocumentBlockHint,
                    DocumentBlockPrompt,
                    DocumentBlockQuote,
                    DocumentBlockReusableContent,
                    DocumentBlockIntegration,
                  ]),
                ).min(1),
              }),
            ),
          ]),
        )
        .max(2);
    },
    meta: blockMeta.optional(),
  })
  .openapi('DocumentBlockExpandable', { description: 'A block that opens: its title and body are its `expandable-title` and `expandable-body` fragments.' });

const containerItems = () => [
  DocumentBlocksEssentials,
  DocumentBlockContentRef,
  DocumentBlockCode,
  DocumentBlockEmbed,
  DocumentBlockFile,
  DocumentBlockImages,
  DocumentBlockDrawing,
  DocumentBlockHint,
  DocumentBlockPrompt,
  DocumentBlockQuote,
  DocumentBlockMath,
  DocumentBlockIntegration,
];
export const DocumentBlockTabsItem = z
  .looseObject({
    ...block('tabs-item'),
    get nodes() {
      return nodesOf(anyBlockOf(containerItems()));
    },
    data: z.looseObject({ title: z.string().optional(), icon: Icon.optional(), slug: z.string().optional().openapi({ description: "Stable identifier for this tab's selection; derived from the title when omitted." }) }),
    meta: blockMeta.optional(),
    isVoid: isVoid(false).optional(),
  })
  .openapi('DocumentBlockTabsItem');
export const DocumentBlockTabs = z
  .looseObject({ ...block('tabs'), nodes: nodesOf(DocumentBlockTabsItem), isVoid: isVoid(false).optional(), data: z.strictObject({ fullWidth: z.boolean().optional() }).optional() })
  .openapi('DocumentBlockTabs');

const OpenAPIOperationPointer = z.looseObject({ path: z.string(), method: z.string() }).openapi({ description: 'Pointer to an operation in the OpenAPI spec.' });
const OpenAPISchemasPointer = z.looseObject({ grouped: z.boolean().optional(), schemas: z.array(z.string()), title: z.string().optional() }).openapi({ description: 'Pointer to schemas in the OpenAPI spec.' });
const OpenAPIWebhookPointer = z.looseObject({ name: z.string(), method: z.string() }).openapi({ description: 'Pointer to a webhook in the OpenAPI spec.' });
const headless = z.boolean().optional().openapi({ description: 'When true, the block omits its own title and description; the page renders them instead.' });
export const DocumentBlockOpenAPI = z
  .looseObject({
    ...block('swagger'),
    data: z.intersection(OpenAPIOperationPointer, z.looseObject({ ref: fileOrUrl, expanded: z.boolean().optional(), fullWidth: z.boolean().optional() })),
    isVoid: isVoid(true),
    meta: blockMeta.optional(),
  })
  .openapi('DocumentBlockOpenAPI');
export const DocumentBlockOpenAPIOperation = z
  .looseObject({ ...block('openapi-operation'), data: z.intersection(OpenAPIOperationPointer, z.looseObject({ ref: ContentRefOpenAPI, headless })), isVoid: isVoid(true), meta: blockMeta.optional() })
  .openapi('DocumentBlockOpenAPIOperation');
export const DocumentBlockOpenAPISchemas = z
  .looseObject({ ...block('openapi-schemas'), data: z.intersection(OpenAPISchemasPointer, z.looseObject({ ref: ContentRefOpenAPI })), isVoid: isVoid(true), meta: blockMeta.optional() })
  .openapi('DocumentBlockOpenAPISchemas');
export const DocumentBlockOpenAPIWebhook = z
  .looseObject({ ...block('openapi-webhook'), data: z.intersection(OpenAPIWebhookPointer, z.looseObject({ ref: ContentRefOpenAPI, headless })), isVoid: isVoid(true), meta: blockMeta.optional() })
  .openapi('DocumentBlockOpenAPIWebhook');

export const DocumentBlockStepperStep = z
  .looseObject({
    ...block('stepper-step'),
    get nodes() {
      return nodesOf(anyBlockOf([...containerItems(), DocumentBlockExpandable]));
    },
    data: z.looseObject({ icon: z.string().optional() }),
    isVoid: isVoid(false).optional(),
  })
  .openapi('DocumentBlockStepperStep');
export const DocumentBlockStepper = z
  .looseObject({ ...block('stepper'), nodes: nodesOf(DocumentBlockStepperStep), isVoid: isVoid(false).optional(), data: z.strictObject({}).optional() })
  .openapi('DocumentBlockStepper');
export const DocumentBlockColumn = z
  .looseObject({
    ...block('column'),
    get nodes() {
      return nodesOf(
        anyBlockOf([
          DocumentBlocksEssentials,
          DocumentBlockImages,
          DocumentBlockCode,
          DocumentBlockHint,
          DocumentBlockPrompt,
          DocumentBlockContentRef,
          DocumentBlockDrawing,
          DocumentBlockEmbed,
          DocumentBlockFile,
          DocumentBlockIntegration,
          DocumentBlockMath,
          DocumentBlockQuote,
          DocumentBlockTable,
          DocumentBlockExpandable,
          DocumentBlockStepper,
        ]),
      );
    },
    isVoid: isVoid(false).optional(),
    data: z.strictObject({ width: Length.optional(), verticalAlignment: VerticalAlignment.optional() }),
  })
  .openapi('DocumentBlockColumn');
export const DocumentBlockColumns = z
  .looseObject({ ...block('columns'), data: z.looseObject({ fullWidth: z.boolean().optional() }), nodes: nodesOf(DocumentBlockColumn), isVoid: isVoid(false) })
  .openapi('DocumentBlockColumns');
export const DocumentBlockUpdate = z
  .looseObject({
    ...block('update'),
    get nodes() {
      return nodesOf(anyBlockOf([...containerItems(), DocumentBlockTabs, DocumentBlockExpandable]));
    },
    data: z.looseObject({ date: Timestamp, tags: z.array(ContentRefTag).optional().openapi({ description: "Array of tags. Each tag is id'ed by its slug." }) }),
    isVoid: isVoid(false).optional(),
  })
  .openapi('DocumentBlockUpdate');
export const DocumentBlockUpdates = z
  .looseObject({ ...block('updates'), nodes: nodesOf(DocumentBlockUpdate), isVoid: isVoid(false).optional(), data: z.strictObject({ format: z.enum(['numeric', 'full', 'short']) }) })
  .openapi('DocumentBlockUpdates');

export const DocumentBlocksTopLevels: z.ZodType<DocumentBlockShape> = z
  .discriminatedUnion('type', [
    DocumentBlocksEssentials,
    DocumentBlockQuote as never,
    DocumentBlockHint,
    DocumentBlockPrompt,
    DocumentBlockImages,
    DocumentBlockFile,
    DocumentBlockDrawing,
    DocumentBlockEmbed,
    DocumentBlockCode,
    DocumentBlockMath,
    DocumentBlockExpandable,
    DocumentBlockTabs,
    DocumentBlockTable,
    DocumentBlockOpenAPI,
    DocumentBlockOpenAPIOperation,
    DocumentBlockOpenAPISchemas,
    DocumentBlockOpenAPIWebhook,
    DocumentBlockContentRef,
    DocumentBlockIntegration,
    DocumentBlockReusableContent,
    DocumentBlockStepper,
    z.lazy(() => DocumentBlockIf) as never,
    DocumentBlockColumns,
    DocumentBlockUpdates,
  ])
  .openapi('DocumentBlocksTopLevels', { description: 'A block that can be at the top level of a document.' }) as unknown as z.ZodType<DocumentBlockShape>;

export const DocumentBlockIf = z
  .looseObject({
    ...block('if'),
    get nodes() {
      return nodesOf(DocumentBlocksTopLevels);
    },
    isVoid: isVoid(false).optional(),
    data: z.looseObject({ expression: z.string() }),
  })
  .openapi('DocumentBlockIf');

export const DocumentBlock: z.ZodType<DocumentBlockShape> = z
  .discriminatedUnion('type', [
    DocumentBlockParagraph,
    DocumentBlockHeading,
    DocumentBlockListOrdered,
    DocumentBlockListUnordered,
    DocumentBlockListTasks,
    DocumentBlockListItem as never,
    DocumentBlockDivider,
    DocumentBlockQuote as never,
    DocumentBlockHint,
    DocumentBlockPrompt,
    DocumentBlockIf,
    DocumentBlockImages,
    DocumentBlockImage,
    DocumentBlockFile,
    DocumentBlockDrawing,
    DocumentBlockEmbed,
    DocumentBlockCode,
    DocumentBlockCodeLine,
    DocumentBlockMath,
    DocumentBlockExpandable,
    DocumentBlockTabs,
    DocumentBlockTabsItem,
    DocumentBlockTable,
    DocumentBlockOpenAPI,
    DocumentBlockOpenAPIOperation,
    DocumentBlockOpenAPISchemas,
    DocumentBlockOpenAPIWebhook,
    DocumentBlockContentRef,
    DocumentBlockIntegration,
    DocumentBlockReusableContent,
    DocumentBlockStepper,
    DocumentBlockStepperStep,
    DocumentBlockColumns,
    DocumentBlockColumn,
    DocumentBlockUpdates,
    DocumentBlockUpdate,
  ])
  .openapi('DocumentBlock', { description: 'A block of a rich-text document, at any depth.' }) as unknown as z.ZodType<DocumentBlockShape>;

// ---------------------------------------------------------------------------------------------------
// The document

export const documentExample = {
  object: 'document' as const,
  data: { schemaVersion: 1 },
  nodes: [
    {
      object: 'block' as const,
      type: 'paragraph' as const,
      key: 'b7fQz2',
      isVoid: false,
      data: {},
      nodes: [{ object: 'text' as const, leaves: [{ object: 'leaf' as const, text: 'Answer in a friendly, concise tone.', marks: [] }] }],
    },
  ],
};

export const Document: z.ZodType<DocumentShape> = z
  .looseObject({
    object: z.literal('document'),
    data: z.looseObject({ schemaVersion: z.number().int().optional().openapi({ description: 'The schema version of the document; the latest when undefined.' }) }),
    nodes: z.array(DocumentBlocksTopLevels).max(10_000),
    meta: z.looseObject({ token: z.string().optional().openapi({ description: 'A content token that can be used to fetch the content referenced in this document from the API.' }) }).optional(),
  })
  .openapi('Document', { description: "A rich-text document in GitBook's Document JSON (`JSONDocument`): a tree of blocks.", example: documentExample }) as unknown as z.ZodType<DocumentShape>;
