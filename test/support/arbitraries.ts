// fast-check arbitraries for the JSON Schemas of the published document (generated/openapi.json), for
// the fuzz tests: `validValue` produces values the document accepts, `invalidValue` values it refuses
// (one mutation of a valid value), and `validParam`/`invalidParam` the same for path and query
// parameters, which travel as text.
//
// The JSON Schema subset the document uses is covered: $ref, allOf (merged), anyOf/oneOf, const, enum,
// type (also a list of types), object (properties, required, additionalProperties, maxProperties,
// not: { required }), array (items, min/maxItems), string (min/maxLength in code points, pattern,
// format date-time, uri, email), integer/number (minimum/maximum), boolean, null. Recursive schemas (a
// document block holds blocks) are cut at a fixed depth. Anything the generator does not model exactly
// is caught by a final check with Ajv against the document itself: a "valid" value always validates, an
// "invalid" one never does — except the NUL mutation, see below.
//
// One rule is not expressible in the schemas and is stated in the document's description instead: no
// string and no object key may contain U+0000 (PostgreSQL text cannot store it). Valid values never
// contain it; `invalidValue` has a mutation that inserts it.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { resolveRef, spec } from './spec.js';

export type Schema = Record<string, any>;

export interface GenOptions {
  /**
   * Extra candidates for a string, by the name of the property or parameter that holds it: the fuzz
   * tests use it to mix ids of resources that exist (`parent`, `organization`, …) with random text.
   */
  stringsFor?: (name: string) => fc.Arbitrary<string> | undefined;
  /**
   * The only valid strings of a property, by its name, where the contract describes a language the schema
   * cannot (a site condition's grammar): random text there is bad input, not a valid request.
   */
  languageFor?: (name: string) => fc.Arbitrary<string> | undefined;
}

const NUL = '\u0000';

// ---------------------------------------------------------------------------------------------------
// The oracle: Ajv on the published document (OpenAPI 3.1 schemas are JSON Schema 2020-12). It counts
// string lengths in code points, as JSON Schema does.

const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats.default(ajv);
ajv.addSchema(spec, 'openapi.json');
const validators = new WeakMap<Schema, ValidateFunction>();

/** Whether the document accepts `value` for `schema` (a schema object of the document). */
export function isValid(schema: Schema, value: unknown): boolean {
  let validate = validators.get(schema);
  if (!validate) {
    const absolute = JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi.json#/components/'));
    validate = ajv.compile(absolute);
    validators.set(schema, validate);
  }
  return validate(value) as boolean;
}

/** Whether a string or an object key anywhere in `value` contains U+0000. */
export function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes(NUL);
  if (Array.isArray(value)) return value.some(containsNul);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([k, v]) => k.includes(NUL) || containsNul(v));
  }
  return false;
}

// ---------------------------------------------------------------------------------------------------
// Schema normalization: refs resolved, allOf merged, a list of types split into anyOf.

const normalized = new WeakMap<Schema, Schema>();

function normalize(schema: Schema): Schema {
  const cached = normalized.get(schema);
  if (cached) return cached;
  let s = schema.$ref ? normalize(resolveRef(schema)) : schema;
  if (s.allOf) {
    const { allOf, ...rest } = s;
    s = (allOf as Schema[]).map(normalize).reduce(
      (acc, part) => ({
        ...acc,
        ...part,
        ...((acc.properties || part.properties) && { properties: { ...acc.properties, ...part.properties } }),
        ...((acc.required || part.required) && { required: [...(acc.required ?? []), ...(part.required ?? [])] }),
      }),
      rest,
    );
  }
  if (Array.isArray(s.type)) {
    const { type, ...rest } = s;
    s = { anyOf: (type as string[]).map((t) => ({ ...rest, type: t })) };
  }
  normalized.set(schema, s);
  return s;
}

// ---------------------------------------------------------------------------------------------------
// Text: mostly printable ASCII, some whitespace, some arbitrary code points (never U+0000, never a lone
// surrogate). One generated unit is one code point, so lengths match JSON Schema's.

const codePoint = fc
  .integer({ min: 1, max: 0x10ffff })
  .filter((c) => c < 0xd800 || c > 0xdfff)
  .map((c) => String.fromCodePoint(c));
const textUnit = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.constantFrom(' ', '\t', '\n', '\u00a0', '\u2028', '\ufeff') },
  { weight: 1, arbitrary: codePoint },
);

