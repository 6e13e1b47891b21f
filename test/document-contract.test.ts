// The contract's Document is GitBook's: each schema of GitBook's Document family (@gitbook/api's
// spec/openapi.json) is compared with the component of the same name in our published document
// (generated/openapi.json; GitBook's `JSONDocument` is our `Document`), so the two cannot drift. A block
// type, an inline, a mark, a field, a required key or an enum value GitBook has and we lack fails it, and
// so does one we have and GitBook has not. Descriptions and examples are not compared; limits we add to
// bound a request (maxLength, maxItems) are allowed.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentFamily, gitbookSpec, type JsonSchema } from './support/gitbook-document.js';

const ours = JSON.parse(readFileSync(new URL('../generated/openapi.json', import.meta.url), 'utf8')) as { components: { schemas: Record<string, JsonSchema> } };
const theirs = gitbookSpec.components.schemas;
const ourName = (name: string) => (name === 'JSONDocument' ? 'Document' : name);
const inFamily = (name: string) => documentFamily.includes(name);
/** Schemas GitBook uses whose own shape is not Document JSON: only their being an object is compared. */
const opaque = new Set(['PlainObject', 'ContentKitAction']);

type Side = { schemas: Record<string, JsonSchema>; name: (n: string) => string };
const gitbook: Side = { schemas: theirs, name: (n) => ourName(n) };
const local: Side = { schemas: ours.components.schemas, name: (n) => n };

const refName = (s: JsonSchema) => (typeof s.$ref === 'string' ? s.$ref.split('/').pop()! : undefined);

/** A schema with refs outside the family inlined, allOf of objects merged and nested unions flattened. */
function normalize(schema: JsonSchema, side: Side, depth = 0): JsonSchema {
  if (depth > 12) return {};
  const ref = refName(schema);
  if (ref !== undefined) {
    if (opaque.has(ref)) return { opaque: true };
    if (side === gitbook ? inFamily(ref) : inFamily(ref === 'Document' ? 'JSONDocument' : ref)) return { ref: side.name(ref) };
    return normalize(side.schemas[ref], side, depth + 1);
  }
  const union = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (union) {
    const members = union.flatMap((m) => {
      const name = refName(m);
      const target = name !== undefined ? side.schemas[name] : undefined;
      // A union of unions is the union of their members (zod-to-openapi flattens them).
      if (target && (target.oneOf || target.anyOf) && !target.type) return (normalize(target, side, depth + 1).union as JsonSchema[]) ?? [];
      return [normalize(m, side, depth + 1)];
    });
    // `{type: [X, 'null']}` and the members `{type: X}`, `{type: 'null'}` say the same.
    const nullAt = members.findIndex((m) => m.type === 'null' && Object.keys(m).length === 1);
    if (nullAt >= 0) {
      const simple = members.filter((m) => typeof m.type === 'string' && m.type !== 'null' && Object.keys(m).length === 1);
      const nullable = simple.find((m) => m.type === 'string') ?? simple[0];
      if (nullable) {
        members.splice(nullAt, 1);
        nullable.type = [nullable.type as string, 'null'].sort();
      }
    }
    return members.length === 1 ? members[0] : { union: members };
  }
  if (Array.isArray(schema.allOf)) {
    // Parts of an allOf are merged whatever their names (GitBook's table definitions extend a base).
    const parts = (schema.allOf as JsonSchema[]).map((p) => normalize(refName(p) ? side.schemas[refName(p)!] : p, side, depth + 1));
    const objects = parts.filter((p) => p.type === 'object');
    const rest = parts.filter((p) => p.type !== 'object');
    const merged: JsonSchema = { type: 'object', properties: {}, required: [] };
    for (const o of objects) {
      Object.assign(merged.properties as object, o.properties);
      (merged.required as string[]).push(...((o.required as string[]) ?? []));
      if (o.additionalProperties === false) merged.additionalProperties = false;
    }
    (merged.required as string[]).sort();
    return rest.length === 0 ? merged : { all: [merged, ...rest] };
  }
  const out: JsonSchema = {};
  const type = Array.isArray(schema.type) ? [...schema.type].sort() : schema.type;
  if (type !== undefined) out.type = type;
  if (type === undefined && schema.properties) out.type = 'object';
  for (const k of ['enum', 'format', 'pattern', 'minItems', 'minimum', 'const']) if (schema[k] !== undefined) out[k] = schema[k];
  if (schema.nullable === true) out.type = [out.type, 'null'].sort();
  if (schema.properties) out.properties = Object.fromEntries(Object.entries(schema.properties as Record<string, JsonSchema>).map(([k, v]) => [k, normalize(v, side, depth + 1)]));
  if (out.type === 'object') {
    out.required = [...((schema.required as string[]) ?? [])].sort();
    const ap = schema.additionalProperties;
    out.additionalProperties = ap === false ? false : ap === undefined || ap === true || (typeof ap === 'object' && Object.keys(ap as object).length === 0) ? true : normalize(ap as JsonSchema, side, depth + 1);
  }
  if (schema.items) out.items = normalize(schema.items as JsonSchema, side, depth + 1);
  return out;
}

