// Fuzzes every operation with requests generated from the published document: valid ones, ones with
// exactly one invalid path parameter, query parameter or body, and hostile bodies (nested far deeper
// than any schema, a gzip encoding that is not gzip, bytes that are not UTF-8, a lone surrogate). It fails on
//   - any 5xx,
//   - any answer the document does not allow (status or body; `send` checks every response),
//   - invalid input that is not refused with 400, hostile input not refused with a 4xx naming the problem,
//   - valid input refused with 400, unless the operation documents that refusal (see `documented400`),
//   - a valid request on the world's resources (which exist and the caller sees) answered anything but a
//     2xx or a refusal naming the body or query part it refuses; after a write of the same test on them,
//     what their read says decides: gone, 404 and nothing else (see `validRefusal`, `stateOf`); each tuple
//     of a write is in an organization of its own,
//   - an operation whose generated valid requests never reached a 2xx (test-results/fuzz-reach.json has
//     the counts; the recipe's own request, always the first, is not counted).
// Valid requests take their ids from a world of real resources made through the API (fuzz-world.ts;
// its recipes are the access matrix's, test/support/matrix/); the first one of each operation is the
// recipe's own request.
// FUZZ_RUNS sets the requests per operation (default 20, as .ci/run runs it on every pass);
// FUZZ_SEED the seed (by default today's date, printed); a failure prints its seed, fast-check's replay
// path (FUZZ_SEED=<seed> FUZZ_PATH=<path> replays it) and the request as a curl command. FUZZ_STATS=1
// prints the statuses seen per operation.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../server/app.js';
import { handlers } from '../server/handlers.js';
import { send } from './support/api.js';
import { containsNul, invalidParam, invalidValue, isValid, validParam, validValue, type GenOptions } from './support/arbitraries.js';
import {
  createAccounts,
  createWorld,
  FUZZ_RUNS,
  FUZZ_SEED,
  fuzzParameters,
  idsFor,
  implementedOperations,
  tuplesFor,
  type Tuple,
  type World,
} from './support/fuzz-world.js';
import { PUBLIC_URL, useHarness } from './support/harness.js';
import { resultsDir } from './support/paths.js';
import { resolveRef, specOperations, type SpecOperation } from './support/spec.js';
import { downloadOperations } from '../contract/index.js';
import { CONDITIONAL } from '../contract/conditional.js';
import { matrixFixtures } from './support/matrix/index.js';

type Json = Record<string, any>;

const h = useHarness();

/**
 * Site conditions in the grammar the contract describes (server/conditions/grammar.ts), over literals only:
 * the fuzz world's sites define no claims, and a claim they do not define is a 400 by design.
 */
const conditionText: fc.Arbitrary<string> = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('true', 'false', 'null', '1', '0', '"beta"'),
    tie('expr').map((e) => `!${e}`),
    tie('expr').map((e) => `(${e})`),
    fc.tuple(tie('expr'), fc.constantFrom('&&', '||', '==', '!=', '===', '!=='), tie('expr')).map(([a, op, b]) => `${a} ${op} ${b}`),
    fc.tuple(tie('expr'), tie('expr'), tie('expr')).map(([a, b, c]) => `${a} ? ${b} : ${c}`),
  ),
})).expr;
// A fresh world for each test, organizations included, so that an operation run earlier (a delete, a
// move, merge rules or a default role set on the organization) leaves the next one a world it can reach.
// Reads change nothing of it, so the fuzzed reads run first and share one world (`reusable`): that saves
// building about 85 worlds, a fifth of the file's time.
let world: World;
let reusable = false;
/** Time spent building worlds, and how many were built: printed at the end. */
const worldCost = { ms: 0, built: 0 };
beforeEach(async () => {
  if (reusable) return;
  const started = performance.now();
  world = await createWorld(h.current, await createAccounts(h.current));
  worldCost.ms += performance.now() - started;
  worldCost.built++;
});

/** How a hostile body is broken. */
type Hostile = 'deep' | 'gzip' | 'utf8' | 'surrogate';

interface FuzzRequest {
  operationId: string;
  /** `valid`, `hostile <how>`, or which single part is invalid, e.g. `invalid params.spaceId`. */
  kind: string;
  path: string;
  query: Record<string, string | string[]>;
  /** Absent: no body is sent. */
  body?: { json: unknown };
  /** A body sent as these bytes instead, with these headers (hostile requests). */
  raw?: { data: Buffer; headers: Record<string, string> };
  /** The invalid value, when there is one. */
  bad?: unknown;
  /** The path parameters of a world tuple (made by the recipes, visible to the caller); absent when generated. */
  tuple?: Record<string, string>;
  /** The recipe's own request, the first of each operation: not counted as a generated request. */
  recipe?: true;
}

/**
 * Refusals of valid-looking input that the document states in words (a rule its schemas cannot
 * express): valid input answered 400 with a matching message is accepted, for the given operation or
 * for all.
 */
