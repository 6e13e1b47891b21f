// Checks the published document itself: every operation is complete and documented, every example
// matches its schema, and every resource of the description is a named component.
import { describe, expect, it } from 'vitest';
import { contractOperations, downloadOperations } from '../contract/index.js';
import { describeStatementBudget } from '../contract/operation.js';
import { routes } from '../generated/router.js';
import { resolveRef, schemaProblems, spec, specOperations } from './support/spec.js';

type Json = Record<string, any>;

/** Resources of the description's "Resources and their fields", by component name. */
const resourceComponents = [
  'User', 'Member', 'Team', 'TeamMember', 'MemberRole', 'TeamMemberRole', 'Document', 'ContentRef',
  'Collection', 'Space', 'Comment', 'CommentReply', 'Organization', 'ChangeRequest',
  'Revision', 'RevisionPage', 'RevisionFile', 'LinkItem', 'BacklinkItem', 'SearchSpaceResult', 'SearchOrganizationResult',
  'Site', 'SiteSection', 'SiteSectionGroup', 'SiteSpace', 'PublishedContentSite', 'SiteAdaptiveSchema', 'SiteCustomizationSettings',
  'Integration', 'IntegrationInstallation', 'IntegrationEvent', 'IntegrationEventWithTrace',
  'IntegrationSpaceInstallation', 'IntegrationSiteInstallation',
  'OpenAPISpec', 'OpenAPISpecVersion', 'Translation', 'SAMLProvider', 'Subdomain',
  'Conversation', 'ConversationDetail', 'ConversationIssue', 'IssuesCluster', 'AgentInstructions',
];

/** Operations of the public API added after the first 175, with its ids (the issues that asked for them). */
const addedFromPublicApi = [
  // GitBook's tools: leaving development mode (DELETE /integrations/{name}/dev).
  'disableIntegrationDevelopmentMode',
  // Settings that take effect: a site space's own customization.
  'getSiteSpaceCustomizationById', 'overrideSiteSpaceCustomizationById', 'deleteSiteSpaceCustomizationById',
  // Who may see what: invite links to the organization, a space or a collection, and joining with one.
  'createOrganizationInvite', 'listOrganizationInviteLinks', 'getOrganizationInviteLink', 'updateOrganizationInviteById', 'joinOrganizationWithInvite',
  // Who may see what: invitations by email (a one-time join link each, mailed when SMTP_URL is set).
  'inviteUsersToOrganization',
  // Who may see what: the same eight on spaces, collections and sites.
  ...['Space', 'Collection', 'Site'].flatMap((on) => [
    `inviteTo${on}`, `listUserPermissionsIn${on}`, `updateUserPermissionIn${on}`, `removeUserFrom${on}`,
    `listTeamPermissionsIn${on}`, `updateTeamPermissionIn${on}`, `removeTeamFrom${on}`, `listPermissionsAggregateIn${on}`,
  ]),
  // Git Sync: a space imported from and exported to a Git repository.
  'importGitRepository', 'exportToGitRepository', 'getSpaceGitInfo',
  // Headless docs: what a renderer reads (revisions by id, pages by path, documents, embeds, users).
  'getRevisionById', 'listPagesInRevisionById', 'getPageInRevisionById', 'getPageDocumentInRevisionById', 'getPageInRevisionByPath',
  'listFilesInRevisionById', 'getFileInRevisionById', 'getReusableContentInRevisionById', 'getReusableContentDocumentInRevisionById',
  'getPageByPath', 'getDocumentById', 'getComputedDocument', 'getComputedRevision', 'getEmbedByUrlInSpace', 'getUserById',
  // Headless rendering: resolving a published URL (with a token scoped to the site), and the site's redirects.
  'getPublishedContentByUrl', 'resolvePublishedContentByUrl',
  'listSiteRedirects', 'createSiteRedirect', 'bulkUpsertSiteRedirects', 'updateSiteRedirectById', 'deleteSiteRedirectById', 'getSiteRedirectBySource',
  // What GitBook's renderer reads of a published page beyond these: its links to its translations, the site's search.
  'listRevisionPageMetaLinks', 'searchSiteContent',
  // The integration platform: tasks an integration queues for itself, and the ContentKit UI it renders.
  'queueIntegrationTask', 'renderIntegrationUIWithPost', 'renderIntegrationUIWithGet',
];

