// Fuzzes every implemented operation with requests generated from the published document: valid ones,
// and ones with exactly one invalid path parameter, query parameter or body. It fails on
//   - any 5xx (501, "not implemented", cannot happen: those operations are skipped),
//   - any answer the document does not allow (status or body; `send` checks every response),
//   - invalid input that is not refused with 400,
//   - valid input refused with 400, unless the operation documents that refusal (see `documented400`).
// Path parameters mix ids of a small world of real resources with random text (see fuzz-world.ts).
// FUZZ_RUNS sets the requests per operation (default 50, which keeps .ci/run within its 10 minutes), FUZZ_SEED the seed (fixed by default; a
// failure prints its seed, its path and the shrunk counterexample with its operationId), FUZZ_STATS=1
// prints the statuses seen per operation.
import fc from 'fast-check';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { send } from './support/api.js';
import { containsNul, invalidParam, invalidValue, validParam, validValue, type GenOptions } from './support/arbitraries.js';
import { createWorld, FUZZ_RUNS, fuzzParameters, idsFor, implementedOperations, type World } from './support/fuzz-world.js';
import { useHarness } from './support/harness.js';
import type { SpecOperation } from './support/spec.js';

type Json = Record<string, any>;

const h = useHarness();
// A fresh world for each test, so that an operation that deletes or moves (run earlier) leaves the
// next one real resources to reach.
let world: World;
beforeEach(async () => {
  world = await createWorld(h.current);
});

interface FuzzRequest {
  operationId: string;
  /** `valid`, or which single part is invalid, e.g. `invalid params.spaceId`. */
  kind: string;
  path: string;
  query: Record<string, string | string[]>;
  /** Absent: no body is sent. */
  body?: { json: unknown };
  /** The invalid value, when there is one. */
  bad?: unknown;
}

/**
 * Refusals of valid-looking input that the document states in words (a rule its schemas cannot
 * express): valid input answered 400 with a matching message is accepted, for the given operation or
 * for all.
 */
const documented400: { operationId?: string; message: RegExp }[] = [
  // PageCursor: "from `next.page` of the previous page; any other value is refused (400)".
  { message: /^Invalid request: query\.page: not a page identifier/ },
  // "A `defaultContent` that names a site the organization does not have is refused (400)".
  { operationId: 'updateOrganizationById', message: /defaultContent/ },
  // SAML providers: "a `defaultTeam` the organization does not have" and a certificate that is not X.509 are refused (400).
  { operationId: 'createOrganizationSAMLProvider', message: /body\.(defaultTeam|certificate)/ },
  { operationId: 'updateOrganizationSAMLProvider', message: /body\.(defaultTeam|certificate)/ },
  // "a target language equal to the source language ... is refused (400)".
  { operationId: 'createTranslation', message: /body\.language: must differ/ },
  // Integration images: "bytes that are not a PNG, JPEG, GIF, WebP or SVG image are refused (400)".
  { operationId: 'publishIntegration', message: /body\.(icon|previewImages\.\d+): not a PNG, JPEG, GIF, WebP or SVG image/ },
  // The development tunnel: "an http or https URL (other schemes are refused, 400)".
  { operationId: 'setIntegrationDevelopmentMode', message: /body\.tunnelUrl: must be an http or https URL/ },
  // Join: "when the caller's verified email domain is one of the email domains the organization allows; otherwise 400".
  { operationId: 'joinOrganization', message: /your email domain .* is not one this organization lets join/ },
  // Teams: "ids that are not members: 400"; "an identifier that is not a member of the organization is a 400 naming it".
  { operationId: 'createOrganizationTeam', message: /body\.members: not members of this organization/ },
  { operationId: 'updateMembersInOrganizationTeam', message: /not members of this organization: body\.(add|remove|memberships)/ },
  // Sites: "a `jsonSchema` that is not a valid schema of boolean attributes is refused (400)"; moves: "a position
  // naming ... another site ... is refused (400)"; "without [the shareKey of a share-link site] ... refused (400)";
  // "`defaultSiteSpace` ... elsewhere is refused, 400".
  { operationId: 'updateSiteAdaptiveSchema', message: /body\.jsonSchema/ },
  { message: /^Invalid request: body\.position(\.(before|after)\.(siteSection|siteSpace|id))?: / },
  { operationId: 'getPublishedContentSite', message: /query\.shareKey: required for a share-link site/ },
  { operationId: 'updateSiteById', message: /body\.defaultSiteSpace: .* neither at the root nor in the default section/ },
  // Change-request PDF: "only that page with `only=true` (which needs `page`)".
  { operationId: 'getChangeRequestPDF', message: /query\.page: `only=true` needs `page`/ },
  // Templates: "a name the template does not use, or a reference of another kind, is refused (400)".
  { operationId: 'applyTemplateToSpace', message: /body\.params\.contentRefs\./ },
];

