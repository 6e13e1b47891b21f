// Compares a schema of our published document (generated/openapi.json, made from contract/) with GitBook's
// for the same place (test/gitbook-contract-drift.test.ts), so that the contract cannot drift from GitBook's
// shapes between runs of the world test: in an answer, every property GitBook requires is one we require, an
// enum of ours stays within GitBook's values and a type within GitBook's types; in a request, we require
// nothing GitBook does not and accept every value GitBook's enums allow.
import { isDocumentSchema, resolveGitbook } from './gitbook-spec.js';
import { resolveRef } from './spec.js';

type Json = Record<string, any>;

/** Which way a schema is read: an answer we send (ours must be within GitBook's) or a request we accept (GitBook's within ours). */
export type Direction = 'response' | 'request';

function refName(node: Json | undefined): string | undefined {
  return typeof node?.$ref === 'string' ? node.$ref.split('/').at(-1) : undefined;
}

/** A schema with its `allOf` parts merged (properties, required, enum, type), refs resolved by `resolve`. */
function flatten(node: Json | undefined, resolve: (n: Json) => Json | undefined, depth = 0): Json {
  const s = node?.$ref ? resolve(node) : node;
  if (!s || typeof s !== 'object' || depth > 20) return {};
  if (!s.allOf) return s;
  const merged: Json = { ...s, allOf: undefined, properties: { ...(s.properties ?? {}) }, required: [...(s.required ?? [])] };
  for (const part of s.allOf as Json[]) {
    if (isDocumentSchema(refName(part) ?? '')) return { documentSchema: true };
    const p = flatten(part, resolve, depth + 1);
    Object.assign(merged.properties, p.properties ?? {});
    merged.required.push(...(p.required ?? []));
    for (const k of ['type', 'enum', 'const', 'items', 'oneOf', 'anyOf', 'format']) if (p[k] !== undefined && merged[k] === undefined) merged[k] = p[k];
  }
  return merged;
}

function types(s: Json): string[] | undefined {
  const t = s.type === undefined ? undefined : ([] as string[]).concat(s.type);
  if (!t) return undefined;
  return t;
}

function variants(s: Json): Json[] | undefined {
  return (s.oneOf ?? s.anyOf) as Json[] | undefined;
}

function enumOf(s: Json): unknown[] | undefined {
  if (s.const !== undefined) return [s.const];
  return s.enum as unknown[] | undefined;
}

const isNull = (s: Json) => s.type === 'null' || (Array.isArray(s.enum) && s.enum.length === 1 && s.enum[0] === null);

/**
 * Where `ours` departs from `theirs` (GitBook's), read in `direction`; `at` names the place. Empty when it
 * does not. Unions are compared by variant: each of ours must match one of GitBook's.
 */
