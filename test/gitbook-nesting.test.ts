// The blocks each block may hold (server/content/gitbook-nesting.ts) are GitBook's: read from
// @gitbook/api's schemas, container by container, so the two cannot drift; and fitting a nesting GitBook
// refuses keeps every block in order.
import { describe, expect, it } from 'vitest';
import { allowedChildren, fitBlocks } from '../server/content/gitbook-nesting.js';
import type { Block } from '../server/content/markdown-document.js';
import { gitbookSpec, type JsonSchema } from './support/gitbook-document.js';

const schemas = gitbookSpec.components.schemas;
const refName = (ref: string) => ref.split('/').pop()!;

/** The block types a schema (a block or a union of blocks) stands for. */
function typesOf(name: string): string[] {
  const schema = schemas[name] as JsonSchema & { properties?: { type?: { enum?: string[] } }; oneOf?: { $ref: string }[]; anyOf?: { $ref: string }[] };
  if (schema.properties?.type?.enum) return schema.properties.type.enum;
  return (schema.oneOf ?? schema.anyOf ?? []).flatMap((alt) => typesOf(refName(alt.$ref)));
}
const itemTypes = (items: { $ref?: string; oneOf?: { $ref: string }[] }) => new Set(items.$ref ? typesOf(refName(items.$ref)) : (items.oneOf ?? []).flatMap((a) => typesOf(refName(a.$ref))));

describe('GitBook block nesting', () => {
  it('allowedChildren is what @gitbook/api allows each container of blocks to hold', () => {
    const containers = ['hint', 'blockquote', 'list-item', 'tabs-item', 'stepper-step', 'column', 'update', 'if'];
    for (const [name, schema] of Object.entries(schemas) as [string, Record<string, any>][]) { // eslint-disable-line @typescript-eslint/no-explicit-any
      const type = schema.properties?.type?.enum?.[0];
      if (!/^DocumentBlock/.test(name) || !containers.includes(type)) continue;
      expect({ type, allowed: [...allowedChildren[type]].sort() }).toEqual({ type, allowed: [...itemTypes(schema.properties.nodes.items)].sort() });
    }
    const body = (schemas.DocumentBlockExpandable as any).properties.fragments.items.oneOf[1].allOf[1].properties.nodes.items; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect([...allowedChildren['expandable-body']].sort()).toEqual([...itemTypes(body)].sort());
    expect([...allowedChildren['(document)']].sort()).toEqual([...itemTypes((schemas.JSONDocument as any).properties.nodes.items)].sort()); // eslint-disable-line @typescript-eslint/no-explicit-any
  });

  it('splits a container around a block it may not hold, in order, and continues an ordered list’s numbering', () => {
    const p = (text: string): Block => ({ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });
    const code: Block = { object: 'block', type: 'code', data: {}, nodes: [] };
    const hint: Block = { object: 'block', type: 'hint', key: 'h', data: { style: 'info' }, nodes: [p('a'), code, p('b')] };
    const out = fitBlocks([hint]);
    expect(out.map((b) => [b.type, b.key])).toEqual([
      ['hint', 'h'],
      ['code', undefined],
      ['hint', undefined],
    ]);
    expect(out[2].data).toEqual({ style: 'info' });
    const item = (...nodes: Block[]): Block => ({ object: 'block', type: 'list-item', nodes });
    const table: Block = { object: 'block', type: 'expandable', isVoid: true, data: {}, fragments: [] };
    const list: Block = { object: 'block', type: 'list-ordered', data: { start: 3 }, nodes: [item(p('one')), item(p('two'), table), item(p('three'))] };
    const fitted = fitBlocks([list]);
    expect(fitted.map((b) => b.type)).toEqual(['list-ordered', 'expandable', 'list-ordered']);
    expect(fitted[0].nodes).toHaveLength(2);
    expect(fitted[2].data).toEqual({ start: 5 });
    const fine = [p('x'), hint.nodes![0] as Block];
    expect(fitBlocks(fine)).toBe(fine);
  });
});
