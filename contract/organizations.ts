import { DateTime, listExample, listOf, NullableRole, paginationQuery, queryBoolean, trimmedText } from './common.js';
import { ex } from './examples.js';
import { OrganizationMergeRules } from './merge-rules.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { z } from './zod.js';
import { conditional } from './conditional.js';

export const organizationExample = {
  object: 'organization' as const,
  id: ex.orgId,
  title: 'Acme Docs',
  createdAt: ex.createdAt,
  emailDomains: ['acme.example.com'],
  hostname: 'acme',
  type: 'business' as const,
  useCase: 'internalDocs' as const,
  defaultRole: 'read' as const,
  sso: false,
  ai: true,
  inviteLinks: true,
  plan: 'free_2024' as const,
  mergeRules: { type: 'rules' as const, rules: [{ rule: 'require_specific_reviewers' as const, users: [ex.userId] }] },
  urls: {
    location: `${ex.baseUrl}/v1/orgs/${ex.orgId}`,
    app: `${ex.appUrl}/o/${ex.orgId}`,
  },
  trial: { status: 'notapplicable' as const, count: 0 },
  permissions: {
    view: true,
    access: true,
    admin: true,
    ownTeam: true,
    createContent: true,
    createOpenAPISpec: true,
    ingestConversations: true,
    viewBilling: true,
    listMembers: true,
    listTeams: true,
    listIntegrations: true,
    listInstallations: true,
    installIntegration: true,
  },
};

const OrganizationType = z.enum(['business', 'community']);
const OrganizationUseCase = z.enum(['internalDocs', 'docsSite', 'audienceControlledSite', 'productDocs', 'teamKnowledgeBase', 'designSystem', 'openSourceDocs', 'notes', 'other']);
const OrganizationCommunityType = z.enum(['nonProfit', 'openSource', 'education']);

export const Organization = z
  .object({
    object: z.literal('organization'),
    id: z.string(),
    title: z.string().openapi({ description: 'Name of the organization.' }),
    createdAt: DateTime,
    emailDomains: z.array(z.string()),
    hostname: z.string().openapi(conditional("Default hostname for the organization's public content; absent until one is set (`updateOrganizationById`).")).optional(),
    type: OrganizationType.openapi({ description: 'What kind of organization it is: `business` until set otherwise with `updateOrganizationById`.' }),
    useCase: OrganizationUseCase.openapi(conditional('What the organization uses the workspace for; absent until set with `updateOrganizationById`.')).optional(),
    communityType: OrganizationCommunityType.openapi(
      conditional('What kind of community, for a `community` organization; absent until set, and for other organizations.'),
    ).optional(),
    defaultRole: NullableRole,
    defaultContent: z.object({ type: z.literal('site'), site: z.string() }).optional(),
    sso: z.boolean().openapi({
      description:
        'Whether SSO is enforced organization-wide: people join only by signing in through one of its SAML providers ' +
        '(joining by email domain is refused).',
    }),
    ai: z.boolean().openapi({
      description:
        'Whether all AI features are on. With `false`, no content of the organization goes to a model: a translation ' +
        'run on a server whose translator is a model (`openai`) fails without sending anything (`status` and ' +
        '`latestRun.status` `failed`, `latestRun.error` saying why), LibreTranslate and copy runs go on, and ' +
        'conversation insights are extracted by the heuristic, never by a model.',
    }),
    inviteLinks: z.boolean(),
    plan: z.enum(['free_2024', 'plus_2024', 'pro_2024', 'enterprise_2024', 'community_2024', 'free', 'plus', 'pro', 'internal']),
    mergeRules: OrganizationMergeRules,
    urls: z.object({ location: z.url(), app: z.url(), logo: z.url().optional() }),
    trial: z
      .object({
        status: z.enum(['notapplicable', 'none', 'active', 'ended', 'expired']),
        count: z.number().int().min(0),
      })
      .openapi({
        description:
          "The organization's billing trial, as GitBook shows it: this service has no billing, so no trial can be started " +
          '(`status: notapplicable`, `count: 0`).',
      }),
    permissions: z.object({
      view: z.boolean(),
      access: z.boolean().openapi({ description: 'Whether the caller can open the organization in the application (a member, guests included).' }),
      admin: z.boolean(),
      ownTeam: z.boolean(),
      createContent: z.boolean(),
      createOpenAPISpec: z.boolean(),
      ingestConversations: z.boolean(),
      viewBilling: z.boolean(),
      listMembers: z.boolean(),
      listTeams: z.boolean(),
      listIntegrations: z.boolean(),
      listInstallations: z.boolean(),
      installIntegration: z.boolean(),
    }),
  })
  .openapi('Organization', { description: 'An organization: the owner of members, teams and content.', example: organizationExample });

