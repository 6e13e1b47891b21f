// Full-text search of a space and of an organization.
import { paginationQuery } from './common.js';
import {
  SearchOrganizationResultList,
  searchOrganizationResultListExample,
  SearchSpaceResultList,
  searchSpaceResultListExample,
} from './content-schemas.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { OrganizationIdParams } from './organizations.js';
import { SpaceIdParams } from './spaces.js';
import { z } from './zod.js';

const searchQuery = z.object({
  query: z.string().min(1).max(512).openapi({ description: 'The text to search for.', example: 'install the CLI' }),
  ...paginationQuery,
});

export const searchOperations = operations({
  searchSpaceContent: {
    method: 'get',
    path: '/spaces/{spaceId}/search',
    tag: 'content',
    summary: 'Search the content of a space',
    description:
      'Searches the pages of the current content of a space for `query`, best matches first. Each result is a page ' +
      'with the sections that match, and the titles of its parent pages. The space is searched at its current content, ' +
      'in one SQL statement: each write of content indexes the pages it changed as it commits, so the index is never ' +
      'behind what a reader just read (a space last written before API 9.6.0 is brought up to date by its first search ' +
      'or by background indexing, once). 404 when the space does not exist.',
    params: SpaceIdParams,
    query: searchQuery,
    responses: {
      200: { description: 'A page of matching pages.', schema: SearchSpaceResultList, example: searchSpaceResultListExample },
    },
    errors: [404],
    access: access.space('read'),
    // The grant's statement carries the search (server/search/search-attached.ts), also right after a write,
    // which indexed its content as it committed (server/search/index-at-commit.ts; test/search-attached.test.ts).
    statements: 1,
  },
  searchOrganizationContent: {
    method: 'get',
    path: '/orgs/{organizationId}/search',
    tag: 'organizations',
    summary: 'Search the content of an organization',
    description:
      'Searches the content of the spaces of an organization the caller can read for `query`. Each result is a space ' +
      'with its matching pages. Every match is in one order (the spaces by their best page, each space\'s pages best ' +
      'first; a page\'s `rank` is its position in it), and an answer holds the next pages of that order: at most `limit` ' +
      'spaces and 100 pages. `next` goes on from the last page answered, so a space with more matches comes again at ' +
      'the start of the next answer with its following pages. Up to 200 matching pages, pages rank by their whole text; above, ' +
      'by their titles (the pages whose title holds the query first, then the others in id order). `count` is the number of ' +
      'matching spaces, except for a query of plain words (no `or`, `-` or quotes) whose least common word is on more than 200 ' +
      'of the caller\'s pages: its pages rank by their titles, its answer is found by walking that order from its start until ' +
      'the answer is full, without counting every match, and `count` is the number of spaces holding every word of the query ' +
      '(for one word, the matching spaces; for several, a space holding them ' +
      'on different pages only is counted too). A space\'s latest change is found a few seconds after it is written (its index is ' +
      'brought up to date in the background); until then the space is searched as it was. ' +
      '404 when the organization does not exist or the caller is not a member.',
    params: OrganizationIdParams,
    query: searchQuery,
    responses: {
      200: {
        description: 'A page of spaces with matching pages.',
        schema: SearchOrganizationResultList,
        example: searchOrganizationResultListExample,
      },
    },
    errors: [404],
    access: access.organization('guest'),
    // The search runs in the grant's statement (server/search/search-attached.ts).
    statements: 1,
  },
});
