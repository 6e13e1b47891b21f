// A GitBook tag's attributes (`{% code title="app.ts" lineNumbers="true" %}`) as its block's typed `data`
// and back, as GitBook's schema types them (@gitbook/api's openapi.json): booleans (`"true"`/`"false"`),
// integers, enums and lists (a comma-separated `tags="beta,new"`), in the order GitBook writes them. A
// value its type does not read (`overflow="sideways"`) and, for a block whose `data` GitBook closes, a name
// it does not know, are kept in the block's `meta.attributes` and written back from there, so nothing of
// the tag is lost and `data` stays valid.
import type { DocumentBlockShape as Block } from '../../contract/document.js';

type AttributeType = 'string' | 'boolean' | 'integer' | 'list' | readonly string[];

/** An attribute spec: the attributes GitBook's schema has for a block's data, in GitBook's order. */
export interface AttributeSpec {
  types: Record<string, AttributeType>;
  /** Whether GitBook's schema closes the block's data (other names go to `meta.attributes`). */
  closed?: boolean;
}

export const codeAttributes: AttributeSpec = {
  types: { title: 'string', overflow: ['scroll', 'wrap'], lineNumbers: 'boolean', fullWidth: 'boolean', expandable: 'boolean', collapsedLineCount: 'integer', expanded: 'boolean' },
};
export const tabAttributes: AttributeSpec = { types: { title: 'string', icon: 'string', slug: 'string' } };
export const updatesAttributes: AttributeSpec = { types: { format: ['numeric', 'full', 'short'] }, closed: true };
export const promptAttributes: AttributeSpec = {
  types: { description: 'string', icon: 'string', openInAIProviders: 'boolean', defaultExpanded: ['hidden', 'partial', 'full'] },
  closed: true,
};
/** `{% openapi src="…" path="…" method="…" %}` (`src` is the block's `ref`). */
export const swaggerAttributes: AttributeSpec = { types: { path: 'string', method: 'string', expanded: 'boolean', fullWidth: 'boolean' } };
/** `{% openapi-operation spec="…" path="…" method="…" %}` (`spec` is the block's `ref`). */
export const operationAttributes: AttributeSpec = { types: { path: 'string', method: 'string' } };
/** `{% openapi-webhook spec="…" name="…" method="…" %}` (`spec` is the block's `ref`). */
export const webhookAttributes: AttributeSpec = { types: { name: 'string', method: 'string' } };
/** `{% openapi-schemas spec="…" schemas="Pet,Order" grouped="false" %}` (`spec` is the block's `ref`). */
export const schemasAttributes: AttributeSpec = { types: { schemas: 'list', grouped: 'boolean', title: 'string' } };

const list = (value: string) =>
  value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');

function typed(type: AttributeType, value: string): unknown {
  if (type === 'string') return value;
  if (type === 'boolean') return value === 'true' ? true : value === 'false' ? false : undefined;
  if (type === 'integer') return /^[1-9]\d{0,8}$/.test(value) ? Number(value) : undefined;
  if (type === 'list') return list(value);
  return type.includes(value) ? value : undefined;
}

/** Attributes as typed data, and what is kept in `meta.attributes` (see above). */
export function readAttributes(spec: AttributeSpec, attributes: Record<string, string>): { data: Record<string, unknown>; kept: Record<string, string> } {
  const data: Record<string, unknown> = {};
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(attributes)) {
    const type = spec.types[name];
    const v = type === undefined ? (spec.closed ? undefined : value) : typed(type, value);
    if (v === undefined) kept[name] = value;
    else data[name] = v;
  }
  return { data, kept };
}

/** A block with `meta.attributes` when some were kept. */
export function withKept<T extends Block>(b: T, kept: Record<string, string>): T {
  return Object.keys(kept).length === 0 ? b : ({ ...b, meta: { ...b.meta, attributes: kept } } as T);
}

/** A block's typed data as tag attributes, in the spec's order, then those kept in `meta.attributes`. */
export function writeAttributes(spec: AttributeSpec, b: Block): Record<string, string> {
  const data = (b.data ?? {}) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const [name, type] of Object.entries(spec.types)) {
    const v = data[name];
    if (type === 'list' && Array.isArray(v)) out[name] = v.filter((x) => typeof x === 'string').join(',');
    else if (typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number') out[name] = String(v);
  }
  const kept = (b.meta as { attributes?: unknown } | undefined)?.attributes;
  if (kept && typeof kept === 'object') for (const [name, v] of Object.entries(kept)) if (typeof v === 'string' && !(name in out)) out[name] = v;
  return out;
}

/** An update's `tags="beta,new"` as GitBook's tag references, and back. */
export const tagRefs = (value: string) => list(value).map((tag) => ({ kind: 'tag' as const, tag }));
export const tagsAttribute = (tags: unknown): string | undefined => {
  if (!Array.isArray(tags)) return undefined;
  const names = tags.map((t) => (t as { tag?: unknown } | null)?.tag).filter((t): t is string => typeof t === 'string');
  return names.length === 0 ? undefined : names.join(',');
};

/** How a tag's attributes were written when not `name="value"` (markdown-liquid.ts), kept in `meta.attributeForms`. */
export type AttributeForms = Record<string, 'unquoted' | 'bare'>;

/**
 * `b` with the forms of the attributes of its tag that were not written `name="value"` (`lineNumbers=true`,
 * a flag `fullWidth`) in `meta.attributeForms`, so that they are written back so. An integration's prop
 * that is no text (`count=3`) is always written unquoted: its form is not kept.
 */
export function withForms(b: Block, tag: { name?: string; forms?: AttributeForms; values?: Record<string, unknown> }): Block {
  const forms = Object.entries(tag.forms ?? {}).filter(([name, form]) => !(tag.name?.startsWith('@') && form === 'unquoted' && name in (tag.values ?? {}) && typeof tag.values![name] !== 'string'));
  return forms.length === 0 ? b : ({ ...b, meta: { ...b.meta, attributeForms: Object.fromEntries(forms) } } as Block);
}

/** The forms `withForms` kept. */
export function formsOf(b: Block): AttributeForms | undefined {
  const forms = (b.meta as { attributeForms?: unknown } | undefined)?.attributeForms;
  if (!forms || typeof forms !== 'object') return undefined;
  return Object.fromEntries(Object.entries(forms).filter((e): e is [string, 'unquoted' | 'bare'] => e[1] === 'unquoted' || e[1] === 'bare'));
}