function isDocumented400(operationId: string, message: unknown): boolean {
  return documented400.some((d) => (d.operationId ?? operationId) === operationId && d.message.test(String(message)));
}

/** A path segment the router and URL normalization leave alone: not empty, not `.` or `..`. */
const routable = (t: string | string[]): t is string => typeof t === 'string' && t !== '' && t !== '.' && t !== '..';

function requests(op: SpecOperation, options: GenOptions): fc.Arbitrary<FuzzRequest> {
  const parameters = (op.operation.parameters ?? []) as Json[];
  const pathParams = parameters.filter((p) => p.in === 'path');
  const queryParams = parameters.filter((p) => p.in === 'query');
  const requestBody = op.operation.requestBody as Json | undefined;
  const bodySchema = requestBody?.content?.['application/json']?.schema as Json | undefined;

  const validPath = Object.fromEntries(pathParams.map((p) => [p.name, validParam(p.schema, p.name, options).filter(routable)]));
  const validQuery = fc.record(Object.fromEntries(queryParams.map((p) => [p.name, validParam(p.schema, p.name, options)])), {
    requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name) as never[],
  });
  const someBody = bodySchema ? validValue(bodySchema, options).map((json) => ({ json })) : undefined;
  const validBody: fc.Arbitrary<{ json: unknown } | undefined> = !someBody
    ? fc.constant(undefined)
    : requestBody?.required
      ? someBody
      : fc.option(someBody, { nil: undefined, freq: 4 });

  const build = (
    kind: string,
    path: Record<string, fc.Arbitrary<string>>,
    query: fc.Arbitrary<Record<string, string | string[]>>,
    body: fc.Arbitrary<{ json: unknown } | undefined>,
    bad: (r: { params: Record<string, string>; query: Record<string, string | string[]>; body?: { json: unknown } }) => unknown = () => undefined,
  ): fc.Arbitrary<FuzzRequest> =>
    fc.record({ params: fc.record(path), query, body }).map((r) => ({
      operationId: op.operationId,
      kind,
      path: `/v1${op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(r.params[name]))}`,
      query: r.query,
      ...(r.body && { body: r.body }),
      ...(kind !== 'valid' && { bad: bad(r) }),
    }));

  const variants: fc.Arbitrary<FuzzRequest>[] = [build('valid', validPath, validQuery, validBody)];
  for (const p of pathParams) {
    const path = { ...validPath, [p.name]: invalidParam(p.schema, options).filter(routable) };
    variants.push(build(`invalid params.${p.name}`, path, validQuery, validBody, (r) => r.params[p.name]));
  }
  for (const p of queryParams) {
    const query = fc.tuple(validQuery, invalidParam(p.schema, options)).map(([q, bad]) => ({ ...q, [p.name]: bad }));
    variants.push(build(`invalid query.${p.name}`, validPath, query, validBody, (r) => r.query[p.name]));
  }
  if (bodySchema) {
    const badBodies = invalidValue(bodySchema, options).map((json) => ({ json }));
    const body = requestBody?.required ? fc.option(badBodies, { nil: undefined, freq: 8 }) : badBodies; // or none at all
    variants.push(build('invalid body', validPath, validQuery, body, (r) => r.body?.json));
  }
  // Half valid requests, half invalid ones spread over the parts.
  return variants.length === 1
    ? variants[0]
    : fc.oneof({ weight: variants.length - 1, arbitrary: variants[0] }, ...variants.slice(1).map((arbitrary) => ({ weight: 1, arbitrary })));
}