/** Text of `min`..`max` code points: mostly short, and often at the maximum when it is a small one. */
function text(min = 0, max?: number): fc.Arbitrary<string> {
  const short = fc.string({ unit: textUnit, minLength: min, ...(max !== undefined && { maxLength: max }), size: 'small' });
  if (max === undefined || max > 256 || max - min < 4) return short;
  const nearMax = fc.string({ unit: textUnit, minLength: max - 3, maxLength: max });
  return fc.oneof({ weight: 3, arbitrary: short }, { weight: 1, arbitrary: nearMax });
}

const codePoints = (s: string) => [...s].length;

function fitsLength(s: Schema, value: string): boolean {
  const n = codePoints(value);
  return n >= (s.minLength ?? 0) && n <= (s.maxLength ?? Infinity);
}

function stringValue(s: Schema, name: string | undefined, options: GenOptions): fc.Arbitrary<string> {
  let base: fc.Arbitrary<string>;
  if (s.format === 'date-time') {
    base = fc
      .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString());
  } else if (s.format === 'uri') {
    base = fc.webUrl();
  } else if (s.format === 'email') {
    base = fc.emailAddress();
  } else if (s.pattern) {
    base = fc.stringMatching(new RegExp(s.pattern), { ...(s.maxLength !== undefined && { maxLength: s.maxLength }) });
  } else {
    base = text(s.minLength ?? 0, s.maxLength);
  }
  const language = name === undefined || s.format || s.pattern ? undefined : options.languageFor?.(name);
  if (language) base = language;
  base = base.filter((v) => fitsLength(s, v) && !v.includes(NUL));
  const hint = name === undefined || s.format || s.pattern ? undefined : options.stringsFor?.(name);
  return hint ? fc.oneof(hint.filter((v) => fitsLength(s, v)), base) : base;
}

// ---------------------------------------------------------------------------------------------------
// Valid values.

const MAX_DEPTH = 8;

function generate(schema: Schema, options: GenOptions, name?: string, depth = 0): fc.Arbitrary<unknown> {
  const s = normalize(schema);
  if (depth > MAX_DEPTH) return fc.constant(null); // deeper than the document goes; the oracle filters it
  if ('const' in s) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...(s.enum as unknown[]));
  const branches = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (branches) return fc.oneof(...branches.map((b) => generate(b, options, name, depth + 1)));
  switch (s.type) {
    case 'string':
      return stringValue(s, name, options);
    case 'integer':
      return fc.integer({ min: s.minimum ?? -1_000_000, max: s.maximum ?? 1_000_000 });
    case 'number':
      return fc.double({ min: s.minimum ?? -1e9, max: s.maximum ?? 1e9, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(generate(s.items ?? {}, options, name, depth + 1), {
        minLength: s.minItems ?? 0,
        maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? 5, 5)),
      });
    case 'object':
      return objectValue(s, options, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 }).filter((v) => !containsNul(v)); // no type: anything
  }
}

function objectValue(s: Schema, options: GenOptions, depth: number): fc.Arbitrary<Record<string, unknown>> {
  // Deep down (recursive schemas: a document block holds blocks), only the required properties.
  const required = new Set<string>(s.required ?? []);
  const properties = Object.fromEntries(
    Object.entries((s.properties ?? {}) as Record<string, Schema>).filter(([k]) => depth < MAX_DEPTH / 2 || required.has(k)),
  );
  const declared = fc
    .record(Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, generate(v, options, k, depth + 1)])), {
      requiredKeys: (s.required ?? []) as string[],
    })
    // maxProperties and `not: { required }` (e.g. a position's `before` or `after`, not both), here too
    // so that a mutation elsewhere is the only problem of an invalid value.
    .filter((o) => Object.keys(o).length <= (s.maxProperties ?? Infinity))
    .filter((o) => !s.not?.required || !(s.not.required as string[]).every((k) => k in o));
  // Extra keys: typed ones for a map (`additionalProperties: {schema}`), free ones for a free-form object.
  const extra =
    typeof s.additionalProperties === 'object'
      ? generate(s.additionalProperties, options, undefined, depth + 1)
      : s.additionalProperties === undefined && !s.properties
        ? fc.jsonValue({ maxDepth: 2 })
        : undefined;
  if (!extra) return declared;
  const extras = fc.dictionary(text(1, 20), extra, { maxKeys: 3 }).filter((d) => !containsNul(d));
  return fc.tuple(declared, extras).map(([d, e]) => ({ ...e, ...d }));
}

