// SAML single sign-on providers.
import { DateTime, listExample, listOf, NullableRole, paginationQuery, trimmedText } from './common.js';
import { ex } from './examples.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { OrganizationIdParams } from './organizations.js';
import { Team, teamExample } from './teams.js';
import { z } from './zod.js';
import { conditional } from './conditional.js';

const samlProviderId = 'sml_01JD3QG6T2MV8HN';
// Served by this server outside /v1 (server/sso/saml.routes.ts): start, assertion consumer, metadata.
const samlServiceBase = `${ex.baseUrl}/auth/saml/${samlProviderId}`;

const certificateExample =
  '-----BEGIN CERTIFICATE-----\n' +
  'MIIC8DCCAdigAwIBAgIQSmXk4VFqY5dNmQ8uGoJ4ZTANBgkqhkiG9w0BAQsFADA0MTIwMAYDVQQD\n' +
  'EylNaWNyb3NvZnQgQXp1cmUgRmVkZXJhdGVkIFNTTyBDZXJ0aWZpY2F0ZTAeFw0yNjAzMTQwOTI2\n' +
  '-----END CERTIFICATE-----';

export const samlProviderExample = {
  object: 'saml-provider' as const,
  id: samlProviderId,
  label: 'Acme Okta',
  ssoURL: 'https://acme.okta.example.com/app/docs/sso/saml',
  entityID: 'http://www.okta.com/exk1a2b3c4d5e6f7g8h9',
  certificate: certificateExample,
  defaultTeam: teamExample,
  defaultRole: 'read' as const,
  createdAt: ex.createdAt,
  status: 'active' as const,
  service: {
    acsURL: `${samlServiceBase}/acs`,
    startURL: `${samlServiceBase}/start`,
    entityID: `${samlServiceBase}/metadata`,
  },
  urls: { location: `${ex.baseUrl}/v1/orgs/${ex.orgId}/saml/${samlProviderId}` },
};

export const SAMLProvider = z
  .object({
    object: z.literal('saml-provider'),
    id: z.string(),
    label: z.string().openapi({ description: 'Name shown on the sign-in button.' }),
    ssoURL: z.url().openapi(conditional('Single sign-on URL of the identity provider; absent until set (the provider is `pending` until then).')).optional(),
    entityID: z.string().openapi(conditional('Entity id (issuer) of the identity provider; absent until set (the provider is `pending` until then).')).optional(),
    certificate: z.string().openapi(conditional('PEM certificate the identity provider signs its responses with; absent until set (the provider is `pending` until then).')).optional(),
    defaultTeam: Team.openapi(conditional('Team that people signing in for the first time join; absent when none is set.')).optional(),
    defaultRole: NullableRole.openapi({
      description: 'Role of people signing in for the first time, null for guests: the one set on the provider, else the organization\'s default role.',
    }),
    createdAt: DateTime,
    status: z.enum(['active', 'pending']).openapi({
      description: 'active: people can sign in with it; pending: `ssoURL`, `entityID` or `certificate` is still missing.',
    }),
    service: z
      .object({
        acsURL: z.url().openapi({
          description:
            'Assertion consumer service URL to configure in the identity provider (HTTP-POST binding). The response must be ' +
            'signed with `certificate`, issued by `entityID`, for this service\'s `entityID` (audience) and this URL ' +
            '(recipient), within its validity window, and answer a sign-in started at `startURL`.',
        }),
        startURL: z.url().openapi({
          description:
            'URL that starts a sign-in with this provider: redirects the browser to `ssoURL` with an AuthnRequest. ' +
            'Optional `returnTo` query parameter (a URL on this service\'s origin) receives the one-time `code` afterwards.',
        }),
        entityID: z.string().openapi({ description: 'Entity id (audience) of the service provider; the URL serves its SAML metadata.' }),
      })
      .openapi({ description: 'The service-provider settings to enter in the identity provider.' }),
    urls: z.object({ location: z.url() }),
  })
  .openapi('SAMLProvider', {
    description: 'A SAML identity provider the members of an organization can sign in with.',
    example: samlProviderExample,
  });

export const ssoProviderLoginsExample = {
  items: [{ id: samlProviderId, label: samlProviderExample.label, startURL: samlProviderExample.service.startURL }],
};

export const SSOProviderLogins = z
  .object({
    items: z.array(
      z.object({
        id: z.string().openapi({ description: 'Id of the SAML provider.' }),
        label: z.string(),
        startURL: z.url().openapi({ description: 'URL that starts a sign-in with this provider.' }),
      }),
    ),
  })
  .openapi('SSOProviderLogins', {
    description: 'The single sign-on providers people can sign in to an organization with.',
    example: ssoProviderLoginsExample,
  });

const SAMLProviderIdParams = OrganizationIdParams.extend({
  samlProviderId: z.string().min(1).max(128).openapi({ description: 'The id of the SAML provider.', example: samlProviderId }),
});

const samlFields = {
  label: trimmedText(1, 100).openapi({ description: 'Name shown on the sign-in button (1–100 characters).' }),
  entityID: z.string().min(1).max(1024).openapi({ description: 'Entity id (issuer) of the identity provider.' }),
  certificate: z
    .string()
    .max(20_000)
    .regex(/^\s*-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----\s*$/, 'must be a PEM certificate')
    .openapi({ description: 'PEM certificate of the identity provider (at most 20000 characters).' }),
  ssoURL: z.url().max(2048).openapi({ description: 'Single sign-on URL of the identity provider.' }),
  defaultTeam: z.string().min(1).max(128).openapi({ description: 'Id of a team of the organization that new people join.' }),
  defaultRole: NullableRole.openapi({ description: 'Role of people signing in for the first time, null for guests.' }),
};