/** Statuses seen, per operation and kind of request: printed with FUZZ_STATS=1. */
const seen = new Map<string, Map<string, number>>();
function count(operationId: string, key: string) {
  const byKey = seen.get(operationId) ?? new Map<string, number>();
  byKey.set(key, (byKey.get(key) ?? 0) + 1);
  seen.set(operationId, byKey);
}
afterAll(() => {
  if (!process.env.FUZZ_STATS) return;
  for (const [id, byKey] of seen) console.log(`${id}: ${[...byKey].map(([k, n]) => `${k} ×${n}`).join(', ')}`);
});

describe(`fuzz: every implemented operation, ${FUZZ_RUNS} generated requests each`, () => {
  it('covers the implemented operations (the others answer 501 and are skipped)', () => {
    expect(implementedOperations.length).toBeGreaterThan(0);
  });

  it.each(implementedOperations)('$operationId', async (op) => {
    const options: GenOptions = { stringsFor: (name) => idsFor(world, name) };
    const declared = Object.keys(op.responses).map(Number);
    const acceptable = new Set([...declared.filter((s) => s < 300), 401, 403, 404, 409, 413, 415]);
    await fc.assert(
      fc.asyncProperty(requests(op, options), async (req) => {
        const res = await send(h.current.app, op.method as 'get', req.path, {
          token: world.admin.token,
          query: req.query,
          ...(req.body && { raw: { data: JSON.stringify(req.body.json), contentType: 'application/json' } }),
        });
        const answer = `${req.operationId} (${req.kind}) -> ${res.status} ${JSON.stringify(res.body)}`;
        count(op.operationId, `${req.kind.split(' ')[0]} ${res.status}`);
        expect(res.status >= 500, answer).toBe(false);
        if (req.kind === 'valid') {
          const documented = res.status === 400 && isDocumented400(op.operationId, res.body?.error?.message);
          expect(documented || acceptable.has(res.status), answer).toBe(true);
        } else {
          expect(res.status, answer).toBe(400);
          if (containsNul(req.bad)) expect(res.body.error.message, answer).toMatch(/must not contain the NUL character/);
        }
      }),
      fuzzParameters(),
    );
  }, 180_000);
});

// The examples the fuzzer first failed on (500s before the rule), kept as plain regression tests.
describe('the NUL rule: U+0000 is refused in every part of a request, naming the field', () => {
  const nul = 'must not contain the NUL character (U+0000)';

  it('in a body value', async () => {
    const res = await world.admin.api.post(`/orgs/${world.admin.organizationId}/spaces`, { title: 'a\u0000b' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(`Invalid request: body.title: ${nul}`);
  });

  it('in a body key, also next to other problems', async () => {
    const res = await world.admin.api.patch(`/spaces/${world.ids.space[0]}`, { 'a\u0000b': 1, title: 7 });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(`body.a\\u0000b: ${nul}`);
    expect(res.body.error.message).toContain('body.title: ');
  });

  it('in a path parameter', async () => {
    const res = await world.admin.api.get('/spaces/a%00b');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(`Invalid request: params.spaceId: ${nul}`);
  });

  it('in a query parameter', async () => {
    const res = await world.admin.api.get(`/orgs/${world.admin.organizationId}/spaces`, { page: 'a\u0000b' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(`Invalid request: query.page: ${nul}`);
  });

  it('deep inside a body nested far beyond any schema, without exhausting the stack', async () => {
    const deep = '['.repeat(50_000) + '"a\\u0000b"' + ']'.repeat(50_000);
    const res = await send(h.current.app, 'post', `/v1/orgs/${world.admin.organizationId}/spaces`, {
      token: world.admin.token,
      raw: { data: `{"title": "x", "emoji": ${deep}}`, contentType: 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(nul);
    expect(res.body.error.message.length).toBeLessThan(1000);
  });
});