export const OrganizationIdParams = z.object({
  organizationId: z.string().min(1).max(128).openapi({ description: 'The id of the organization.', example: ex.orgId }),
});

export const UpdateOrganization = z
  .strictObject({
    title: trimmedText(2, 255).optional(),
    emailDomains: z.array(z.string().min(1).max(253)).max(100).optional(),
    hostname: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$/)
      .optional()
      .openapi({ description: 'Default hostname (a subdomain) for public content.' }),
    type: OrganizationType.openapi({ description: 'What kind of organization it is; `business` clears `communityType`.' }).optional(),
    useCase: OrganizationUseCase.openapi({ description: 'What the organization uses the workspace for.' }).optional(),
    communityType: OrganizationCommunityType.openapi({
      description: 'What kind of community: only for an organization whose `type` is (or is set to) `community`, else refused (400).',
    }).optional(),
    defaultRole: NullableRole.optional(),
    defaultContent: z.strictObject({ type: z.literal('site'), site: z.string().min(1) }).optional(),
    logo: z.url().max(2048).optional(),
    sso: z.boolean().optional(),
    ai: z.boolean().optional(),
    inviteLinks: z.boolean().optional(),
    mergeRules: OrganizationMergeRules.optional(),
  })
  .openapi('UpdateOrganization', { example: { title: 'Acme Documentation', defaultRole: 'comment', ai: false } });

