// List fills of an organization: its memberships, members, teams, translations, SAML providers, OpenAPI
// specifications and conversations.
import { drainConversationJobs } from '../matrix/conversations.js';
import { drainOpenAPIJobs, petstoreYaml } from '../matrix/openapi.js';
import { idpCertificate } from '../matrix/sso-certificate.js';
import type { Account, Harness } from '../harness.js';
import { answered, created, each, newSpace, times, unique, wordFor, type ListCase } from './types.js';

/** `n` active SAML providers of the admin's organization (each with its own entity id). */
async function samlProviders(admin: Account, n: number): Promise<void> {
  await times(n, (k) =>
    created(admin, `/orgs/${admin.organizationId}/saml`, {
      label: `IdP ${k}`,
      ssoURL: 'https://idp.test.example/sso',
      entityID: `https://idp.test.example/${unique('entity')}`,
      certificate: idpCertificate,
    }),
  );
}

/**
 * `n` conversations, each of one made-up word of its own (no word in common with the others: the TF-IDF
 * similarity of two is 0), so that each gives one issue in a cluster of its own once the clustering job ran.
 */
async function distinctConversations(h: Harness, admin: Account, n: number): Promise<void> {
  await times(n, (k) =>
    answered(
      204,
      admin.api.post(`/orgs/${admin.organizationId}/conversations`, {
        id: unique('budget'),
        subject: wordFor(k),
        parts: [{ type: 'message', role: 'user', body: `${wordFor(k)} ${wordFor(k)}?` }],
      }),
      'ingestConversation',
    ),
  );
  await drainConversationJobs(h);
}

export const organizationLists: ListCase[] = [
  {
    operationId: 'listOrganizationsForAuthenticatedUser',
    fill: async (_h, admin, n) => {
      // The admin's own organization is the first.
      await times(n - 1, (k) => created(admin, '/orgs', { title: `Organization ${k}` }));
      return '/orgs';
    },
  },
  {
    operationId: 'listMembersInOrganizationById',
    fill: async (h, admin, n) => {
      // The admin is the first member.
      await times(n - 1, () => h.newMember(admin.organizationId, 'read'));
      return `/orgs/${admin.organizationId}/members`;
    },
  },
  {
    operationId: 'listSpacesForOrganizationMember',
    fill: async (_h, admin, n) => {
      await times(n, () => newSpace(admin));
      return `/orgs/${admin.organizationId}/members/${admin.userId}/spaces`;
    },
  },
  {
    operationId: 'listTeamsInOrganizationById',
    fill: async (_h, admin, n) => {
      await times(n, (k) => created(admin, `/orgs/${admin.organizationId}/teams`, { title: `Team ${k}` }, 'put'));
      return `/orgs/${admin.organizationId}/teams`;
    },
  },
  {
    operationId: 'listTeamsForOrganizationMember',
    fill: async (_h, admin, n) => {
      await times(n, (k) => created(admin, `/orgs/${admin.organizationId}/teams`, { title: `Team ${k}`, members: [admin.userId] }, 'put'));
      return `/orgs/${admin.organizationId}/members/${admin.userId}/teams`;
    },
  },
  {
    operationId: 'listTeamMembersInOrganizationById',
    fill: async (h, admin, n) => {
      const members = await each(n, async () => (await h.newMember(admin.organizationId, 'read')).userId);
      const team = await created(admin, `/orgs/${admin.organizationId}/teams`, { title: 'Everyone', members }, 'put');
      return `/orgs/${admin.organizationId}/teams/${team.id}/members`;
    },
  },
  {
    operationId: 'listTranslations',
    fill: async (_h, admin, n) => {
      await times(n, async () =>
        created(admin, `/orgs/${admin.organizationId}/translations`, { source: { space: await newSpace(admin), language: 'en' }, language: 'fr' }),
      );
      return `/orgs/${admin.organizationId}/translations`;
    },
  },
  {
    operationId: 'listSAMLProvidersInOrganizationById',
    fill: async (_h, admin, n) => {
      await samlProviders(admin, n);
      return `/orgs/${admin.organizationId}/saml`;
    },
  },
  {
    operationId: 'listSSOProviderLoginsInOrganization',
    fill: async (_h, admin, n) => {
      await samlProviders(admin, n);
      return `/orgs/${admin.organizationId}/sso`;
    },
  },
  {
    operationId: 'listOpenAPISpecs',
    fill: async (h, admin, n) => {
      await times(n, (k) => created(admin, `/orgs/${admin.organizationId}/openapi`, { slug: `spec-${k}`, source: { text: petstoreYaml } }));
      await drainOpenAPIJobs(h);
      return `/orgs/${admin.organizationId}/openapi`;
    },
  },
  {
    operationId: 'listOpenAPISpecVersions',
    fill: async (h, admin, n) => {
      // Each new text, once processed, is a new version.
      await times(n, async (k) => {
        await created(admin, `/orgs/${admin.organizationId}/openapi/spec`, { source: { text: petstoreYaml.replace('version: 1.0.0', `version: 1.0.${k}`) } }, 'put');
        await drainOpenAPIJobs(h);
      });
      return `/orgs/${admin.organizationId}/openapi/spec/versions`;
    },
  },
  {
    operationId: 'listConversations',
    fill: async (h, admin, n) => {
      await distinctConversations(h, admin, n);
      return `/orgs/${admin.organizationId}/conversations`;
    },
  },
  {
    operationId: 'listConversationsIssues',
    fill: async (h, admin, n) => {
      await distinctConversations(h, admin, n);
      return `/orgs/${admin.organizationId}/conversations-issues`;
    },
  },
  {
    operationId: 'listConversationsIssuesClusters',
    fill: async (h, admin, n) => {
      await distinctConversations(h, admin, n);
      return `/orgs/${admin.organizationId}/conversations-clusters`;
    },
  },
];