describe('published document', () => {
  it('is OpenAPI 3.1 served under /v1 with bearer authentication', () => {
    expect(spec.openapi).toBe('3.1.0');
    expect(spec.servers[0].url).toBe('/v1');
    expect(spec.components.securitySchemes.user).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(spec.security).toEqual([{ user: [] }]);
  });

  it('holds the 149 operations of the description, the 26 of the public API its promises need and those added since, each in the route table', () => {
    const total = 175 + addedFromPublicApi.length;
    const operations = specOperations.filter((o) => !(o.operationId in downloadOperations));
    expect(operations).toHaveLength(total);
    expect(new Set(operations.map((o) => o.operationId)).size).toBe(total);
    expect(operations.map((o) => o.operationId)).toEqual(expect.arrayContaining(addedFromPublicApi));
    expect(routes.map((r) => r.operationId).sort()).toEqual(operations.map((o) => o.operationId).sort());
  });

  it('holds the paths served without a token (contract/downloads.ts), each without bearer security', () => {
    const links = specOperations.filter((o) => o.operationId in downloadOperations);
    expect(links.map((o) => `${o.method} ${o.path}`).sort()).toEqual(Object.values(downloadOperations).map((op) => `${op.method} ${op.path}`).sort());
    for (const link of links) expect(link.operation.security, link.operationId).toEqual([]);
  });

  it('has no tuples: Prism and openapi-typescript handle prefixItems poorly', () => {
    expect(JSON.stringify(spec)).not.toContain('prefixItems');
  });

  // The mock/server drift check (test/fuzz.test.ts) exempts exactly the properties flagged conditional
  // (contract/conditional.ts): a flagged property must be one an answer may leave out, and say when.
  it('flags as conditional (x-conditional) only optional properties whose description says when they are absent', () => {
    const problems: string[] = [];
    let flagged = 0;
    const walk = (node: unknown, where: string) => {
      if (Array.isArray(node)) return node.forEach((child, i) => walk(child, `${where}/${i}`));
      if (node === null || typeof node !== 'object') return;
      const schema = node as Record<string, unknown>;
      const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
      for (const [name, property] of Object.entries(properties)) {
        const parts = [property, ...((property.allOf ?? []) as Record<string, unknown>[]).filter((part) => !part.$ref)];
        if (!parts.some((part) => part['x-conditional'] === true)) continue;
        flagged++;
        if (required.has(name)) problems.push(`${where}/${name}: flagged conditional but required`);
        if (!parts.some((part) => typeof part.description === 'string' && part.description.length > 0)) problems.push(`${where}/${name}: flagged conditional without a description`);
      }
      for (const [key, child] of Object.entries(schema)) walk(child, `${where}/${key}`);
    };
    walk(spec, '#');
    expect(problems).toEqual([]);
    expect(flagged).toBeGreaterThan(50);
    // Extensions are allowed anywhere in a Schema Object; the flag is never set on anything but true.
    expect(JSON.stringify(spec)).not.toMatch(/"x-conditional":(?!true)/);
  });

  // Budgets are targets (docs/testing-behaviour.md): each operation declares one, a whole number of statements,
  // and its published description states it; the harness fails any test request that goes over it.
  it('gives every operation a statement budget, stated in its description', () => {
    const problems: string[] = [];
    for (const [operationId, op] of Object.entries(contractOperations) as [string, { statements?: unknown }][]) {
      const statements = op.statements;
      if (typeof statements !== 'number' || !Number.isInteger(statements) || statements < 1) {
        problems.push(`${operationId}: no statement budget (\`statements\`)`);
        continue;
      }
      const published = specOperations.find((o) => o.operationId === operationId);
      if (!published?.operation.description?.includes(describeStatementBudget(statements))) problems.push(`${operationId}: budget not in its description`);
    }
    expect(problems).toEqual([]);
  });

  it('names every resource of the description as a component', () => {
    const missing = resourceComponents.filter((name) => !spec.components.schemas[name]);
    expect(missing).toEqual([]);
  });

  describe.each(specOperations)('$operationId', ({ path, operation: op }) => {
    it('has an operationId, one declared tag, a summary and a description', () => {
      expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op.tags).toHaveLength(1);
      expect(spec.tags.map((t: Json) => t.name)).toContain(op.tags[0]);
      expect(op.summary?.length).toBeGreaterThan(5);
      expect(op.description?.length).toBeGreaterThan(10);
    });

    it('declares the shared error responses', () => {
      // A path served without a token (contract/downloads.ts) answers no 401, and no 400: what it does not know is not found.
      const link = op.operationId in downloadOperations;
      for (const status of link ? ['500'] : ['401', '500']) expect(op.responses[status]?.$ref).toMatch(/^#\/components\/responses\/\w+Error$/);
      if (!link && ((op.parameters ?? []).length > 0 || op.requestBody)) expect(op.responses['400']?.$ref).toBe('#/components/responses/BadRequestError');
      const errors = Object.keys(op.responses).filter((s) => Number(s) >= 400);
      for (const status of errors) expect(resolveRef(op.responses[status]).content['application/json'].example.error.code).toBe(Number(status));
    });

    it('has a success response, each with an example that matches its schema', () => {
      const successes = Object.keys(op.responses).filter((s) => s.startsWith('2'));
      expect(successes.length).toBeGreaterThan(0);
      for (const status of successes) {
        const media = op.responses[status].content?.['application/json'];
        if (!media) continue;
        expect(media.example, `${status} example`).toBeDefined();
        expect(schemaProblems(media.schema, media.example), `${status} example`).toEqual([]);
      }
    });

    it('documents every parameter with an example for path parameters, and a valid body example', () => {
      for (const p of op.parameters ?? []) {
        expect(p.description, p.name).toBeTruthy();
        if (p.in === 'path') {
          expect(path).toContain(`{${p.name}}`);
          expect(p.schema.example ?? p.example, p.name).toBeDefined();
        }
      }
      const body = op.requestBody?.content?.['application/json'];
      if (body) {
        expect(body.example).toBeDefined();
        expect(schemaProblems(body.schema, body.example)).toEqual([]);
      }
    });
  });
});