const samlBodyExample = {
  label: 'Acme Okta',
  entityID: samlProviderExample.entityID,
  certificate: certificateExample,
  ssoURL: samlProviderExample.ssoURL,
  defaultTeam: teamExample.id,
  defaultRole: 'read',
};

const samlProviderResponse = (description: string) => ({ description, schema: SAMLProvider, example: samlProviderExample });

export const ssoOperations = operations({
  listSAMLProvidersInOrganizationById: {
    method: 'get',
    path: '/orgs/{organizationId}/saml',
    tag: 'sso',
    summary: 'List the SAML providers of an organization',
    description: 'Lists the SAML providers of an organization, in creation order.',
    params: OrganizationIdParams,
    query: z.object(paginationQuery),
    responses: {
      200: {
        description: 'A page of SAML providers.',
        schema: listOf('SAMLProviderList', SAMLProvider),
        example: listExample([samlProviderExample]),
      },
    },
    errors: [403, 404],
    access: access.organization('read'),
    statements: 1,
  },
  createOrganizationSAMLProvider: {
    method: 'post',
    path: '/orgs/{organizationId}/saml',
    tag: 'sso',
    summary: 'Create a SAML provider',
    description:
      'Adds a SAML identity provider to the organization. Only `label` is required: the provider stays `pending` until ' +
      '`ssoURL`, `entityID` and `certificate` are all set, then it is `active`. The answer carries the `service` ' +
      'settings to enter in the identity provider. A `defaultTeam` the organization does not ' +
      'have, or a `certificate` that is not a parsable X.509 certificate, is refused (400).',
    params: OrganizationIdParams,
    body: z
      .strictObject({
        label: samlFields.label,
        entityID: samlFields.entityID.optional(),
        certificate: samlFields.certificate.optional(),
        ssoURL: samlFields.ssoURL.optional(),
        defaultTeam: samlFields.defaultTeam.optional(),
        defaultRole: samlFields.defaultRole.optional(),
      })
      .openapi('CreateSAMLProvider'),
    bodyExample: samlBodyExample,
    responses: {
      201: {
        ...samlProviderResponse('The created SAML provider.'),
        headers: { Location: { description: 'URL of the created SAML provider.', example: samlProviderExample.urls.location } },
      },
    },
    errors: [403, 404],
    access: access.organization('admin'),
    statements: 4,
  },
  getOrganizationSAMLProviderById: {
    method: 'get',
    path: '/orgs/{organizationId}/saml/{samlProviderId}',
    tag: 'sso',
    summary: 'Get a SAML provider',
    description: 'Returns a SAML provider of the organization. An unknown provider is not found (404).',
    params: SAMLProviderIdParams,
    responses: { 200: samlProviderResponse('The SAML provider.') },
    errors: [403, 404],
    access: access.organization('read'),
    statements: 1,
  },
  deleteOrganizationSAMLProvider: {
    method: 'delete',
    path: '/orgs/{organizationId}/saml/{samlProviderId}',
    tag: 'sso',
    summary: 'Delete a SAML provider',
    description:
      'Removes a SAML provider: nobody can sign in with it any more. Succeeds with no content ' +
      'also when the provider did not exist.',
    params: SAMLProviderIdParams,
    responses: { 204: { description: 'The SAML provider no longer exists.' } },
    errors: [403],
    access: access.organization('admin'),
    statements: 2,
  },
  updateOrganizationSAMLProvider: {
    method: 'patch',
    path: '/orgs/{organizationId}/saml/{samlProviderId}',
    tag: 'sso',
    summary: 'Update a SAML provider',
    description:
      'Changes the given settings of a SAML provider; omitted fields are unchanged. The provider becomes `active` once ' +
      '`ssoURL`, `entityID` and `certificate` are all set. An unknown provider is not found (404); ' +
      'a `defaultTeam` the organization does not have, or a `certificate` that is not a parsable X.509 certificate, ' +
      'is refused (400).',
    params: SAMLProviderIdParams,
    body: z
      .strictObject({
        label: samlFields.label.optional(),
        entityID: samlFields.entityID.optional(),
        certificate: samlFields.certificate.optional(),
        ssoURL: samlFields.ssoURL.optional(),
        defaultTeam: samlFields.defaultTeam.optional(),
        defaultRole: samlFields.defaultRole.optional(),
      })
      .openapi('UpdateSAMLProvider'),
    bodyExample: { label: 'Acme Okta (production)', defaultRole: 'comment' },
    responses: { 200: samlProviderResponse('The updated SAML provider.') },
    errors: [403, 404],
    access: access.organization('admin'),
    statements: 4,
  },
  listSSOProviderLoginsInOrganization: {
    method: 'get',
    path: '/orgs/{organizationId}/sso',
    tag: 'sso',
    summary: 'List the sign-in options of an organization',
    description:
      'Lists the active single sign-on providers people can sign in to the organization with, each with the URL that ' +
      'starts a sign-in. Not paginated. Open to any authenticated caller, member or not. An unknown organization is ' +
      'not found (404).',
    params: OrganizationIdParams,
    responses: { 200: { description: 'The sign-in options.', schema: SSOProviderLogins, example: ssoProviderLoginsExample } },
    errors: [404],
    // A sign-in page is shown before anyone is a member: any authenticated caller may read it.
    access: access.caller(),
    statements: 1,
  },
});
