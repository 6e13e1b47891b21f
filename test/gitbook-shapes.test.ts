// Every operation whose id GitBook's public API also has answers, and accepts, GitBook's shapes: from the
// fuzz world (test/support/fuzz-world.ts, the access matrix's recipes), each shared operation is called once
// by the organization's admin with its recipe's request; the request body is validated against GitBook's
// request schema for the operation id and the answer against GitBook's response schema for the operation id
// and status (`@gitbook/api`'s spec/openapi.json, Ajv, Document schemas aside: test/support/gitbook-spec.ts).
// Our own document's check (every answer against generated/openapi.json) runs too, through `send`.
import { beforeAll, describe, expect, it } from 'vitest';
import { send } from './support/api.js';
import { createAccounts, createWorld, implementedOperations, tuplesFor, type World } from './support/fuzz-world.js';
import { gitbookOperations, gitbookRequestProblems, gitbookResponseProblems } from './support/gitbook-spec.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

/**
 * Where our shapes knowingly differ from GitBook's published schema: the operation, the problems it covers (a
 * pattern over the problem's text) and why. Keep it short; an entry that no longer matches a problem fails the
 * last test, so the list cannot go stale.
 */
export const gitbookShapeExceptions: { operationId: string; problem: RegExp; reason: string }[] = [
  ...['listSAMLProvidersInOrganizationById', 'createOrganizationSAMLProvider'].map((operationId) => ({
    operationId,
    problem: /required property '(ssoURL|entityID|certificate)'/,
    reason:
      "GitBook's schema contradicts itself: a provider's status may be `pending` (\"not yet fully configured\"), yet " +
      'the identity provider settings a pending provider lacks are required.',
  })),
  {
    operationId: 'listIntegrationEvents',
    problem: /\/status must be equal to one of the allowed values/,
    reason: 'An event still queued for delivery is `pending` here; GitBook lists only delivered events (`success`, `failed`) and has no value for it.',
  },
  {
    operationId: 'getIntegrationEvent',
    problem: /\/status must be equal to one of the allowed values/,
    reason: 'As listIntegrationEvents: a queued event is `pending`.',
  },
  ...['moveCollection', 'moveSpace'].map((operationId) => ({
    operationId,
    problem: /^\S+ request: \(body\) must NOT have fewer than 1 properties/,
    reason: 'Our request is a superset: `{}` moves to the end of the organization\'s top level, where GitBook requires a property.',
  })),
  {
    operationId: 'updateSiteCustomizationById',
    problem: /^\S+ request: \(body\) must have required property/,
    reason: 'Our request is a superset: a partial customization is accepted, the fields left out taking their defaults.',
  },
  {
    operationId: 'applyTemplateToSpace',
    problem: /GitBook declares no 204 answer/,
    reason: 'We answer 204 (nothing to return), GitBook declares 201: a change of our status code is a breaking change left to a release of its own.',
  },
  {
    operationId: 'addSectionToSite',
    problem: /GitBook declares no 200 answer/,
    reason: 'We answer 200 with the section, GitBook declares 201: a change of our status code is a breaking change left to a release of its own.',
  },
  {
    operationId: 'installIntegration',
    problem: /GitBook declares no 200 answer/,
    reason: 'We answer 200 with the installation, GitBook declares 201: a change of our status code is a breaking change left to a release of its own.',
  },
  {
    operationId: 'disableIntegrationDevelopmentMode',
    problem: /GitBook declares no 204 answer/,
    reason: 'We answer 204, GitBook declares 205 (both without a body).',
  },
  {
    operationId: 'addSectionGroupToSite',
    problem: /GitBook declares no 200 answer/,
    reason: 'As addSectionToSite.',
  },
  {
    operationId: 'addSpaceToSite',
    problem: /GitBook declares no 200 answer/,
    reason: 'As addSectionToSite.',
  },
  {
    operationId: 'deleteSiteRedirectById',
    problem: /205: GitBook declares no JSON body/,
    reason: 'GitBook declares 205 without a body; ours carries the deleted redirect (a body a client of GitBook\'s ignores).',
  },
  {
    operationId: 'getComputedRevision',
    problem: /^getComputedRevision 200: \/pages\/\d+(\/pages\/\d+)*[ /]/,
    reason:
      "GitBook's schema contradicts itself: a computed document page (`computed` and `computedSeed`, as its RevisionPageDocument " +
      'describes one) also matches the other branch of that `oneOf` (`{ documentId? }`, which requires nothing), so it matches ' +
      'two and no page variant passes; Ajv then lists every other variant. test/integrations-content-sources.test.ts checks ' +
      "each computed page, without `computed`, against GitBook's RevisionPage.",
  },
  // Gaps of ours, kept visible here until they are filled (issue 48).
  {
    operationId: 'getRevisionById',
    problem: /required property 'mergedFrom'|\/type must be equal to one of the allowed values|required property 'sourceRevision'/,
    reason: "Gap: a `merge` revision does not carry the change request it merged (`mergedFrom`), which GitBook requires.",
  },
];

/** Which exceptions matched a problem in this run, to fail on stale ones. */
const usedExceptions = new Set<(typeof gitbookShapeExceptions)[number]>();

/** The problems no exception covers. */
function unexcused(operationId: string, problems: string[]): string[] {
  return problems.filter((problem) => {
    // Ajv's summary of a union that no variant matched adds nothing to the problems it lists.
    if (/must match (exactly one schema in oneOf|a schema in anyOf)/.test(problem)) return false;
    const exception = gitbookShapeExceptions.find((e) => e.operationId === operationId && e.problem.test(problem));
    if (exception) usedExceptions.add(exception);
    return !exception;
  });
}

const shared = implementedOperations.filter((op) => gitbookOperations.has(op.operationId));

describe("GitBook's shapes for the operations both APIs have", () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld(h.current, await createAccounts(h.current));
  });

  it('shares most of the operations', () => {
    expect(shared.length).toBeGreaterThan(150);
  });

  // Reads first, on a world no write has changed.
  const ordered = [...shared.filter((op) => op.method === 'get'), ...shared.filter((op) => op.method !== 'get')];
  it.each(ordered.map((op) => [op.operationId, op] as const))('%s', async (operationId, op) => {
    const [tuple] = await tuplesFor(world, op, 1);
    const path = `/v1${op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(tuple.params[name]))}`;
    const body = op.operation.requestBody ? (tuple.body ?? {}) : undefined;
    const res = await send(h.current.app, op.method as 'get', path, { token: world.admin.token, body, ...(tuple.query && { query: tuple.query }) });
    const answer = `${op.method.toUpperCase()} ${path} -> ${res.status} ${JSON.stringify(res.body).slice(0, 600)}`;
    expect(res.status >= 200 && res.status < 300, answer).toBe(true);
    const problems = unexcused(operationId, [
      ...(body !== undefined ? gitbookRequestProblems(operationId, body) : []),
      ...gitbookResponseProblems(operationId, res.status, res.status === 204 ? undefined : res.body),
    ]);
    expect(problems, `${answer}\n${problems.join('\n')}`).toEqual([]);
  });

  it('has no exception that matched no problem (the list stays exact)', () => {
    const stale = gitbookShapeExceptions.filter((e) => !usedExceptions.has(e)).map((e) => `${e.operationId} ${e.problem}`);
    expect(stale).toEqual([]);
  });
});
