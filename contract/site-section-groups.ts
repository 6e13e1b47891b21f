// Section groups of a docs site.
import { listExample, listOf, paginationQuery, positionOf, trimmedText } from './common.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { SiteIdParams, siteEx, SiteSectionGroup, siteSectionGroupExample } from './site-schemas.js';
import { z } from './zod.js';

const SiteSectionGroupIdParams = SiteIdParams.extend({
  siteSectionGroupId: z
    .string()
    .min(1)
    .max(128)
    .openapi({ description: 'The id of the section group.', example: siteEx.siteSectionGroupId }),
});

const groupResponse = (description: string) => ({ description, schema: SiteSectionGroup, example: siteSectionGroupExample });

const groupsPath = '/orgs/{organizationId}/sites/{siteId}/section-groups';

export const siteSectionGroupOperations = operations({
  listSiteSectionGroups: {
    method: 'get',
    path: groupsPath,
    tag: 'site-sections',
    summary: 'List the section groups of a site',
    description: 'Lists the section groups of a docs site in their order, each with its sections. An unknown site is not found (404).',
    params: SiteIdParams,
    query: z.object(paginationQuery),
    responses: {
      200: {
        description: 'A page of section groups.',
        schema: listOf('SiteSectionGroupList', SiteSectionGroup),
        example: listExample([siteSectionGroupExample]),
      },
    },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  addSectionGroupToSite: {
    method: 'post',
    path: groupsPath,
    tag: 'site-sections',
    summary: 'Add a section group to a site',
    description:
      'Creates a section group at the root of the site, or inside the group `parent`, holding the given ' +
      '`sections` (moved out of their previous group). An unknown site, section or ' +
      'parent group is not found (404).',
    params: SiteIdParams,
    body: z
      .strictObject({
        title: trimmedText(1),
        icon: z.string().min(1).openapi({ description: 'Name of the icon of the group.' }).optional(),
        sections: z.array(z.string().min(1)).openapi({ description: 'Ids of the sections to put in the group.' }).optional(),
        parent: z.string().min(1).openapi({ description: 'Id of the parent group; omitted means the root.' }).optional(),
      })
      .openapi('AddSiteSectionGroup'),
    bodyExample: { title: 'Developers', icon: 'code', sections: [siteEx.siteSectionId] },
    responses: { 200: groupResponse('The created section group.') },
    errors: [403, 404],
    access: access.organization('admin'),
    statements: 12,
  },
  deleteSiteSectionGroupById: {
    method: 'delete',
    path: `${groupsPath}/{siteSectionGroupId}`,
    tag: 'site-sections',
    summary: 'Delete a section group',
    description:
      'Deletes a section group; its sections stay in the site, where the group was. ' +
      'Succeeds with no content also when the group did not exist.',
    params: SiteSectionGroupIdParams,
    responses: { 204: { description: 'The section group no longer exists.' } },
    errors: [403],
    access: access.organization('admin'),
    statements: 7,
  },
  updateSiteSectionGroupById: {
    method: 'patch',
    path: `${groupsPath}/{siteSectionGroupId}`,
    tag: 'site-sections',
    summary: 'Update a section group',
    description: 'Changes the title or icon of a section group; omitted fields are unchanged. An unknown group is not found (404).',
    params: SiteSectionGroupIdParams,
    body: z
      .strictObject({
        title: trimmedText(1).optional(),
        icon: z.string().min(1).optional(),
      })
      .openapi('UpdateSiteSectionGroup'),
    bodyExample: { title: 'Developer resources', icon: 'terminal' },
    responses: { 200: groupResponse('The updated section group.') },
    errors: [403, 404],
    access: access.organization('admin'),
    statements: 6,
  },
  addSectionToSiteSectionGroup: {
    method: 'post',
    path: `${groupsPath}/{siteSectionGroupId}/sections`,
    tag: 'site-sections',
    summary: 'Add a section to a section group',
    description:
      'Puts a section of the site at the end of a section group, taking it out of the group it was in. ' +
      ' An unknown group or section is not found (404).',
    params: SiteSectionGroupIdParams,
    body: z
      .strictObject({ sectionId: z.string().min(1).openapi({ description: 'Id of the section to add.' }) })
      .openapi('AddSectionToSiteSectionGroup'),
    bodyExample: { sectionId: siteEx.siteSectionId },
    responses: { 200: groupResponse('The section group, with the section added.') },
    errors: [403, 404],
    access: access.organization('admin'),
    statements: 10,
  },
  removeSectionFromSiteSectionGroup: {
    method: 'delete',
    path: `${groupsPath}/{siteSectionGroupId}/sections/{siteSectionId}`,
    tag: 'site-sections',
    summary: 'Remove a section from a section group',
    description:
      'Takes a section out of a section group, back to the root of the site (the section is kept). Needs the ' +
      'admin role. Succeeds with no content also when the section was not part of the group.',
    params: SiteSectionGroupIdParams.extend({
      siteSectionId: z.string().min(1).max(128).openapi({ description: 'The id of the site section.', example: siteEx.siteSectionId }),
    }),
    responses: { 204: { description: 'The section is not part of the group.' } },
    errors: [403],
    access: access.organization('admin'),
    statements: 5,
  },
  moveSiteSectionGroup: {
    method: 'post',
    path: `${groupsPath}/{siteSectionGroupId}/move`,
    tag: 'site-sections',
    summary: 'Move a section group',
    description:
      'Moves a section group before or after another item (section or section group) of the site, given by `id`. ' +
      'A position naming an item of another site, or the group itself, is refused (400). ' +
      'An unknown group is not found (404).',
    params: SiteSectionGroupIdParams,
    body: z.strictObject({ position: positionOf('site-section', 'id', siteEx.siteSectionId2) }).openapi('MoveSiteSectionGroup'),
    bodyExample: { position: { before: { type: 'site-section', id: siteEx.siteSectionId2 } } },
    responses: { 200: groupResponse('The moved section group.') },
    errors: [403, 404],
    access: access.organization('admin'),
    statements: 10,
  },
});