/**
 * Values the document accepts for `schema` (min/maxProperties, `not`, oneOf exclusivity and anything
 * else not modelled above are enforced by the oracle), never containing U+0000.
 */
export function validValue(schema: Schema, options: GenOptions = {}): fc.Arbitrary<unknown> {
  return generate(schema, options).filter((v) => !containsNul(v) && isValid(schema, v));
}

// ---------------------------------------------------------------------------------------------------
// Invalid values: a valid value with one mutation, somewhere inside.

/** A value of each JSON type, for "wrong type" mutations (those of the right type are filtered out). */
const anyTypeValues: unknown[] = [0, 1.5, 'x', '', true, null, [], {}, [1], { a: 1 }];

/** Inserts U+0000 into a string, keeping it within its maximum length when possible. */
function withNul(value: string, at: number, max: number | undefined): string {
  const chars = [...value];
  const i = chars.length === 0 ? 0 : at % (chars.length + 1);
  if (max !== undefined && chars.length >= max && chars.length > 0) chars[Math.min(i, chars.length - 1)] = NUL;
  else chars.splice(i, 0, NUL);
  return chars.join('');
}

function mutations(schema: Schema, options: GenOptions, depth: number): fc.Arbitrary<unknown>[] {
  const s = normalize(schema);
  const out: fc.Arbitrary<unknown>[] = [fc.constantFrom(...anyTypeValues)]; // wrong type
  if (depth > MAX_DEPTH) return out;
  if (s.enum || 'const' in s) out.push(text(0, 20)); // outside the enum (the oracle drops members)
  const branches = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (branches) for (const b of branches) out.push(...mutations(b, options, depth + 1));
  switch (s.type) {
    case 'string': {
      // Too long (not past 64 Ki characters: the body limit would answer first, with 413).
      if (s.maxLength !== undefined && s.maxLength < 65_536) out.push(text(s.maxLength + 1, s.maxLength + 8));
      if ((s.minLength ?? 0) > 0) out.push(text(0, s.minLength - 1)); // too short
      if (s.pattern) {
        const re = new RegExp(s.pattern);
        out.push(fc.oneof(text(0, 40), fc.constantFrom('', ' ', '-', 'A B', '..')).filter((v) => !re.test(v))); // bad pattern
      }
      if (s.format) out.push(fc.constantFrom('not a value of this format', '2026-13-45T99:99:99', 'http//x', '@')); // bad format
      // The NUL character, in an otherwise valid string.
      out.push(fc.tuple(stringValue(s, undefined, options), fc.nat()).map(([v, at]) => withNul(v, at, s.maxLength)));
      break;
    }
    case 'integer':
    case 'number':
      if (s.maximum !== undefined) out.push(fc.integer({ min: 1, max: 1000 }).map((d) => s.maximum + d)); // above maximum
      if (s.minimum !== undefined) out.push(fc.integer({ min: 1, max: 1000 }).map((d) => s.minimum - d)); // below minimum
      if (s.type === 'integer') out.push(fc.integer({ min: -100, max: 100 }).map((n) => n + 0.5)); // not an integer
      // Text that JavaScript's Number() reads as a number but JSON does not (matters for parameters).
      out.push(fc.constantFrom('0x10', '0b11', '0o7', ' 5', '5 ', '\t7', '1_0', '+3'));
      break;
    case 'array': {
      const item = s.items ?? {};
      if (s.maxItems !== undefined && s.maxItems <= 1000) {
        // Too many items (for lists of at most 1,000: longer ones would mostly test the body limit).
        out.push(fc.array(generate(item, options, undefined, MAX_DEPTH), { minLength: s.maxItems + 1, maxLength: s.maxItems + 2 }));
      }
      if ((s.minItems ?? 0) > 0) out.push(fc.constant([])); // too few items
      out.push(
        fc // one bad item
          .tuple(generate(s, options, undefined, depth), invalidInner(item, options, depth + 1), fc.nat())
          .map(([arr, bad, at]) => {
            const copy = [...(arr as unknown[])];
            copy.splice(at % (copy.length + 1), 0, bad);
            return copy;
          }),
      );
      break;
    }
    case 'object':
      out.push(...objectMutations(s, options, depth));
      break;
  }
  return out;
}