export function drift(ours: Json | undefined, theirs: Json | undefined, direction: Direction, at = '', seen = new Set<string>()): string[] {
  if (!ours || !theirs || typeof ours !== 'object' || typeof theirs !== 'object') return [];
  const theirName = refName(theirs);
  if (theirName && isDocumentSchema(theirName)) return [];
  const key = `${refName(ours) ?? ''}|${theirName ?? ''}|${direction}`;
  if (refName(ours) && theirName) {
    if (seen.has(key)) return [];
    seen = new Set(seen).add(key);
  }
  const o = flatten(ours, resolveRef);
  const g = flatten(theirs, (n) => resolveGitbook(n));
  if (g.documentSchema || o.documentSchema) return [];

  const gVariants = variants(g)?.filter((v) => !isNull(flatten(v, (n) => resolveGitbook(n))));
  const oVariants = variants(o)?.filter((v) => !isNull(flatten(v, resolveRef)));
  if (gVariants?.some((v) => isDocumentSchema(refName(v) ?? ''))) return [];
  if (oVariants && oVariants.length > 0) {
    // Each of our variants within GitBook's schema (an answer); for a request, each of GitBook's within ours.
    const [mine, other] = direction === 'response' ? [oVariants, [g]] : [[o], gVariants ?? [g]];
    if (direction === 'response') return mine.flatMap((v, i) => drift(v, theirs, direction, `${at}<variant ${i}>`, seen));
    return other.flatMap((v, i) => (oVariants.some((ov) => drift(ov, v, direction, at, seen).length === 0) ? [] : [`${at}: GitBook's variant ${i} (${refName(v) ?? JSON.stringify(v).slice(0, 80)}) matches none of ours`]));
  }
  if (gVariants && gVariants.length > 0) {
    const options = gVariants.map((v) => ({ problems: drift(ours, v, direction, at, seen), same: refName(v) !== undefined && refName(v) === refName(ours) }));
    if (options.some((p) => p.problems.length === 0)) return [];
    // The nearest of GitBook's variants; between as near ones, the schema of the same name (our Space against
    // GitBook's Space, not against a string), so the difference named is the one that is really there.
    return options.sort((a, b) => a.problems.length - b.problems.length || Number(b.same) - Number(a.same))[0].problems;
  }

  const problems: string[] = [];
  // Enums: an answer's values within GitBook's; a request accepts each of GitBook's.
  const oEnum = enumOf(o);
  const gEnum = enumOf(g);
  if (gEnum && direction === 'response') {
    const extra = (oEnum ?? []).filter((v) => v !== null && !gEnum.includes(v));
    if (!oEnum && (types(o)?.includes('string') ?? false)) problems.push(`${at}: GitBook allows only ${JSON.stringify(gEnum)}, ours any string`);
    if (extra.length) problems.push(`${at}: ${JSON.stringify(extra)} not among GitBook's ${JSON.stringify(gEnum)}`);
  }
  if (gEnum && direction === 'request' && oEnum) {
    const missing = gEnum.filter((v) => v !== null && !oEnum.includes(v));
    if (missing.length) problems.push(`${at}: GitBook's ${JSON.stringify(missing)} not accepted by ours ${JSON.stringify(oEnum)}`);
  }
  // A request string of ours held to a pattern accepts each of GitBook's values only if the pattern does.
  if (gEnum && direction === 'request' && !oEnum && typeof o.pattern === 'string') {
    const pattern = new RegExp(o.pattern, 'u');
    const missing = gEnum.filter((v) => typeof v === 'string' && !pattern.test(v));
    if (missing.length) problems.push(`${at}: GitBook's ${JSON.stringify(missing)} not accepted by ours /${o.pattern}/`);
  }
  // Types.
  const oTypes = types(o);
  const gTypes = types(g);
  if (oTypes && gTypes) {
    const within = (a: string[], b: string[]) => a.every((t) => b.includes(t) || (t === 'integer' && b.includes('number')));
    if (direction === 'response' && !within(oTypes.filter((t) => t !== 'null' || !gTypes.includes('null')), gTypes)) {
      if (!(oTypes.includes('null') && !gTypes.includes('null') && within(oTypes.filter((t) => t !== 'null'), gTypes))) problems.push(`${at}: type ${oTypes} where GitBook has ${gTypes}`);
    }
    if (direction === 'request' && !within(gTypes, oTypes)) problems.push(`${at}: accepts ${oTypes} where GitBook sends ${gTypes}`);
  }
  // Objects.
  const oProps: Json = o.properties ?? {};
  const gProps: Json = g.properties ?? {};
  const oReq: string[] = o.required ?? [];
  const gReq: string[] = g.required ?? [];
  if (direction === 'response') {
    for (const name of gReq) {
      if (!(name in oProps) && Object.keys(oProps).length > 0) problems.push(`${at}.${name}: required by GitBook, absent from ours`);
      else if (name in oProps && !oReq.includes(name) && !o.additionalProperties) problems.push(`${at}.${name}: required by GitBook, optional in ours`);
    }
  } else {
    for (const name of oReq) if (!gReq.includes(name)) problems.push(`${at}.${name}: required by ours, optional in GitBook's request`);
  }
  for (const name of Object.keys(oProps)) if (name in gProps) problems.push(...drift(oProps[name], gProps[name], direction, `${at}.${name}`, seen));
  if (o.items && g.items) problems.push(...drift(o.items, g.items, direction, `${at}[]`, seen));
  return problems;
}
