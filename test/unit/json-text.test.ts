// The answers' JSON text with registered values spliced in (server/http/json-text.ts) is byte for byte
// JSON.stringify's, wherever the values are and whatever the strings around them hold.
import { describe, expect, it } from 'vitest';
import { holdsOnceSerialized, jsonText, onceSerialized } from '../../server/http/json-text.js';

describe('jsonText', () => {
  it('writes a registered value at any depth, more than once, as JSON.stringify does', () => {
    const doc = onceSerialized({ object: 'document', nodes: [{ object: 'block', type: 'paragraph', text: 'a "quoted" \u0000 text' }] });
    const body = holdsOnceSerialized({ id: 'p1', title: 'Say "\u0000x:0"', document: doc, pages: [{ id: 'p2', document: doc, hidden: false }], empty: [] as unknown[] });
    expect(jsonText(body)).toBe(JSON.stringify(body));
    expect(JSON.parse(jsonText(body))).toEqual(body);
  });

  it('writes the text kept at registration: the value is not serialized again', () => {
    const doc = onceSerialized({ nodes: [1, 2] });
    // Changing a registered value is not allowed; here it shows the kept text is what is written.
    (doc.nodes as number[]).push(3);
    expect(jsonText(holdsOnceSerialized({ document: doc }))).toBe('{"document":{"nodes":[1,2]}}');
  });

  it('writes unmarked answers and plain values with JSON.stringify', () => {
    const doc = onceSerialized({ a: 1 });
    const body = { document: doc, n: null, s: 'x' };
    expect(jsonText(body)).toBe(JSON.stringify(body));
    expect(jsonText('text')).toBe('"text"');
    expect(jsonText(null)).toBe('null');
    expect(jsonText(holdsOnceSerialized({ none: [1, { b: 2 }] }))).toBe('{"none":[1,{"b":2}]}');
  });
});