const documented400: { operationId?: string; message: RegExp }[] = [
  // Invite links: "an `expiresAt` in the past is 400"; "the other field is 400" (role of a content invite, level of an organization invite).
  { operationId: 'createOrganizationInvite', message: /body\.expiresAt: must be in the future/ },
  { operationId: 'updateOrganizationInviteById', message: /body\.(role|level): this invite is to/ },
  // Invitations by email: an `expiresAt` in the future; with `sso`, "400 when it has none" (a SAML provider).
  { operationId: 'inviteUsersToOrganization', message: /body\.(expiresAt: must be in the future|sso: organization \S+ is asked for SSO but has no SAML provider)/ },
  // PageCursor: "from `next.page` of the previous page; any other value is refused (400)".
  { message: /^Invalid request: query\.page: not a page identifier/ },
  // "A `defaultContent` that names a site the organization does not have is refused (400)".
  { operationId: 'updateOrganizationById', message: /defaultContent/ },
  // "as is a `communityType` for an organization whose `type` is not `community`".
  { operationId: 'updateOrganizationById', message: /body\.communityType: only for an organization whose type is community/ },
  // SAML providers: "a `defaultTeam` the organization does not have" and a certificate that is not X.509 are refused (400).
  { operationId: 'createOrganizationSAMLProvider', message: /body\.(defaultTeam|certificate)/ },
  { operationId: 'updateOrganizationSAMLProvider', message: /body\.(defaultTeam|certificate)/ },
  // "a target language equal to the source language ... is refused (400)".
  { operationId: 'createTranslation', message: /body\.language: must differ/ },
  // Rendering an integration UI: "A component the script refuses (unknown to it, or its own 4xx) is a 400 with the script's reason".
  { operationId: 'renderIntegrationUIWithPost', message: /body\.componentId: The integration's script answered 4\d\d/ },
  { operationId: 'renderIntegrationUIWithGet', message: /query\.request(\.componentId: The integration's script answered 4\d\d|: not LZ-string compressed JSON)/ },
  // Integration tasks: "A payload over 64 KiB is refused (400 naming `body.task`)".
  { operationId: 'queueIntegrationTask', message: /body\.task: at most/ },
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
  // Publishing auth: "`integration`: the integration with the `site:visitor:auth` scope installed on the site signs visitor tokens, a 400 when none is".
  { operationId: 'updateSitePublishingAuthById', message: /body\.backend: "integration" needs an integration with the site:visitor:auth scope/ },
  // Change-request PDF: "only that page with `only=true` (which needs `page`)".
  { operationId: 'getChangeRequestPDF', message: /query\.page: `only=true` needs `page`/ },
  // Change-request content: "a file whose `url` cannot be fetched is refused (400, naming it)".
  { operationId: 'updateChangeRequestContent', message: /^body\.changes\[\d+\]\.files\[\d+\]\.url: .* could not be fetched/s },
  // Comments: "`node` and `tableCell` need their `page` (400 otherwise)".
  { operationId: 'postCommentInSpace', message: /^body\.(node|tableCell) .*give its page in body\.page/ },
  // Templates: "a name the template does not use, or a reference of another kind, is refused (400)".
  { operationId: 'applyTemplateToSpace', message: /body\.params\.contentRefs\./ },
  // Computed content: "an operation, tag or specification that does not exist (400 naming `dependencies.spec` or `props.page`)";
  // an integration's source: "400 naming `source.type` when no such integration is installed on the space or it declared no
  // such content source"; "Other kinds [of dependencies] are refused (400 naming the dependency)".
  ...['getComputedDocument', 'getComputedRevision'].map((operationId) => ({ operationId, message: /^body\.source\.(dependencies\.spec|dependencies\.[^:]+\.ref|props\.page|type): / })),
  // Embeds: "400 when `url` is not an http(s) URL" (one with credentials included).
  { operationId: 'getEmbedByUrlInSpace', message: /^query\.url: / },
  // Site search: "400 for `restrictTo` without `currentSiteSpace`" (the scope's `restrictTo`: "Needs `currentSiteSpace`").
  { operationId: 'searchSiteContent', message: /^Invalid request: body\.scope\.currentSiteSpace: required with restrictTo$/ },
  // Conditions (sections, site spaces, header links, pages): "a condition outside the grammar ... is refused (400)".
  { message: /^Invalid request: body\.(condition|header\.links\[\d+\]\.condition|changes\[\d+\]\.condition): at character \d+: / },
];

function isDocumented400(operationId: string, message: unknown): boolean {
  return documented400.some((d) => (d.operationId ?? operationId) === operationId && d.message.test(String(message)));
}

/** A JSON text nested `depth` levels deep (arrays or objects), around a string. */
function nested(depth: number, objects: boolean): string {
  return objects ? '{"a":'.repeat(depth) + '"x"' + '}'.repeat(depth) : '['.repeat(depth) + '"x"' + ']'.repeat(depth);
}

/** The bytes of a hostile body built on a valid one, with the headers to send it with. */
function hostileBody(how: Hostile, valid: unknown, depth: number, objects: boolean): { data: Buffer; headers: Record<string, string> } {
  const base = valid !== null && typeof valid === 'object' && !Array.isArray(valid) ? (valid as Json) : {};
  const json = JSON.stringify({ ...base, fuzzHostile: 'MARK' });
  switch (how) {
    case 'deep': // a value nested far deeper than any schema, where the stack of a recursive validator would end
      return { data: Buffer.from(json.replace('"MARK"', nested(depth, objects))), headers: {} };
    case 'gzip': // says gzip, is not
      return { data: Buffer.from(json), headers: { 'Content-Encoding': 'gzip' } };
    case 'utf8': // a byte that is not UTF-8 inside a string (0xff never is)
      return { data: Buffer.concat([Buffer.from(json.split('MARK')[0]), Buffer.from([0xff, 0xfe]), Buffer.from(json.split('MARK')[1])]), headers: {} };
    case 'surrogate': // a lone surrogate, escaped as JSON allows but no Unicode text holds
      return { data: Buffer.from(json.replace('MARK', 'a\\ud800b')), headers: {} };
  }
}

/** What a refusal of each hostile body must name. */
const hostileMessage: Record<Hostile, RegExp> = {
  deep: /nested deeper than \d+ levels/,
  gzip: /gzip/,
  utf8: /not valid UTF-8/,
  surrogate: /lone surrogate/,
};

/** A path segment the router and URL normalization leave alone: not empty, not `.` or `..`. */
const routable = (t: string | string[]): t is string => typeof t === 'string' && t !== '' && t !== '.' && t !== '..';

function pathOf(op: SpecOperation, params: Record<string, string>): string {
  return `/v1${op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]))}`;
}

/** The recipe's own request for a tuple: the first valid request of every operation. */
function recipeRequest(op: SpecOperation, tuple: Tuple): FuzzRequest {
  const requestBody = op.operation.requestBody as Json | undefined;
  const body = requestBody ? (tuple.body ?? (requestBody.required ? {} : undefined)) : undefined;
  return {
    operationId: op.operationId,
    kind: 'valid',
    path: pathOf(op, tuple.params),
    query: tuple.query ?? {},
    ...(body !== undefined && { body: { json: body } }),
    tuple: tuple.params,
    recipe: true,
  };
}

function requests(op: SpecOperation, tuples: Tuple[], options: GenOptions): fc.Arbitrary<FuzzRequest> {
  const parameters = (op.operation.parameters ?? []) as Json[];
  const pathParams = parameters.filter((p) => p.in === 'path');
  const queryParams = parameters.filter((p) => p.in === 'query');
  const requestBody = op.operation.requestBody as Json | undefined;
  const bodySchema = requestBody?.content?.['application/json']?.schema as Json | undefined;

  // The path: one of the world's tuples mostly, else each parameter on its own (random text or world ids).
  const randomPath = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, validParam(p.schema, p.name, options).filter(routable)])));
  const tupleIndex = tuples.length > 0 && pathParams.length > 0 ? fc.oneof({ weight: 4, arbitrary: fc.nat(tuples.length - 1) }, { weight: 1, arbitrary: fc.constant(-1) }) : fc.constant(-1);
  const paramsOf = (i: number): fc.Arbitrary<Record<string, string>> => (i >= 0 ? fc.constant(tuples[i].params) : randomPath);
  const recipeOf = (i: number): Tuple | undefined => tuples[Math.max(i, 0)];

  const generatedQuery = fc.record(Object.fromEntries(queryParams.map((p) => [p.name, validParam(p.schema, p.name, options)])), {
    requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name) as never[],
  });
  // The recipe's query with generated optional parameters (when the two still validate together), or a generated one.
  // Without a recipe query and with no required parameter, also none at all: generated optional
  // parameters (filters naming pages that do not exist, forged cursors) would otherwise refuse nearly
  // every generated request, and a valid request is expected to reach its 2xx.
  const noQuery = queryParams.some((p) => p.required) ? [] : [fc.constant({})];
  const queryFor = (recipe: Tuple | undefined): fc.Arbitrary<Record<string, string | string[]>> =>
    !recipe?.query
      ? fc.oneof(...noQuery, generatedQuery)
      : fc.oneof(fc.constant(recipe.query), generatedQuery.map((q) => ({ ...q, ...recipe.query })), generatedQuery);

  const someBody = bodySchema ? validValue(bodySchema, options) : undefined;
  // The recipe's body, the recipe's body with generated optional properties (when the two still validate
  // together), or a generated one; an optional body may be left out.
  const bodyFor = (recipe: Tuple | undefined): fc.Arbitrary<{ json: unknown } | undefined> => {
    if (!someBody || !bodySchema) return fc.constant(undefined);
    // The recipe's body as the request takes it: asked again when the recipe makes fresh keys.
    const recipeBody = () => (recipe?.freshBody ? recipe.freshBody() : recipe?.body);
    const merged = (generated: unknown) => {
      const body = recipeBody();
      const both = isObject(generated) && isObject(body) ? { ...generated, ...body } : body;
      return isValid(bodySchema, both) ? both : body;
    };
    // Without a recipe body, also the empty one where it is valid (as for the query above).
    const choices: fc.Arbitrary<unknown> =
      recipe?.body !== undefined
        ? fc.oneof(recipe.freshBody ? fc.constant(undefined).map(recipeBody) : fc.constant(recipe.body), someBody.map(merged), someBody)
        : isValid(bodySchema, {})
          ? fc.oneof(fc.constant({}), someBody)
          : someBody;
    const wrapped = choices.map((json) => ({ json }));
    return requestBody?.required ? wrapped : fc.option(wrapped, { nil: undefined, freq: 4 });
  };

  type Parts = { params: Record<string, string>; query: Record<string, string | string[]>; body?: { json: unknown }; tuple?: number };
  const request = (kind: string, parts: fc.Arbitrary<Parts>, bad: (r: Parts) => unknown = () => undefined): fc.Arbitrary<FuzzRequest> =>
    parts.map((r) => ({
      operationId: op.operationId,
      kind,
      path: pathOf(op, r.params),
      query: r.query,
      ...(r.body && { body: r.body }),
      ...(kind !== 'valid' && { bad: bad(r) }),
      // No path parameter: nothing in the path can be missing, as with a world tuple's.
      ...((pathParams.length === 0 || (r.tuple ?? -1) >= 0) && { tuple: r.params }),
    }));
  const validParts = (i: number) => fc.record({ params: paramsOf(i), query: queryFor(recipeOf(i)), body: bodyFor(recipeOf(i)), tuple: fc.constant(i) });

  const variants: fc.Arbitrary<FuzzRequest>[] = [request('valid', tupleIndex.chain(validParts))];
  for (const p of pathParams) {
    const parts = tupleIndex.chain((i) =>
      fc.record({
        params: fc.tuple(paramsOf(i), invalidParam(p.schema, options).filter(routable)).map(([params, bad]) => ({ ...params, [p.name]: bad })),
        query: queryFor(recipeOf(i)),
        body: bodyFor(recipeOf(i)),
      }),
    );
    variants.push(request(`invalid params.${p.name}`, parts, (r) => r.params[p.name]));
  }
  for (const p of queryParams) {
    const parts = tupleIndex.chain((i) =>
      fc.record({
        params: paramsOf(i),
        query: fc.tuple(queryFor(recipeOf(i)), invalidParam(p.schema, options)).map(([q, bad]) => ({ ...q, [p.name]: bad })),
        body: bodyFor(recipeOf(i)),
      }),
    );
    variants.push(request(`invalid query.${p.name}`, parts, (r) => r.query[p.name]));
  }
  if (bodySchema) {
    const badBodies = invalidValue(bodySchema, options).map((json) => ({ json }));
    const body = requestBody?.required ? fc.option(badBodies, { nil: undefined, freq: 8 }) : badBodies; // or none at all
    const parts = tupleIndex.chain((i) => fc.record({ params: paramsOf(i), query: queryFor(recipeOf(i)), body }));
    variants.push(request('invalid body', parts, (r) => r.body?.json));
    // Hostile bodies, built on a valid request.
    const hostile = fc
      .tuple(tupleIndex.chain(validParts), fc.constantFrom<Hostile>('deep', 'gzip', 'utf8', 'surrogate'), fc.integer({ min: 1_000, max: 20_000 }), fc.boolean())
      .map(([r, how, depth, objects]): FuzzRequest => ({
        operationId: op.operationId,
        kind: `hostile ${how}`,
        path: pathOf(op, r.params),
        query: r.query,
        raw: hostileBody(how, r.body?.json, depth, objects),
      }));
    variants.push(hostile);
  }
  // Half valid requests, half invalid or hostile ones spread over the parts.
  return variants.length === 1
    ? variants[0]
    : fc.oneof({ weight: variants.length - 1, arbitrary: variants[0] }, ...variants.slice(1).map((arbitrary) => ({ weight: 1, arbitrary })));
}

