// Which blocks GitBook lets a block hold (@gitbook/api's `DocumentBlock*` schemas: a hint holds no code, a
// tab no table, a quote no code, an expandable's body no expandable, a list item no expandable, …), and the
// fitting of blocks Markdown nested otherwise. Markdown nests anything in anything; GitBook's Document does
// not, and a Document that breaks its rules is not GitBook's (its renderer and clients reject it). Fitting
// keeps every block and its order: a container is split around a child it may not hold, the child
// coming out between the two parts (a hint with a code block in its middle becomes hint, code, hint). A
// part left with nothing is dropped; a list, tabs, stepper, columns or updates whose item is split is
// split with it (an ordered list's second part starts where the first stopped). The table is checked
// against GitBook's spec by test/gitbook-nesting.test.ts, so the two cannot drift.
import type { Block, Fragment } from './markdown-document.js';

const essentials = ['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider'];
const stepLike = [...essentials, 'blockquote', 'code', 'content-ref', 'drawing', 'embed', 'file', 'hint', 'images', 'integration', 'math', 'prompt'];
const anywhere = [
  ...stepLike,
  'columns', 'expandable', 'if', 'openapi-operation', 'openapi-schemas', 'openapi-webhook', 'reusable-content', 'stepper', 'swagger', 'table', 'tabs', 'updates',
];

/** The block types each container of blocks may hold, by GitBook's schemas; `(document)` is the top level. */
export const allowedChildren: Record<string, ReadonlySet<string>> = {
  hint: new Set([...essentials, 'embed', 'integration', 'table']),
  blockquote: new Set([...essentials, 'blockquote']),
  'list-item': new Set([...essentials, 'blockquote', 'code', 'hint', 'math', 'table']),
  'tabs-item': new Set(stepLike),
  'stepper-step': new Set([...stepLike, 'expandable']),
  column: new Set([...stepLike, 'expandable', 'stepper', 'table']),
  update: new Set([...stepLike, 'expandable', 'tabs']),
  if: new Set(anywhere),
  'expandable-body': new Set([...essentials, 'file', 'images', 'code', 'table', 'hint', 'prompt', 'blockquote', 'reusable-content', 'integration']),
  '(document)': new Set(anywhere),
};

/** Blocks that hold only items of one type (a list its list items, tabs their tabs): split when an item is. */
const itemOf: Record<string, string> = {
  'list-ordered': 'list-item',
  'list-unordered': 'list-item',
  'list-tasks': 'list-item',
  tabs: 'tabs-item',
  stepper: 'stepper-step',
  columns: 'column',
  updates: 'update',
};

const itemTypes = new Set(Object.values(itemOf));

const isBlock = (n: unknown): n is Block => (n as Block).object === 'block';

/** A copy of a container holding `nodes`: the first part keeps its key, the others get theirs when stored. */
function part(container: Block, nodes: Block[], first: boolean): Block {
  const { key: _key, ...rest } = container;
  return { ...(first ? container : rest), nodes };
}

/** Splits `children` into runs of blocks `allowed` (each given to `wrap`) and the blocks between them. */
function splitRuns(children: Block[], allowed: ReadonlySet<string>, wrap: (nodes: Block[], first: boolean) => Block): Block[] {
  const out: Block[] = [];
  let run: Block[] = [];
  let first = true;
  const flush = () => {
    if (run.length === 0) return;
    out.push(wrap(run, first));
    first = false;
    run = [];
  };
  for (const child of children) {
    if (allowed.has(child.type)) run.push(child);
    else {
      flush();
      out.push(child);
    }
  }
  flush();
  return out;
}

/** A list-like block whose items were fitted: consecutive items kept together, the blocks that came out between them. */
function fitItems(b: Block, itemType: string): Block[] {
  const pieces = (b.nodes ?? []).filter(isBlock).flatMap(fitBlock);
  if (pieces.length === (b.nodes ?? []).length && pieces.every((p, i) => p === b.nodes![i])) return [b];
  let counted = 0;
  const start = typeof b.data?.start === 'number' ? b.data.start : 1;
  return splitRuns(pieces, new Set([itemType]), (nodes, first) => {
    const whole = part(b, nodes, first);
    // An ordered list continued after a block that came out of it goes on counting.
    const next = b.type === 'list-ordered' && !first ? { ...whole, data: { ...whole.data, start: start + counted } } : whole;
    counted += nodes.length;
    return next;
  });
}

/** The block as GitBook's rules allow: itself, or its parts and the blocks that came out of it, in order. */
export function fitBlock(b: Block): Block[] {
  const itemType = itemOf[b.type];
  if (itemType) return fitItems(b, itemType);
  if (b.type === 'expandable') return fitExpandable(b);
  const allowed = allowedChildren[b.type];
  if (!allowed || !b.nodes) return [b];
  const children = b.nodes.filter(isBlock);
  if (children.length === 0) return [b];
  const fitted = children.flatMap(fitBlock);
  if (fitted.every((c) => allowed.has(c.type)) && fitted.length === children.length && fitted.every((c, i) => c === children[i])) return [b];
  if (fitted.every((c) => allowed.has(c.type))) return [{ ...b, nodes: fitted }];
  // An item (a tab, a step, a list item…) whose first block came out keeps its place and title, empty.
  const keepsItself = itemTypes.has(b.type) && !allowed.has(fitted[0].type);
  const parts = splitRuns(fitted, allowed, (nodes, first) => part(b, nodes, first && !keepsItself));
  return keepsItself ? [part(b, [], true), ...parts] : parts;
}

/** An expandable whose body holds what it may not: parts with the same title, the blocks between them. */
function fitExpandable(b: Block): Block[] {
  const body = b.fragments?.find((f) => f.type === 'expandable-body');
  if (!body) return [b];
  const children = body.nodes.filter(isBlock);
  const fitted = children.flatMap(fitBlock);
  const allowed = allowedChildren['expandable-body'];
  const withBody = (nodes: Block[], first: boolean): Block => {
    const fragments = (b.fragments ?? []).map((f): Fragment => (f === body ? { ...f, nodes } : f));
    const { key: _key, ...rest } = b;
    return { ...(first ? b : rest), fragments };
  };
  if (fitted.length === children.length && fitted.every((c, i) => c === children[i]) && fitted.every((c) => allowed.has(c.type))) return [b];
  if (fitted.every((c) => allowed.has(c.type))) return [withBody(fitted, true)];
  if (fitted.length === 0 || allowed.has(fitted[0].type)) return splitRuns(fitted, allowed, withBody);
  // The body's first block came out: the title stays first, on its own (a body fragment needs a block).
  const titleOnly: Block = { ...b, fragments: (b.fragments ?? []).filter((f) => f !== body) };
  return [titleOnly, ...splitRuns(fitted, allowed, (nodes) => withBody(nodes, false))];
}

/** Top-level blocks as GitBook's rules allow (the same array when they already do). */
export function fitBlocks(blocks: Block[]): Block[] {
  const fitted = blocks.flatMap(fitBlock);
  return fitted.length === blocks.length && fitted.every((b, i) => b === blocks[i]) ? blocks : fitted;
}
