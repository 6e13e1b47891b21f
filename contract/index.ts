// Composes the areas of the contract. Nothing is defined here: each area owns its schemas and operations.
import { collectionOperations } from './collections.js';
import type { Operation } from './operation.js';
import { organizationOperations } from './organizations.js';
import { spaceOperations } from './spaces.js';
import { userOperations } from './users.js';

export const contractOperations = {
  ...userOperations,
  ...organizationOperations,
  ...collectionOperations,
  ...spaceOperations,
} satisfies Record<string, Operation>;

export type OperationId = keyof typeof contractOperations;

/** One tag per area of the API, in the order the published document lists them. */
export const tags = [
  { name: 'users', description: 'The authenticated user.' },
  { name: 'organizations', description: 'Organizations and their settings.' },
  { name: 'collections', description: 'Collections: groups of spaces, possibly nested.' },
  { name: 'spaces', description: 'Spaces: containers of pages and files, with soft delete and restore.' },
];

export const apiInfo = {
  title: 'Documentation Workspace Management API',
  version: '1.0.0',
  description:
    'Manage a hosted documentation workspace: organizations, members, teams, collections, spaces and their content, ' +
    'change requests, comments, published docs sites, integrations, OpenAPI specifications, translations, SAML SSO, ' +
    'conversation insights and agent instructions. Every request carries `Authorization: Bearer <token>`.',
};