/**
 * Whether an error names a part of the body or query, or quotes an id the body or query carries (`Organization
 * x not found` for `{ "organization": "x" }`): a refusal of what the request refers to there, not of its path.
 */
function namesBodyOrQuery(message: unknown, req: FuzzRequest): boolean {
  if (/\b(body|query)\.\w/.test(String(message))) return true;
  const values = JSON.stringify([req.body?.json ?? null, req.query]).match(/"(?:[^"\\]|\\.)*"/g) ?? [];
  return values.map((v) => JSON.parse(v) as string).some((v) => v.length > 0 && String(message).includes(` ${v} `));
}

/** What a tuple's resource is now: `gone` when it is not found, `there` when it is, `undefined` when no read says. */
type TupleState = 'gone' | 'there' | undefined;

/**
 * The state of what a request on `tuple` acts on, read as the admin: the GET at the operation's path up to
 * its last parameter (`/spaces/{spaceId}` for `/spaces/{spaceId}/comments`), or, when the API has no such
 * read, the nearest one above it (`/spaces/{spaceId}` for `/spaces/{spaceId}/permissions/users/{userId}`).
 */
async function stateOf(op: SpecOperation, tuple: Record<string, string>): Promise<TupleState> {
  let template = op.path;
  for (;;) {
    const end = template.lastIndexOf('}');
    if (end < 0) return undefined;
    template = template.slice(0, end + 1);
    const read = template;
    if (specOperations.some((o) => o.method === 'get' && o.path === read && o.operationId !== op.operationId)) {
      const res = await send(h.current.app, 'get', pathOf({ ...op, path: read }, tuple), { token: world.admin.token });
      return res.status === 404 ? 'gone' : res.status < 300 ? 'there' : undefined;
    }
    template = template.slice(0, template.lastIndexOf('/{'));
  }
}