function objectMutations(s: Schema, options: GenOptions, depth: number): fc.Arbitrary<unknown>[] {
  const out: fc.Arbitrary<unknown>[] = [];
  const valid = objectValue(s, options, depth) as fc.Arbitrary<Record<string, unknown>>;
  const properties = (s.properties ?? {}) as Record<string, Schema>;
  const required = (s.required ?? []) as string[];
  if (s.additionalProperties === false) {
    // An unknown property.
    const unknownKey = fc.oneof(text(1, 20), fc.constant('a\u0000b')).filter((k) => !Object.hasOwn(properties, k));
    out.push(fc.tuple(valid, unknownKey, fc.jsonValue({ maxDepth: 1 })).map(([o, k, v]) => ({ ...o, [k]: v })));
  }
  if (required.length > 0) {
    // A required property missing.
    out.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([o, k]) => {
        const { [k]: _dropped, ...rest } = o;
        return rest;
      }),
    );
  }
  if (s.not?.required) {
    // All the properties `not: { required }` forbids together (e.g. `before` and `after`).
    const forbidden = (s.not.required as string[]).map((k) => [k, generate(properties[k] ?? {}, options, k, depth + 1)] as const);
    out.push(fc.tuple(valid, fc.record(Object.fromEntries(forbidden))).map(([o, f]) => ({ ...o, ...f })));
  }
  if (s.maxProperties !== undefined) {
    const all = fc.record(Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, generate(v, options, k, depth + 1)])));
    out.push(all); // every property at once, over maxProperties when there are enough of them
  }
  // One property with an invalid value.
  for (const [k, v] of Object.entries(properties)) {
    out.push(fc.tuple(valid, invalidInner(v, options, depth + 1)).map(([o, bad]) => ({ ...o, [k]: bad })));
  }
  return out;
}

function invalidInner(schema: Schema, options: GenOptions, depth: number): fc.Arbitrary<unknown> {
  return fc.oneof(...mutations(schema, options, depth));
}

/**
 * Values the document refuses for `schema`: a wrong type, a string over maxLength or under minLength,
 * an unknown property on a strict object, a missing required property, two properties that `not` or
 * maxProperties forbid together, a value outside an enum, a string not matching its pattern or format,
 * a number out of range or not an integer, a number written as `0x10` or ` 5`, too many or too few
 * items — at the top or anywhere inside — or a string or key containing U+0000 (refused by the rule in
 * the description).
 */
export function invalidValue(schema: Schema, options: GenOptions = {}): fc.Arbitrary<unknown> {
  return invalidInner(schema, options, 0).filter((v) => containsNul(v) || !isValid(schema, v));
}

// ---------------------------------------------------------------------------------------------------
// Parameters travel as text: a value is valid when its text, read as the schema's type, is.

/** What the server should read from a parameter's text: numbers and booleans for such schemas. */
export function readParam(schema: Schema, raw: string | string[]): unknown {
  const s = normalize(schema);
  if (Array.isArray(raw)) return raw.map((r) => readParam(s.items ?? {}, r));
  const types = new Set<string>((s.anyOf ?? s.oneOf ?? [s]).map((b: Schema) => normalize(b).type));
  if ((types.has('integer') || types.has('number')) && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(raw)) return Number(raw);
  if (types.has('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  if (types.has('array')) return [readParam(s.items ?? {}, raw)];
  return raw;
}

/**
 * A value as it travels in a query string or path: text, or repeated text (`?a=1&a=2`). An empty list
 * is no parameter at all and a list of one is the same as a single value, so neither is produced.
 */
function asText(value: unknown): string | string[] | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.length > 0 && value.every((v) => ['string', 'number', 'boolean'].includes(typeof v))) {
    return value.length === 1 ? String(value[0]) : value.map(String);
  }
  return undefined; // objects, null and empty lists have no text form here
}

/** Texts the document accepts for a parameter of this schema. */
export function validParam(schema: Schema, name: string, options: GenOptions = {}): fc.Arbitrary<string | string[]> {
  return generate(schema, options, name)
    .map(asText)
    .filter((t): t is string | string[] => t !== undefined && !containsNul(t) && isValid(schema, readParam(schema, t)));
}

/** Texts the document refuses for a parameter of this schema (including ones containing U+0000). */
export function invalidParam(schema: Schema, options: GenOptions = {}): fc.Arbitrary<string | string[]> {
  return invalidInner(schema, options, 0)
    .map(asText)
    .filter((t): t is string | string[] => t !== undefined && (containsNul(t) || !isValid(schema, readParam(schema, t))));
}