export const organizationOperations = operations({
  listOrganizationsForAuthenticatedUser: {
    method: 'get',
    path: '/orgs',
    tag: 'organizations',
    summary: 'List the organizations of the authenticated user',
    description: 'Lists the organizations the caller is a member of, in creation order.',
    query: z.object(paginationQuery),
    responses: {
      200: {
        description: 'A page of organizations.',
        schema: listOf('OrganizationList', Organization),
        example: listExample([organizationExample]),
      },
    },
    access: access.caller(),
    statements: 1,
  },
  getOrganizationById: {
    method: 'get',
    path: '/orgs/{organizationId}',
    tag: 'organizations',
    summary: 'Get an organization',
    description: 'Returns an organization the caller is a member of.',
    params: OrganizationIdParams,
    responses: { 200: { description: 'The organization.', schema: Organization, example: organizationExample } },
    errors: [404],
    access: access.organization('guest'),
    statements: 1,
  },
  updateOrganizationById: {
    method: 'patch',
    path: '/orgs/{organizationId}',
    tag: 'organizations',
    summary: 'Update an organization',
    description:
      'Changes the given settings of an organization; omitted fields are left unchanged. ' +
      'A `defaultContent` that names a site the organization does not have is refused (400), as is a `communityType` ' +
      'for an organization whose `type` is not `community`; a `hostname` ' +
      'another organization uses is a conflict (409).',
    params: OrganizationIdParams,
    body: UpdateOrganization,
    bodyExample: { title: 'Acme Documentation', defaultRole: 'comment', ai: false },
    responses: { 200: { description: 'The updated organization.', schema: Organization, example: organizationExample } },
    errors: [403, 404, 409],
    access: access.organization('admin'),
    statements: 3,
  },
  createOrganization: {
    method: 'post',
    path: '/orgs',
    tag: 'organizations',
    summary: 'Create an organization',
    description:
      'Creates an organization with the caller as its admin. With `withDefaultSite=true`, it starts with a first ' +
      'docs site (unpublished) publishing a first space, both named after the organization, and the site is its ' +
      'default content; the onboarding answers set it up (`audience`: `public` and `mixed` make a public site, ' +
      '`mixed` with adaptive content on, `protected` a visitor-auth one, `internal` a share-link one; the interest ' +
      '`adaptive-content` turns adaptive content on). `openapiUrl` adds the OpenAPI specification `api`, fetched ' +
      'from that URL in the background (see `getOpenAPISpecBySlug`). Everything is created together or not at all.',
    query: z.object({
      withDefaultSite: queryBoolean('Also create a default docs site.').optional(),
      // Zod's URL check reads the text as a browser would (leading blanks, control characters dropped); the
      // refinement holds it to what `format: uri` allows, as the fuzz test found (" A:\u0001…" was accepted).
      openapiUrl: z
        .url()
        .max(2048)
        .refine((url) => /^https?:\/\/[^\s\u0000-\u001f\u007f]+$/.test(url), 'must be an http or https URL without blanks or control characters')
        .optional()
        .openapi({ description: 'Only with `withDefaultSite`: an OpenAPI document to publish.' }),
    }),
    body: z
      .strictObject({
        title: z.string().min(2).max(255).regex(/\S.*\S/, 'must not be blank'),
        emailDomains: z.array(z.string().min(1).max(253)).max(100).optional(),
        onboardingPreferences: z
          .looseObject({
            source: z.enum(['markdown-in-git', 'import', 'template']).nullable().openapi({ description: "Where the user's docs come from today (recorded by the public API for recommendations; it changes nothing here)." }).optional(),
            audience: z.enum(['public', 'mixed', 'protected', 'internal']).nullable().openapi({ description: 'Who may read the default site: decides its visibility.' }).optional(),
            interests: z.array(z.enum(['adaptive-content', 'api-docs', 'proactive-agent'])).max(3).openapi({ description: '`adaptive-content` turns adaptive content on for the default site.' }).optional(),
          })
          .optional()
          .openapi({ description: "Onboarding answers (the public API's SiteOnboardingPreferences), used only with `withDefaultSite`." }),
      })
      .openapi('CreateOrganization'),
    bodyExample: { title: 'Acme Docs', emailDomains: ['acme.example.com'] },
    responses: {
      201: {
        description: 'The created organization.',
        schema: Organization,
        example: organizationExample,
        headers: { Location: { description: 'URL of the created organization.', example: organizationExample.urls.location } },
      },
    },
    access: access.caller(),
    statements: 19,
  },
  deleteOrganizationInviteById: {
    method: 'delete',
    path: '/orgs/{organizationId}/link-invites/{inviteId}',
    tag: 'organizations',
    summary: 'Delete an invite link',
    description: 'Revokes an invite link of the organization. Succeeds also when the invite did not exist.',
    params: OrganizationIdParams.extend({
      inviteId: z.string().min(1).max(128).openapi({ description: 'The id of the invite link.', example: 'inv_01JD3QD2W8RT5KM' }),
    }),
    responses: { 204: { description: 'The invite link no longer exists.' } },
    errors: [403],
    access: access.organization('admin'),
    statements: 2,
  },
  joinOrganization: {
    method: 'post',
    path: '/orgs/{organizationId}/join',
    tag: 'organizations',
    summary: 'Join an organization',
    description:
      "Makes the caller a member of the organization, with its default role, when the caller's verified email " +
      'domain is one of the email domains the organization allows; otherwise 400. An organization with `sso` true is ' +
      'joined only by signing in through one of its SAML providers (400 here), and an account created by another ' +
      "organization's SAML sign-in does not join by email domain (400).",
    params: OrganizationIdParams,
    responses: { 204: { description: 'The caller is a member.' } },
    errors: [404],
    access: access.caller(),
    statements: 5,
  },
  getOrganizationsForEmailDomain: {
    method: 'get',
    path: '/email-domains/{emailDomain}/orgs',
    tag: 'organizations',
    summary: 'List the organizations that allow an email domain',
    description: 'Lists the organizations that let people with an email address of this domain join.',
    params: z.object({
      emailDomain: z.string().min(1).max(253).openapi({ description: 'An email domain.', example: 'acme.example.com' }),
    }),
    responses: {
      200: {
        description: 'The organizations allowing the domain.',
        schema: z.object({ organizations: z.array(Organization) }).openapi('OrganizationsForEmailDomain'),
        example: { organizations: [organizationExample] },
      },
    },
    access: access.caller(),
    statements: 1,
  },
});
