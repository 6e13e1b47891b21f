// The breaking-change gate (scripts/api-diff.ts, scripts/api-release.ts) on small documents: each kind
// of breaking change the issue names is caught (non-zero exit), additive ones pass (zero), and a release
// records the document and its changes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffDocuments, gateProblem, unwrapDescribedRefs } from '../scripts/api-diff.js';
import { release } from '../scripts/api-release.js';

type Json = Record<string, any>;
const dir = mkdtempSync(path.join(tmpdir(), 'api-diff-'));

const ok = { '200': { description: 'The thing.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } };
function base(): Json {
  return {
    openapi: '3.1.0',
    info: { title: 'Things', version: '1.0.0' },
    paths: {
      '/things': {
        get: { operationId: 'listThings', parameters: [{ name: 'limit', in: 'query', required: false, schema: { type: 'integer' } }], responses: ok },
        post: {
          operationId: 'createThing',
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingInput' } } } },
          responses: ok,
        },
      },
      '/other': { get: { operationId: 'getOther', responses: { '204': { description: 'Nothing.' } } } },
    },
    components: {
      schemas: {
        Thing: {
          type: 'object',
          required: ['object', 'id', 'kind'],
          properties: {
            object: { type: 'string', const: 'thing' },
            id: { type: 'string' },
            kind: { type: 'string', enum: ['a', 'b', 'c'] },
            value: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
            note: { type: 'string' },
          },
        },
        ThingInput: { type: 'object', required: ['kind'], properties: { kind: { type: 'string', enum: ['a', 'b', 'c'] }, note: { type: 'string' } } },
      },
    },
  };
}

let counter = 0;
function write(change: (d: Json) => void): string {
  const d = base();
  change(d);
  const file = path.join(dir, `doc-${++counter}.json`);
  writeFileSync(file, JSON.stringify(d, null, 1));
  return file;
}
const original = write(() => {});
const thing = (d: Json) => d.components.schemas.Thing;
const input = (d: Json) => d.components.schemas.ThingInput;

/** `npm run api:diff -- OLD NEW`, as a user runs it: its exit code and output. */
function apiDiff(newFile: string) {
  const run = spawnSync('npx', ['tsx', 'scripts/api-diff.ts', original, newFile], { encoding: 'utf8' });
  return { status: run.status, output: run.stdout + run.stderr };
}

// Each case runs Redocly (a second or two alone, much more on a loaded machine), some twice.
describe('api:diff, the breaking-change gate', { timeout: 180_000 }, () => {
  it.each([
    ['a removed response property', (d: Json) => delete thing(d).properties.note, /property-removed: Property `note`/],
    ['a new required query parameter', (d: Json) => d.paths['/things'].get.parameters.push({ name: 'must', in: 'query', required: true, schema: { type: 'string' } }), /parameter-became-required/],
    ['a removed operation', (d: Json) => delete d.paths['/other'], /path-removed|operation-removed/],
  ])('catches %s (exit 1)', (_name, change, message) => {
    const diff = diffDocuments(original, write(change));
    expect(diff.bump).toBe('major');
    expect(diff.changes.filter((c) => c.impact === 'major').flatMap((c) => c.messages).join('\n')).toMatch(message);
  });

  it('catches, each on its own, a new required request property, a narrowed request enum and type, a changed const', () => {
    // One document with the four changes (one run of Redocly, which takes seconds): each is listed as breaking.
    const diff = diffDocuments(
      original,
      write((d) => {
        input(d).properties.size = { type: 'integer' };
        input(d).required.push('size');
        input(d).properties.kind.enum = ['a', 'b'];
        input(d).properties.note.type = 'integer';
        thing(d).properties.object.const = 'item';
      }),
    );
    const breaking = diff.changes.filter((c) => c.impact === 'major');
    const rated = (rule: string, pointer: string) => breaking.some((c) => c.path.endsWith(pointer) && c.messages.some((m) => m.startsWith(`${rule}:`)));
    expect(rated('required-properties-added', '/post/requestBody/content/application~1json/schema')).toBe(true);
    expect(rated('enum-values-removed', '/requestBody/content/application~1json/schema/properties/kind')).toBe(true);
    expect(rated('schema-type-changed', '/requestBody/content/application~1json/schema/properties/note')).toBe(true);
    expect(rated('schema-constraint-changed', '/get/responses/200/content/application~1json/schema/properties/object')).toBe(true);
  });

  it('passes a new optional property (exit 0)', () => {
    const diff = diffDocuments(original, write((d) => (thing(d).properties.size = { type: 'integer' })));
    // Redocly reports a change of a shared component once, where it first meets it.
    expect(diff.changes.map((c) => `${c.impact} ${c.kind} ${c.path}`)).toEqual(['minor added #/paths/~1things/get/responses/200/content/application~1json/schema/properties/size']);
    expect(diff.bump).toBe('minor');
  });

  it('passes a new optional request property, a new operation, a response enum or union that gains a value (exit 0)', () => {
    const diff = diffDocuments(
      original,
      write((d) => {
        input(d).properties.size = { type: 'integer' };
        d.paths['/new'] = { get: { operationId: 'getNew', responses: { '204': { description: 'Nothing.' } } } };
        thing(d).properties.kind.enum = ['a', 'b', 'c', 'd'];
        thing(d).properties.value.anyOf.push({ type: 'boolean' });
      }),
    );
    expect(diff.changes.length).toBeGreaterThanOrEqual(4);
    expect(diff.bump).toBe('minor');
  });

  it('rates a request property that becomes an anyOf by its branches: additive when one takes all it took', () => {
    // `kind` of the request becomes "the old enum, or any `x-…` string": every request valid before stays valid.
    const widened = diffDocuments(original, write((d) => (input(d).properties.kind = { anyOf: [{ type: 'string', enum: ['a', 'b', 'c'] }, { type: 'string', pattern: '^x-' }] })));
    expect(widened.changes.filter((c) => c.path.endsWith('/properties/kind/anyOf')).map((c) => c.impact)).toEqual(['minor']);
    expect(widened.bump).toBe('minor');
    // A branch narrower than the old schema (an enum that lost a value), and another kind: some old requests fail.
    const narrowed = diffDocuments(original, write((d) => (input(d).properties.kind = { anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'integer' }] })));
    expect(narrowed.bump).toBe('major');
  });

  it('reads a $ref wrapped in allOf only to describe it as the $ref itself (no breaking change when unwrapped)', () => {
    const wrapped = { allOf: [{ $ref: '#/components/schemas/Thing' }, { description: 'The thing.' }] };
    expect(unwrapDescribedRefs({ properties: { a: wrapped } })).toEqual({ properties: { a: { $ref: '#/components/schemas/Thing', description: 'The thing.' } } });
    // An allOf that constrains twice is left as it is.
    const both = { allOf: [{ $ref: '#/components/schemas/Thing' }, { required: ['id'] }] };
    expect(unwrapDescribedRefs(both)).toEqual(both);
  });

  it('the command exits 1 on a breaking change and 0 on an additive one, listing both classified', () => {
    const breaking = apiDiff(write((d) => delete thing(d).properties.note));
    expect(breaking.status).toBe(1);
    expect(breaking.output).toContain('1 breaking:');
    expect(breaking.output).toContain('#/paths/~1things/get/responses/200/content/application~1json/schema/properties/note');
    const additive = apiDiff(write((d) => (thing(d).properties.size = { type: 'integer' })));
    expect(additive.status).toBe(0);
    expect(additive.output).toContain('1 additive:');
  });

  it('lint fails a breaking change unless the major version is raised', () => {
    const removed = (d: Json) => delete d.paths['/other'];
    expect(gateProblem(original, write(removed)).problem).toMatch(/breaking changes against the released document/);
    expect(gateProblem(original, write((d) => (removed(d), (d.info.version = '2.0.0')))).problem).toBeUndefined();
  });

  it('a release records the document and appends its changes to the changelog; refuses an unchanged version', () => {
    const released = write(() => {});
    const changelog = path.join(dir, 'CHANGELOG.md');
    writeFileSync(changelog, '# API changelog\n\n');
    const sameVersion = write((d) => (thing(d).properties.size = { type: 'integer' }));
    expect(() => release({ released, generated: sameVersion, changelog })).toThrow(/info.version is still 1.0.0/);
    const next = write((d) => ((thing(d).properties.size = { type: 'integer' }), (d.info.version = '1.1.0')));
    release({ released, generated: next, changelog }, new Date('2026-11-23T12:00:00Z'));
    expect(JSON.parse(readFileSync(released, 'utf8')).info.version).toBe('1.1.0');
    expect(readFileSync(changelog, 'utf8')).toContain('## 1.1.0 (2026-11-23, from 1.0.0)\n\n1 additive:\n- added `#/paths/~1things/get/responses/200/content/application~1json/schema/properties/size`');
    expect(() => release({ released, generated: next, changelog })).toThrow(/nothing to release/);
  });
});
