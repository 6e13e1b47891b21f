// Site spaces: the spaces a docs site publishes.
import { listExample, listOf, paginationQuery, positionOf, queryBoolean } from './common.js';
import { ex } from './examples.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { shareKeyQuery, SiteCondition, SiteIdParams, siteEx, SiteSpace, siteSpaceExample } from './site-schemas.js';
import { z } from './zod.js';

const SiteSpaceIdParams = SiteIdParams.extend({
  siteSpaceId: z.string().min(1).max(128).openapi({ description: 'The id of the site space.', example: siteEx.siteSpaceId }),
});

const siteSpaceResponse = (description: string) => ({ description, schema: SiteSpace, example: siteSpaceExample });

const siteSpacesPath = '/orgs/{organizationId}/sites/{siteId}/site-spaces';

export const siteSpaceOperations = operations({
  listSiteSpaces: {
    method: 'get',
    path: siteSpacesPath,
    tag: 'site-spaces',
    summary: 'List the site spaces of a site',
    description:
      'Lists the site spaces of a docs site in their order: all of them, only the default one (`default=true`) ' +
      'or only the others (`default=false`). `shareKey` resolves the published URLs of a share-link site. ' +
      'An unknown site is not found (404).',
    params: SiteIdParams,
    query: z.object({
      shareKey: shareKeyQuery,
      ...paginationQuery,
      default: queryBoolean('true: only the default site space; false: only the others; absent: all.').optional(),
    }),
    responses: {
      200: {
        description: 'A page of site spaces.',
        schema: listOf('SiteSpaceList', SiteSpace),
        example: listExample([siteSpaceExample]),
      },
    },
    errors: [404],
    access: access.organization('read'),
  },
  addSpaceToSite: {
    method: 'post',
    path: siteSpacesPath,
    tag: 'site-spaces',
    summary: 'Add a space to a site',
    description:
      'Publishes a space in the site as a new site space, in the section `sectionId`; without it, in the ' +
      'default section, or at the root when the site has no sections. An unknown site, ' +
      'space or section is not found (404).',
    params: SiteIdParams,
    body: z
      .strictObject({
        spaceId: z.string().min(1).openapi({ description: 'Id of the space to publish.' }),
        sectionId: z.string().min(1).openapi({ description: 'Id of the section to add the site space to.' }).optional(),
      })
      .openapi('AddSiteSpace'),
    bodyExample: { spaceId: ex.spaceId, sectionId: siteEx.siteSectionId },
    responses: { 200: siteSpaceResponse('The created site space.') },
    errors: [403, 404],
    access: access.organization('admin'),
  },
  deleteSiteSpaceById: {
    method: 'delete',
    path: `${siteSpacesPath}/{siteSpaceId}`,
    tag: 'site-spaces',
    summary: 'Remove a site space',
    description:
      'Removes a site space from the site; the space itself is kept. Succeeds with no ' +
      'content also when the site space did not exist.',
    params: SiteSpaceIdParams,
    responses: { 204: { description: 'The site space no longer exists.' } },
    errors: [403],
    access: access.organization('admin'),
  },
  updateSiteSpaceById: {
    method: 'patch',
    path: `${siteSpacesPath}/{siteSpaceId}`,
    tag: 'site-spaces',
    summary: 'Update a site space',
    description:
      'Changes the path, the condition or the space of a site space; omitted fields are unchanged and ' +
      '`condition: null` removes the condition. A condition outside the grammar, or naming a claim the site\'s ' +
      'adaptive schema does not define, is refused (400, naming the character and the reason). An unknown site ' +
      'space or space is not found (404).',
    params: SiteSpaceIdParams,
    body: z
      .strictObject({
        path: z.string().min(1).openapi({ description: 'Path of the site space in the published site URL.' }).optional(),
        condition: SiteCondition.nullable().optional(),
        spaceId: z.string().min(1).openapi({ description: 'Id of the space the site space publishes.' }).optional(),
      })
      .openapi('UpdateSiteSpace'),
    bodyExample: { path: 'getting-started', condition: null, spaceId: ex.spaceId },
    responses: { 200: siteSpaceResponse('The updated site space.') },
    errors: [403, 404],
    access: access.organization('admin'),
  },
  moveSiteSpace: {
    method: 'post',
    path: `${siteSpacesPath}/{siteSpaceId}/move`,
    tag: 'site-spaces',
    summary: 'Move a site space',
    description:
      'Moves a site space before or after another site space of the same section. A position naming a site ' +
      'space of another section or site, or the site space itself, is refused (400). ' +
      'An unknown site space is not found (404).',
    params: SiteSpaceIdParams,
    body: z.strictObject({ position: positionOf('site-space', 'siteSpace', siteEx.siteSpaceId2) }).openapi('MoveSiteSpace'),
    bodyExample: { position: { before: { type: 'site-space', siteSpace: siteEx.siteSpaceId2 } } },
    responses: { 200: siteSpaceResponse('The moved site space.') },
    errors: [403, 404],
    access: access.organization('admin'),
  },
});