/**
 * Why the answer to a valid request is wrong, or undefined when it is right. What the request's path
 * addresses is decided by the state it acts on: a tuple's resources exist and the caller (the admin of
 * their organization, each tuple of a write in an organization of its own) sees them, so they answer 2xx;
 * a refusal (403, 404, 409) must name the body or query part it refuses (an id of a resource of another
 * organization, a name taken). After a write of this test succeeded on the tuple, its state is read
 * (`stateOf`): gone, the request is answered 404 and nothing else; there, the same rule as before any
 * write, and a 409 the operation declares (the resource is in a state the write refuses: a change request
 * merged, a name taken by the write before) only when the read shows it changed. A path made of generated
 * values may name nothing that exists: any declared refusal.
 */
function validRefusal(op: SpecOperation, req: FuzzRequest, res: { status: number; body: any }, state: TupleState | 'unchanged'): string | undefined {
  const { status } = res;
  const message = res.body?.error?.message;
  if (status >= 200 && status < 300) return undefined;
  if (status === 400 && isDocumented400(op.operationId, message)) return undefined;
  if (status === 400) return 'valid input refused with 400, which the document does not state';
  if (!req.tuple) return [403, 404, 409, 413].includes(status) ? undefined : `a generated path answered ${status}`;
  if (state === 'gone') return status === 404 ? undefined : `what ${JSON.stringify(req.tuple)} addresses is gone (its read answers 404): expected 404, got ${status}`;
  if ([403, 404, 409, 413].includes(status) && namesBodyOrQuery(message, req)) return undefined;
  if (state !== 'unchanged' && status === 409 && op.responses['409']) return undefined;
  return `the world's ${JSON.stringify(req.tuple)} exist${state === 'unchanged' ? ' unchanged' : ` (read after a write: ${state ?? 'no read'})`} and are visible to the caller: expected a 2xx or a refusal naming the body or query, got ${status}`;
}

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The request as a curl command against a local server, to replay it by hand. */
function replay(op: SpecOperation, req: FuzzRequest): string {
  const query = new URLSearchParams(Object.entries(req.query).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]]))).toString();
  const url = `http://localhost:3000${req.path}${query ? `?${query}` : ''}`;
  const headers = Object.entries(req.raw?.headers ?? {}).map(([k, v]) => ` -H '${k}: ${v}'`).join('');
  const data = req.raw
    ? ` --data-binary "$(printf '%s' '${req.raw.data.toString('base64').slice(0, 2000)}' | base64 -d)"`
    : req.body
      ? ` --data-binary '${JSON.stringify(req.body.json).replaceAll("'", "'\\''")}'`
      : '';
  const type = req.raw || req.body ? " -H 'Content-Type: application/json'" : '';
  return `curl -X ${op.method.toUpperCase()} '${url}' -H "Authorization: Bearer $TOKEN"${type}${headers}${data}`;
}

