// Sections of a docs site.
import { listExample, listOf, paginationQuery, positionOf, trimmedText } from './common.js';
import { ex } from './examples.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { shareKeyQuery, SiteCondition, SiteIdParams, siteEx, SiteSection, siteSectionExample } from './site-schemas.js';
import { z } from './zod.js';

export const SiteSectionIdParams = SiteIdParams.extend({
  siteSectionId: z.string().min(1).max(128).openapi({ description: 'The id of the site section.', example: siteEx.siteSectionId }),
});

const sectionResponse = (description: string) => ({ description, schema: SiteSection, example: siteSectionExample });

export const siteSectionOperations = operations({
  listSiteSections: {
    method: 'get',
    path: '/orgs/{organizationId}/sites/{siteId}/sections',
    tag: 'site-sections',
    summary: 'List the sections of a site',
    description:
      'Lists the sections of a docs site in their order, each with its site spaces. `shareKey` resolves the ' +
      'published URLs of a share-link site. An unknown site is not found (404).',
    params: SiteIdParams,
    query: z.object({ shareKey: shareKeyQuery, ...paginationQuery }),
    responses: {
      200: {
        description: 'A page of sections.',
        schema: listOf('SiteSectionList', SiteSection),
        example: listExample([siteSectionExample]),
      },
    },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  addSectionToSite: {
    method: 'post',
    path: '/orgs/{organizationId}/sites/{siteId}/sections',
    tag: 'site-sections',
    summary: 'Add a section to a site',
    description:
      'Creates a section at the end of the site, with the space `spaceId` as its first site space (variant). ' +
      ' An unknown site or space is not found (404).',
    params: SiteIdParams,
    body: z
      .strictObject({
        spaceId: z.string().min(1).openapi({ description: 'Id of the space to add as a site space of the section.' }),
        title: trimmedText(1).optional(),
        icon: z.string().min(1).openapi({ description: 'Name of the icon of the section.' }).optional(),
      })
      .openapi('AddSiteSection'),
    bodyExample: { spaceId: ex.spaceId, title: 'Guides', icon: 'book-open' },
    responses: { 200: sectionResponse('The created section.') },
    errors: [403, 404],
    access: access.organization('admin'),
    statements: 15,
  },
  deleteSiteSectionById: {
    method: 'delete',
    path: '/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}',
    tag: 'site-sections',
    summary: 'Delete a site section',
    description:
      'Removes a section and its site spaces from the site (the spaces themselves are kept). ' +
      'Succeeds with no content also when the section did not exist.',
    params: SiteSectionIdParams,
    responses: { 204: { description: 'The section no longer exists.' } },
    errors: [403],
    access: access.organization('admin'),
    statements: 5,
  },
  updateSiteSectionById: {
    method: 'patch',
    path: '/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}',
    tag: 'site-sections',
    summary: 'Update a site section',
    description:
      'Changes the given settings of a section; omitted fields are unchanged and `condition: null` removes the ' +
      'condition. A condition outside the grammar, or naming a claim the site\'s adaptive schema does not define, is ' +
      'refused (400, naming the character and the reason). `defaultSiteSpace` must be a site space of the section. An unknown site, ' +
      'section or site space is not found (404).',
    params: SiteSectionIdParams,
    body: z
      .strictObject({
        title: trimmedText(1).optional(),
        path: z.string().min(1).openapi({ description: 'Path of the section in the published site URL.' }).optional(),
        defaultSiteSpace: z.string().min(1).openapi({ description: 'Id of the site space to make the default of the section.' }).optional(),
        condition: SiteCondition.nullable().optional(),
        icon: z.string().min(1).optional(),
        description: z.string().optional(),
      })
      .openapi('UpdateSiteSection'),
    bodyExample: { title: 'Guides', path: 'guides', condition: 'visitor.claims.isBetaUser', description: 'Step-by-step guides' },
    responses: { 200: sectionResponse('The updated section.') },
    errors: [403, 404],
    access: access.organization('admin'),
    statements: 9,
  },
  moveSiteSection: {
    method: 'post',
    path: '/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move',
    tag: 'site-sections',
    summary: 'Move a site section',
    description:
      'Moves a section before or after another section of the site. A position naming a section of another ' +
      'site, or the section itself, is refused (400). An unknown section is not found (404).',
    params: SiteSectionIdParams,
    body: z
      .strictObject({ position: positionOf('site-section', 'siteSection', siteEx.siteSectionId2) })
      .openapi('MoveSiteSection'),
    bodyExample: { position: { after: { type: 'site-section', siteSection: siteEx.siteSectionId2 } } },
    responses: { 200: sectionResponse('The moved section.') },
    errors: [403, 404],
    access: access.organization('admin'),
    statements: 10,
  },
});
