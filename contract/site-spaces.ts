// Site spaces: the spaces a docs site publishes.
import { listExample, listOf, paginationQuery, positionOf, queryBoolean } from './common.js';
import { ex } from './examples.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { shareKeyQuery, SiteCondition, SiteIdParams, siteEx, SiteSpace, siteSpaceExample } from './site-schemas.js';
import { siteCustomizationExample, SiteCustomizationSettings, SiteCustomizationSettingsInput } from './sites.js';
import { z } from './zod.js';

/** Each field optional (omitted: unchanged) or null (the override is cleared: the site's value applies). */
function overridable(shape: Record<string, z.ZodType>): Record<string, z.ZodType> {
  return Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, (field as z.ZodOptional<z.ZodType>).unwrap().nullable().optional()]));
}

const { styling, ...settingsShape } = SiteCustomizationSettingsInput.shape;

export const OverrideSiteSpaceCustomization = z
  .strictObject({
    ...overridable(settingsShape),
    styling: z
      .strictObject(overridable(styling.unwrap().shape))
      .nullable()
      .optional()
      .openapi({ description: 'Styling fields to override; null clears every styling override.' }),
  })
  .openapi('OverrideSiteSpaceCustomization', {
    description:
      'Customization fields that override the site\'s for one site space: a given field replaces the site\'s value ' +
      '(objects field by field, arrays whole), null clears the override (the site\'s value applies), an omitted field ' +
      'keeps its override. Colors are hex, images http(s) URLs, as in `updateSiteCustomizationById`.',
    example: { title: 'Acme API v2', styling: { primaryColor: { light: '#D93F0B', dark: '#F26B3A' } }, announcement: null },
  });

const effectiveCustomization = (description: string) => ({ description, schema: SiteCustomizationSettings, example: siteCustomizationExample });

const SiteSpaceIdParams = SiteIdParams.extend({
  siteSpaceId: z.string().min(1).max(128).openapi({ description: 'The id of the site space.', example: siteEx.siteSpaceId }),
});

const siteSpaceResponse = (description: string) => ({ description, schema: SiteSpace, example: siteSpaceExample });

const siteSpacesPath = '/orgs/{organizationId}/sites/{siteId}/site-spaces';
const customizationPath = `${siteSpacesPath}/{siteSpaceId}/customization`;

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
    statements: 1,
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
    statements: 13,
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
    statements: 5,
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
    statements: 8,
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
    statements: 10,
  },
  getSiteSpaceCustomizationById: {
    method: 'get',
    path: customizationPath,
    tag: 'site-spaces',
    summary: 'Get the customization of a site space',
    description:
      'Returns the customization the published site applies on the pages of a site space: the site\'s (defaults ' +
      'filled in) with the site space\'s overrides over it. An unknown site or site space is not found (404).',
    params: SiteSpaceIdParams,
    responses: { 200: effectiveCustomization('The customization of the site space, overrides applied.') },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  overrideSiteSpaceCustomizationById: {
    method: 'patch',
    path: customizationPath,
    tag: 'site-spaces',
    summary: 'Override the customization of a site space',
    description:
      'Sets the fields of the site\'s customization that the site space overrides: given fields replace the ' +
      'site\'s on the pages of this site space, `null` clears a field\'s override, omitted fields keep theirs. ' +
      'Returns the customization the site space now has; the published site shows it from the next request on. ' +
      'A color that is not hex, an image URL that is not http(s), or a header link `condition` outside the grammar ' +
      'of conditions is refused (400). An unknown site or site space is not found (404).',
    params: SiteSpaceIdParams,
    body: OverrideSiteSpaceCustomization,
    bodyExample: { title: 'Acme API v2', styling: { primaryColor: { light: '#D93F0B', dark: '#F26B3A' } }, announcement: null },
    responses: { 200: effectiveCustomization('The customization of the site space, overrides applied.') },
    errors: [403, 404],
    access: access.organization('admin'),
    statements: 4,
  },
  deleteSiteSpaceCustomizationById: {
    method: 'delete',
    path: customizationPath,
    tag: 'site-spaces',
    summary: 'Remove the customization overrides of a site space',
    description:
      'Clears every override of the site space: its pages show the site\'s customization again. Succeeds with no ' +
      'content also when it had none, or when the site space does not exist.',
    params: SiteSpaceIdParams,
    responses: { 204: { description: 'The site space has no overrides.' } },
    errors: [403],
    access: access.organization('admin'),
    statements: 3,
  },
});