/** Requests and 2xx answers of valid requests, per operation: written to test-results/fuzz-reach.json. */
const reach = new Map<string, { valid: number; '2xx': number }>();
/** Statuses seen, per operation and kind of request: printed with FUZZ_STATS=1. */
const seen = new Map<string, Map<string, number>>();
function count(operationId: string, key: string) {
  const byKey = seen.get(operationId) ?? new Map<string, number>();
  byKey.set(key, (byKey.get(key) ?? 0) + 1);
  seen.set(operationId, byKey);
}
/**
 * The properties of the documented example of each success, and those the server's answers held (the
 * object itself, or the items of a list's `items`): a property the example shows and no answer ever had
 * is drift between the mock (which answers the example) and the server. It fails the drift test unless
 * the contract marks the property conditional (`x-conditional: true`, set with `conditional()` of
 * contract/conditional.ts; its description says when it is absent): an optional property legitimately
 * missing in the fuzz world's answers. The flag decides, not the wording. Every drifted property, flagged
 * or not, is written to test-results/fuzz-drift.json with its description when flagged.
 */
const answered = new Map<string, { op: SpecOperation; status: number; example: Set<string>; seen: Set<string> }>();
/** Lists whose every success answered no item: nothing of their items could be compared. */
const emptyLists = new Set<string>();
/** The objects an answer (or example) shows: itself, or the items of a list (an empty list shows none). */
function shapes(body: unknown): Json[] {
  if (!isObject(body)) return [];
  if (!Array.isArray(body.items)) return [body];
  return body.items.filter(isObject);
}
function noteProperties(op: SpecOperation, status: number, body: unknown) {
  const key = `${op.operationId} ${status}`;
  const exampleBody = resolveRef(op.responses[String(status)])?.content?.['application/json']?.example as unknown;
  const [example] = shapes(exampleBody);
  if (!example || Array.isArray((exampleBody as Json).items) !== Array.isArray((body as Json)?.items)) return;
  // An empty list shows nothing of its items: only answers that show an object are compared.
  const got = shapes(body);
  if (got.length === 0) {
    if (!answered.has(key)) emptyLists.add(key);
    return;
  }
  emptyLists.delete(key);
  const entry = answered.get(key) ?? { op, status, example: new Set(Object.keys(example)), seen: new Set<string>() };
  for (const item of got) for (const k of Object.keys(item)) entry.seen.add(k);
  answered.set(key, entry);
}

/** A schema with its `$ref` followed. */
const deref = (schema: unknown): Json | undefined => (isObject(schema) ? resolveRef(schema) : undefined);