/** Differences between GitBook's schema and ours, as `path: what` lines. */
function differences(g: JsonSchema, o: JsonSchema, path: string, out: string[] = []): string[] {
  if (g.opaque) {
    if (!o.opaque && o.type !== 'object') out.push(`${path}: an object`);
    return out;
  }
  if (g.ref !== undefined || o.ref !== undefined) {
    if (g.ref !== o.ref) out.push(`${path}: GitBook has ${g.ref ?? JSON.stringify(g).slice(0, 80)}, we have ${o.ref ?? JSON.stringify(o).slice(0, 80)}`);
    return out;
  }
  if (g.union || o.union) {
    const gm = (g.union as JsonSchema[]) ?? [g];
    const om = (o.union as JsonSchema[]) ?? [o];
    const key = (m: JsonSchema) => (m.ref as string) ?? JSON.stringify(m);
    const ours = new Map(om.map((m) => [key(m), m]));
    gm.forEach((m, i) => {
      const match = ours.get(key(m)) ?? (m.ref === undefined ? om.find((x) => x.ref === undefined && differences(m, x, '').length === 0) : undefined);
      if (!match) {
        const alike = om[i];
        if (m.ref === undefined && alike && alike.ref === undefined && gm.length === om.length) differences(m, alike, `${path}|${i}`, out);
        else out.push(`${path}: GitBook's member ${key(m).slice(0, 120)} is missing`);
      }
    });
    for (const m of om) if (!gm.some((x) => key(x) === key(m)) && m.ref !== undefined) out.push(`${path}: member ${m.ref} is not GitBook's`);
    return out;
  }
  if (g.all || o.all) {
    const ga = (g.all as JsonSchema[]) ?? [g];
    const oa = (o.all as JsonSchema[]) ?? [o];
    if (ga.length !== oa.length) out.push(`${path}: allOf of ${ga.length} parts, ours ${oa.length}`);
    ga.forEach((p, i) => oa[i] && differences(p, oa[i], `${path}&${i}`, out));
    return out;
  }
  if (JSON.stringify(g.type) !== JSON.stringify(o.type)) out.push(`${path}: type ${JSON.stringify(g.type)}, ours ${JSON.stringify(o.type)}`);
  for (const k of ['enum', 'format', 'pattern', 'minItems', 'minimum', 'const']) {
    if (g[k] === undefined) continue;
    const same = k === 'enum' ? JSON.stringify([...(g[k] as unknown[])].sort()) === JSON.stringify([...((o[k] as unknown[]) ?? [])].sort()) : JSON.stringify(g[k]) === JSON.stringify(o[k]);
    if (!same) out.push(`${path}: ${k} ${JSON.stringify(g[k])}, ours ${JSON.stringify(o[k])}`);
  }
  if (g.type === 'object') {
    if (JSON.stringify(g.required) !== JSON.stringify(o.required)) out.push(`${path}: required ${JSON.stringify(g.required)}, ours ${JSON.stringify(o.required)}`);
    if (g.additionalProperties === false && o.additionalProperties !== false) out.push(`${path}: GitBook allows no other keys, we do`);
    if (g.additionalProperties !== false && o.additionalProperties === false) out.push(`${path}: GitBook allows other keys, we do not`);
    if (typeof g.additionalProperties === 'object') differences(g.additionalProperties as JsonSchema, (o.additionalProperties as JsonSchema) ?? {}, `${path}{*}`, out);
    const gp = (g.properties ?? {}) as Record<string, JsonSchema>;
    const op = (o.properties ?? {}) as Record<string, JsonSchema>;
    for (const [k, v] of Object.entries(gp)) {
      if (!op[k]) out.push(`${path}.${k}: missing`);
      else differences(v, op[k], `${path}.${k}`, out);
    }
    for (const k of Object.keys(op)) if (!gp[k]) out.push(`${path}.${k}: not GitBook's`);
  }
  if (g.items) differences(g.items as JsonSchema, (o.items as JsonSchema) ?? {}, `${path}[]`, out);
  return out;
}

describe("the contract's Document is GitBook's Document JSON", () => {
  it('mirrors all of GitBook\'s Document family (more than 80 schemas)', () => {
    expect(documentFamily.length).toBeGreaterThan(80);
    const missing = documentFamily.filter((name) => !ours.components.schemas[ourName(name)]);
    expect(missing).toEqual([]);
  });

  it.each(documentFamily)('%s matches GitBook schema for schema', (name) => {
    // A schema that is only another's name (DocumentTextBackgroundColor) is compared as that schema.
    const deref = (s: JsonSchema, side: Side) => (refName(s) ? side.schemas[refName(s)!] : s);
    const g = normalize(deref(theirs[name], gitbook), gitbook);
    const o = normalize(deref(ours.components.schemas[ourName(name)], local), local);
    expect(differences(g, o, name)).toEqual([]);
  });

  it('finds a difference when one is made (the comparison can fail)', () => {
    const g = normalize(theirs.DocumentBlockTable, gitbook);
    const changed = structuredClone(ours.components.schemas.DocumentBlockTable) as { properties: { data: { required: string[] } } };
    changed.properties.data.required = ['view', 'definition'];
    expect(differences(g, normalize(changed, local), 'DocumentBlockTable')).toEqual([expect.stringContaining('required')]);
    const hint = structuredClone(ours.components.schemas.DocumentBlockHint) as { properties: { data: { properties: { style: { enum: string[] } } } } };
    hint.properties.data.properties.style.enum.pop();
    expect(differences(normalize(theirs.DocumentBlockHint, gitbook), normalize(hint, local), 'DocumentBlockHint')).toEqual([expect.stringContaining('enum')]);
  });
});
