// Composes the areas of the contract. Nothing is defined here: each area owns its schemas and operations.
import { agentInstructionOperations } from './agent-instructions.js';
import { changeRequestContentOperations } from './change-request-content.js';
import { changeRequestReviewOperations } from './change-request-reviews.js';
import { changeRequestOperations } from './change-requests.js';
import { collectionOperations } from './collections.js';
import { commentOperations } from './comments.js';
import { contentOperations } from './content.js';
export { downloadOperations } from './downloads.js';
import { gitSyncOperations } from './git-sync.js';
import { headlessReadOperations } from './headless-reads.js';
import { embedOperations } from './embeds.js';
import { revisionOperations } from './revisions.js';
import { computedContentOperations } from './computed-content.js';
import { conversationOperations } from './conversations.js';
import { integrationOperations } from './integrations.js';
import { integrationTaskOperations } from './integration-tasks.js';
import { integrationUiOperations } from './integration-ui.js';
import { memberOperations } from './members.js';
import { openAPISpecOperations } from './openapi-specs.js';
import { organizationOperations } from './organizations.js';
import { permissionOperationsTable } from './permissions.js';
import { inviteOperations } from './invites.js';
import { searchOperations } from './search.js';
import { siteRedirectOperations } from './site-redirects.js';
import { siteSectionGroupOperations } from './site-section-groups.js';
import { siteSectionOperations } from './site-sections.js';
import { siteSpaceOperations } from './site-spaces.js';
import { siteOperations } from './sites.js';
import { spaceOperations } from './spaces.js';
import { ssoOperations } from './sso.js';
export { standaloneSchemas } from './subdomains.js';
import { teamOperations } from './teams.js';
import { translationOperations } from './translations.js';
import { urlOperations } from './urls.js';
import { userOperations } from './users.js';

/**
 * The type of the operation tables, written out: inferred, it names every schema of every operation (the Document family is
 * recursive), longer than TypeScript will write into the declarations `npm run build` emits (TS7056).
 */
interface AreaOperations {
  users: typeof userOperations;
  organizations: typeof organizationOperations;
  agentInstructions: typeof agentInstructionOperations;
  members: typeof memberOperations;
  teams: typeof teamOperations;
  collections: typeof collectionOperations;
  spaces: typeof spaceOperations;
  comments: typeof commentOperations;
  content: typeof contentOperations;
  gitSync: typeof gitSyncOperations;
  revisions: typeof revisionOperations;
  computedContent: typeof computedContentOperations;
  embeds: typeof embedOperations;
  search: typeof searchOperations;
  changeRequests: typeof changeRequestOperations;
  changeRequestContent: typeof changeRequestContentOperations;
  changeRequestReviews: typeof changeRequestReviewOperations;
  sites: typeof siteOperations;
  siteSections: typeof siteSectionOperations;
  siteSectionGroups: typeof siteSectionGroupOperations;
  siteSpaces: typeof siteSpaceOperations;
  siteRedirects: typeof siteRedirectOperations;
  urls: typeof urlOperations;
  headlessReads: typeof headlessReadOperations;
  integrations: typeof integrationOperations;
  integrationTasks: typeof integrationTaskOperations;
  integrationUi: typeof integrationUiOperations;
  openapi: typeof openAPISpecOperations;
  translations: typeof translationOperations;
  sso: typeof ssoOperations;
  conversations: typeof conversationOperations;
  permissions: typeof permissionOperationsTable;
  invites: typeof inviteOperations;
}

/** The operation tables of the areas, in the order the published document lists them. */
export const areaOperations: AreaOperations = {
  users: userOperations,
  organizations: organizationOperations,
  agentInstructions: agentInstructionOperations,
  members: memberOperations,
  teams: teamOperations,
  collections: collectionOperations,
  spaces: spaceOperations,
  comments: commentOperations,
  content: contentOperations,
  gitSync: gitSyncOperations,
  revisions: revisionOperations,
  computedContent: computedContentOperations,
  embeds: embedOperations,
  search: searchOperations,
  changeRequests: changeRequestOperations,
  changeRequestContent: changeRequestContentOperations,
  changeRequestReviews: changeRequestReviewOperations,
  sites: siteOperations,
  siteSections: siteSectionOperations,
  siteSectionGroups: siteSectionGroupOperations,
  siteSpaces: siteSpaceOperations,
  siteRedirects: siteRedirectOperations,
  urls: urlOperations,
  headlessReads: headlessReadOperations,
  integrations: integrationOperations,
  integrationTasks: integrationTaskOperations,
  integrationUi: integrationUiOperations,
  openapi: openAPISpecOperations,
  translations: translationOperations,
  sso: ssoOperations,
  conversations: conversationOperations,
  permissions: permissionOperationsTable,
  invites: inviteOperations,
};

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** Every operation of the contract, keyed by operationId: the area tables merged. */
export const contractOperations = Object.assign({}, ...Object.values(areaOperations)) as UnionToIntersection<
  (typeof areaOperations)[keyof typeof areaOperations]
>;

export type OperationId = keyof typeof contractOperations;

/** One tag per area of the description. */
export const tags = [
  { name: 'users', description: 'The authenticated user.' },
  { name: 'organizations', description: 'Organizations, their settings, invites, search and agent instructions.' },
  { name: 'members', description: 'Members of an organization and their roles.' },
  { name: 'teams', description: 'Teams of an organization and their members.' },
  { name: 'collections', description: 'Collections: groups of spaces, possibly nested.' },
  { name: 'spaces', description: 'Spaces: containers of pages and files, with soft delete and restore.' },
  { name: 'comments', description: 'Comments on a space and their replies.' },
  { name: 'content', description: 'The content of a space: revisions, pages, files, links, backlinks and search.' },
  { name: 'space-git', description: 'Git Sync: a space imported from and exported to a Git repository.' },
  { name: 'change-requests', description: 'Change requests against a space, and their content.' },
  { name: 'sites', description: 'Published docs sites.' },
  { name: 'site-sections', description: 'Sections and section groups of a docs site.' },
  { name: 'site-spaces', description: 'The spaces a docs site publishes.' },
  { name: 'urls', description: 'Resolving published URLs, for docs front ends.' },
  { name: 'integrations', description: 'Integrations, their installations and events.' },
  { name: 'openapi', description: 'OpenAPI specifications and their versions.' },
  { name: 'translations', description: 'Translations of spaces into other languages.' },
  { name: 'sso', description: 'SAML single sign-on providers.' },
  { name: 'conversations', description: 'Conversation ingestion, with the issues and issue clusters derived from it.' },
  { name: 'api', description: 'This description of the API.' },
];

export const apiInfo = {
  title: 'Documentation Workspace Management API',
  version: '9.6.1',
  description:
    'Manage a hosted documentation workspace: organizations, members, teams, collections, spaces and their content, ' +
    'change requests, comments, published docs sites, integrations, OpenAPI specifications, translations, SAML SSO, ' +
    'conversation insights and agent instructions. Every request carries `Authorization: Bearer <token>`. ' +
    'No text in a request (parameter, body value or object key) may contain the NUL character U+0000: 400.',
};