/**
 * The schema parts of property `name` in an object schema (through `$ref`, `allOf`, `anyOf`, `oneOf`) that
 * sit on it where the object names it: the property, and its `allOf` parts that are not a `$ref` (where
 * zod-to-openapi puts the description and extensions of a use of a named schema). Not those of a shared
 * component it refers to: a component is not conditional everywhere it is used.
 */
function propertyParts(schema: unknown, name: string, seen = new Set<Json>()): Json[] | undefined {
  const s = deref(schema);
  if (!s || seen.has(s)) return undefined;
  seen.add(s);
  const property = s.properties?.[name];
  if (isObject(property)) return [property, ...((property.allOf ?? []) as Json[]).filter((part) => isObject(part) && !part.$ref)];
  for (const k of ['allOf', 'anyOf', 'oneOf']) {
    for (const branch of (s[k] ?? []) as unknown[]) {
      const found = propertyParts(branch, name, seen);
      if (found) return found;
    }
  }
  return undefined;
}

/** The schema of what the response shows: the object, or the item of a list. */
function itemSchema(op: SpecOperation, status: number): Json | undefined {
  const schema = deref(deref(op.responses[String(status)])?.content?.['application/json']?.schema);
  const items = deref(schema?.properties?.items);
  return items?.type === 'array' ? deref(items.items) : schema;
}

/** The description of a property the contract flags conditional (`x-conditional: true`); undefined when it is not flagged. */
function conditionalNote(op: SpecOperation, status: number, name: string): string | undefined {
  const parts = propertyParts(itemSchema(op, status), name) ?? [];
  if (!parts.some((part) => part[CONDITIONAL] === true)) return undefined;
  return parts.map((part) => part.description).find((d): d is string => typeof d === 'string') ?? '(conditional)';
}

/** Example properties no answer had: `{ "<operationId> <status>": { "<property>": <its description when flagged conditional, or null> } }`. */
function driftReport(): Record<string, Record<string, string | null>> {
  return Object.fromEntries(
    [...answered]
      .map(([key, { op, status, example, seen }]) => {
        const missing = [...example].filter((k) => !seen.has(k));
        return [key, Object.fromEntries(missing.map((k) => [k, conditionalNote(op, status, k) ?? null]))] as const;
      })
      .filter(([, missing]) => Object.keys(missing).length > 0),
  );
}

afterAll(() => {
  mkdirSync(resultsDir, { recursive: true });
  const drift = driftReport();
  writeFileSync(path.join(resultsDir, 'fuzz-drift.json'), JSON.stringify(drift, null, 2) + '\n');
  console.info(`fuzz: ${Object.keys(drift).length} success response(s) whose example shows properties no answer had (test-results/fuzz-drift.json)`);
  console.info(`fuzz: ${worldCost.built} worlds built in ${(worldCost.ms / 1000).toFixed(1)} s`);
  const byOperation = Object.fromEntries([...reach].sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(path.join(resultsDir, 'fuzz-reach.json'), JSON.stringify(byOperation, null, 2) + '\n');
  if (!process.env.FUZZ_STATS) return;
  for (const [id, byKey] of seen) console.log(`${id}: ${[...byKey].map(([k, n]) => `${k} ×${n}`).join(', ')}`);
});

/**
 * Operations allowed not to reach a 2xx, each with the reason; keep it as short as possible. An operation
 * here that does reach one fails the reach test too, so the list cannot go stale.
 */
const unreachedAllowed: Record<string, string> = {};

describe(`fuzz (seed ${FUZZ_SEED}): every operation, ${FUZZ_RUNS} generated requests each`, () => {
  it('covers the implemented operations (the others answer 501 and are skipped)', () => {
    expect(implementedOperations.length).toBeGreaterThan(0);
  });

  // Every handler made to fail with a message holding internals, for the first recipe request of each
  // operation: past authentication, validation and the access rule, the 500 must say nothing of it.
  const secret = 'relation "internal_table" does not exist at /srv/server/db.ts:42';
  const failing = Object.fromEntries(Object.keys(handlers).map((id) => [id, () => Promise.reject(new Error(secret))])) as unknown as typeof handlers;
  let failingApp: ReturnType<typeof createApp>;
  beforeAll(() => {
    failingApp = createApp({ db: h.current.db, logger: pino({ level: 'silent' }), publicUrl: PUBLIC_URL, handlers: failing });
  });

  // Reads first, sharing one world (see `reusable`); each write gets a fresh one.
  const ordered = [...implementedOperations.filter((op) => op.method === 'get'), ...implementedOperations.filter((op) => op.method !== 'get')];
  it.each(ordered)('$operationId', async (op) => {
    reusable = false; // set again at the end of a read that passed
    const tuples = await tuplesFor(world, op, 2, op.method !== 'get');
    const options: GenOptions = { stringsFor: (name) => idsFor(world, name), languageFor: (name) => (name === 'condition' ? conditionText : undefined) };
    /** The ids of the world tuples a write of this test changed (deleted, moved, merged, …). */
    const changed = new Set<string>();
    const stats = reach.get(op.operationId) ?? { valid: 0, '2xx': 0 };
    reach.set(op.operationId, stats);

    const first = recipeRequest(op, tuples[0]);
    const failed = await send(failingApp, op.method as 'get', first.path, {
      token: world.admin.token,
      query: first.query,
      ...(first.body && { body: first.body.json }),
      expectServerError: true,
    });
    const failedAnswer =
      failed.status === 400
        ? `the recipe request of ${op.operationId} is refused (${failed.body.error?.message}): give it a body or query recipe under test/support/matrix/`
        : `${op.operationId} with a failing handler -> ${failed.status} ${JSON.stringify(failed.body)}`;
    // 204: an idempotent delete of what the caller cannot see answers before the handler; joinOrganization as a member.
    if (failed.status !== 204) expect(failed.body, failedAnswer).toEqual({ error: { code: 500, message: 'An unexpected error occurred' } });

    await fc.assert(
      fc.asyncProperty(requests(op, tuples, options), async (req) => {
        const res = await send(h.current.app, op.method as 'get', req.path, {
          token: world.admin.token,
          query: req.query,
          ...(req.body && { raw: { data: JSON.stringify(req.body.json), contentType: 'application/json' } }),
          ...(req.raw && { raw: { data: req.raw.data, contentType: 'application/json' }, headers: req.raw.headers }),
        });
        const answer = `${req.operationId} (${req.kind}) -> ${res.status} ${JSON.stringify(res.body).slice(0, 1000)}\nreplay: ${replay(op, req)}`;
        count(req.operationId, `${req.kind} ${res.status}`);
        if (res.status >= 200 && res.status < 300) noteProperties(op, res.status, res.body);
        expect(res.status < 500, answer).toBe(true);
        if (req.kind === 'valid') {
          // The recipe's request always goes first and is no generated request: it does not count.
          if (!req.recipe) {
            stats.valid++;
            if (res.status >= 200 && res.status < 300) stats['2xx']++;
          }
          const state = req.tuple && Object.values(req.tuple).some((id) => changed.has(id)) && (res.status < 200 || res.status >= 300) ? await stateOf(op, req.tuple) : 'unchanged';
          expect(validRefusal(op, req, res, state), `${answer}\nstate: ${state}`).toBeUndefined();
          if (req.tuple && op.method !== 'get' && res.status < 300) for (const id of Object.values(req.tuple)) changed.add(id);
        } else if (req.kind.startsWith('hostile ')) {
          const how = req.kind.slice('hostile '.length) as Hostile;
          expect(res.status >= 400 && res.status < 500, answer).toBe(true);
          expect(res.body.error.message, answer).toMatch(hostileMessage[how]);
        } else {
          expect(res.status, answer).toBe(400);
          if (containsNul(req.bad)) expect(res.body.error.message, answer).toMatch(/must not contain the NUL character/);
        }
      }),
      { ...fuzzParameters(), examples: [[first]] },
    );
    // A read leaves the world as it found it, so the next read may use it (a write gets a new one).
    reusable = op.method === 'get';
  }, 180_000);

  // The paths served without a token (contract/downloads.ts): the recipe's URL (as the API hands it out)
  // answers 200 whatever token comes with it; the same URL with a path segment or a query value replaced
  // by generated text answers the API's error body (a link this server did not make is not found), never a 5xx.
  it.each(Object.keys(downloadOperations))('%s (served without a token)', async (id) => {
    const make = matrixFixtures.find((f) => f.links?.[id])?.links?.[id];
    if (!make) throw new Error(`No link recipe for ${id}: add one under test/support/matrix/`);
    const url = new URL(await make(world.matrix), 'http://server');
    const stats = { valid: 0, '2xx': 0 };
    reach.set(id, stats);
    for (const token of [null, world.admin.token]) {
      const res = await send(h.current.app, 'get', url.pathname, { token, query: Object.fromEntries(url.searchParams) });
      stats.valid++;
      if (res.status === 200) stats['2xx']++;
      expect(res.status, `${id}: GET ${url.pathname}${url.search} -> ${res.status}`).toBe(200);
    }
    const segments = url.pathname.split('/');
    const keys = [...url.searchParams.keys()];
    const tampered = fc.record({
      at: fc.integer({ min: 0, max: Math.max(0, segments.length - 3 + keys.length) }),
      text: fc.oneof(fc.string({ minLength: 1, unit: 'binary' }), fc.constant('a\u0000b'), fc.string({ minLength: 1 })),
    });
    await fc.assert(
      fc.asyncProperty(tampered, async ({ at, text }) => {
        const parts = [...segments];
        const query = Object.fromEntries(url.searchParams);
        // Segments after `/v1/` first, then the query's values.
        if (at < segments.length - 2) parts[at + 2] = encodeURIComponent(text);
        else if (keys.length > 0) query[keys[at - (segments.length - 2)]] = text;
        const res = await send(h.current.app, 'get', parts.join('/'), { query });
        const answer = `${id}: GET ${parts.join('/')} ${JSON.stringify(query)} -> ${res.status} ${JSON.stringify(res.body)?.slice(0, 300)}`;
        expect(res.status < 500, answer).toBe(true);
        if (res.status >= 400) expect(res.body?.error?.code, answer).toBe(res.status);
      }),
      fuzzParameters(),
    );
  }, 180_000);

  it('every operation reached a 2xx with a valid request (test-results/fuzz-reach.json)', () => {
    const fuzzed = [...reach.keys()];
    // A run filtered to some operations (vitest -t) checks those only.
    const all = fuzzed.length >= implementedOperations.length;
    const problems = specOperations.flatMap((op): string[] => {
      const stats = reach.get(op.operationId);
      const allowed = op.operationId in unreachedAllowed;
      if (!stats) return all && !allowed ? [`${op.operationId}: not implemented (answers 501), so never reached`] : [];
      if (stats['2xx'] === 0 && !allowed) return [`${op.operationId}: ${stats.valid} valid requests, none answered 2xx`];
      if (stats['2xx'] > 0 && allowed) return [`${op.operationId}: reached a 2xx, take it off unreachedAllowed`];
      return [];
    });
    expect(problems).toEqual([]);
  });

  it('every property an example shows was returned, or the contract flags it conditional (test-results/fuzz-drift.json)', () => {
    reusable = false;
    const unexplained = Object.entries(driftReport()).flatMap(([key, missing]) =>
      Object.entries(missing)
        .filter(([, note]) => note === null)
        .map(([property]) => `${key}: ${property} (shown by the example, never returned, and not flagged conditional: contract/conditional.ts)`),
    );
    expect(unexplained).toEqual([]);
  });

  // A list that answered only empty pages compared nothing: the world must hold an item of it (a recipe
  // under test/support/matrix/: the create at the list's path, its item's parameter, or `lists`).
  it('every list answered at least one item to a valid request', () => {
    expect([...emptyLists].map((key) => `${key}: every answer was an empty list`)).toEqual([]);
  });
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
    const res = await world.admin.api.patch(`/spaces/${world.ids.spaceId[0]}`, { 'a\u0000b': 1, title: 7 });
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

});

// Hostile bodies found by hand before the fuzzer made them (500s, or text silently altered), kept as
// plain regression tests; the fuzzer generates each kind for every operation with a body.
describe('hostile bodies are refused with a 400 naming the problem', () => {
  /** A Document whose blocks nest `depth` blockquotes deep (each level is two JSON levels: block and its nodes). */
  function deepDocument(depth: number): unknown {
    let node: unknown = { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'deep', marks: [] }] }] };
    for (let i = 0; i < depth; i++) node = { object: 'block', type: 'blockquote', nodes: [node] };
    return { object: 'document', data: {}, nodes: [node] };
  }
  const instructions = () => `/orgs/${world.admin.organizationId}/agent-instructions`;

  it('a Document nested 1,000 deep, before validation can exhaust the stack', async () => {
    const res = await world.admin.api.put(instructions(), { instructions: deepDocument(1_000) });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^Invalid request: body\.instructions\.nodes\.0\.nodes[.\w]*…?: nested deeper than 256 levels$/);
    // One far under the limit is still a Document like any other.
    const shallow = await world.admin.api.put(instructions(), { instructions: deepDocument(20) });
    expect(shallow.status, JSON.stringify(shallow.body)).toBe(200);
  });

  it('a body nested 50,000 deep with U+0000 at the bottom, without exhausting the stack', async () => {
    const deep = '['.repeat(50_000) + '"a\\u0000b"' + ']'.repeat(50_000);
    const res = await send(h.current.app, 'post', `/v1/orgs/${world.admin.organizationId}/spaces`, {
      token: world.admin.token,
      raw: { data: `{"title": "x", "emoji": ${deep}}`, contentType: 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('nested deeper than 256 levels');
    expect(res.body.error.message.length).toBeLessThan(1000);
  });

  it('a body that says Content-Encoding: gzip and is not; a real gzip body is read', async () => {
    const post = (data: Buffer) =>
      send(h.current.app, 'post', `/v1/orgs/${world.admin.organizationId}/spaces`, {
        token: world.admin.token,
        raw: { data, contentType: 'application/json' },
        headers: { 'Content-Encoding': 'gzip' },
      });
    const bad = await post(Buffer.from('{"title":"plain"}'));
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('Request body cannot be decoded as its Content-Encoding says (gzip, deflate or br)');
    const good = await post(gzipSync('{"title":"Zipped"}'));
    expect(good.status, JSON.stringify(good.body)).toBe(201);
    expect(good.body.title).toBe('Zipped');
  });

  it('bytes that are not UTF-8, instead of storing U+FFFD', async () => {
    const data = Buffer.concat([Buffer.from('{"title":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]); // Latin-1 é
    const res = await send(h.current.app, 'post', `/v1/orgs/${world.admin.organizationId}/spaces`, {
      token: world.admin.token,
      raw: { data, contentType: 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Request body is not valid UTF-8');
  });

  it('a lone surrogate in a value or a key, naming the field; a pair is text like any other', async () => {
    const post = (data: string) =>
      send(h.current.app, 'post', `/v1/orgs/${world.admin.organizationId}/spaces`, { token: world.admin.token, raw: { data, contentType: 'application/json' } });
    const value = await post('{"title":"a\\ud800b"}');
    expect(value.status).toBe(400);
    expect(value.body.error.message).toBe('Invalid request: body.title: must not contain a lone surrogate (U+D800 to U+DFFF): not valid Unicode text');
    const key = await post('{"title":"x","\\udfff":1}');
    expect(key.status).toBe(400);
    expect(key.body.error.message).toContain('must not contain a lone surrogate');
    const pair = await post('{"title":"\\ud83d\\ude00"}');
    expect(pair.status, JSON.stringify(pair.body)).toBe(201);
    expect(pair.body.title).toBe('\u{1F600}');
  });
});
