// Resources shared by the docs-site areas: site spaces, sections and section groups, with their ids,
// examples and path parameters.
import { ex } from './examples.js';
import { OrganizationIdParams } from './organizations.js';
import { Space, spaceExample } from './spaces.js';
import { z } from './zod.js';
import { conditional } from './conditional.js';

/** Example ids of the docs-site areas. */
export const siteEx = {
  siteId: 'sit_01JD3QE4R7HN2WX',
  siteSectionId: 'sec_01JD3QF6T9KB5MZ',
  siteSectionId2: 'sec_01JD3QF8V2PC7NA',
  siteSectionGroupId: 'ssg_01JD3QG3W5MD8PB',
  siteSpaceId: 'sts_01JD3QH7X1NE9QC',
  siteSpaceId2: 'sts_01JD3QH9Y4PF2RD',
  publishedUrl: 'https://docs.acme.example.com/developers',
} as const;

export const siteVisibilities = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;

export const SiteVisibility = z.enum(siteVisibilities).openapi('SiteVisibility', {
  description:
    'public: anyone, indexed; unlisted: anyone, not indexed; share-link: anyone with the secret link; ' +
    'visitor-auth: visitors authenticated by JWT.',
  example: 'public',
});

/** A condition: an expression on visitor attributes that evaluates to a boolean. */
export const SiteCondition = z
  .string()
  .openapi({
    description:
      'Expression on the visitor\'s claims, evaluating to a boolean: the item is shown only to visitors for whom it is ' +
      'true (`visitor.claims.isBetaUser && !visitor.claims.unsigned.prefersDarkMode`). The grammar: claims ' +
      '(`visitor.claims.<name>`, `visitor.claims.unsigned.<name>`), literals (`true`, `false`, `null`, strings, numbers), ' +
      '`!`, `&&`, `||`, `==`, `!=`, `===`, `!==`, `?:` and parentheses, at most 2000 characters. A condition outside ' +
      'it, or naming a claim the site\'s adaptive schema does not define, is refused (400) with the character and the reason.',
  });

export const siteSpaceExample = {
  object: 'site-space' as const,
  id: siteEx.siteSpaceId,
  path: 'getting-started',
  section: siteEx.siteSectionId,
  space: spaceExample,
  title: 'Getting started',
  default: true,
  hasAdvancedCustomizationFeature: false,
  draft: false,
  urls: { published: `${siteEx.publishedUrl}/getting-started` },
};

export const SiteSpace = z
  .object({
    object: z.literal('site-space'),
    id: z.string(),
    path: z.string().openapi({ description: 'Path of the site space in the published site URL.' }),
    section: z.string().openapi(conditional('Id of the site section holding it; absent at the root of the site.')).optional(),
    space: Space,
    title: z.string(),
    default: z.boolean().openapi({ description: 'Whether it is the default site space of its section (or of the site).' }),
    condition: SiteCondition.optional(),
    hasAdvancedCustomizationFeature: z.boolean(),
    draft: z.boolean().openapi({ description: 'Whether it is a draft, not live: never on this server, where every change to a site\'s structure is live at once.' }),
    urls: z.object({ published: z.url().openapi({ description: 'Present when the site is published.' }).optional() }),
  })
  .openapi('SiteSpace', { description: 'A space published by a docs site, at a path of the site.', example: siteSpaceExample });

export const siteSectionExample = {
  object: 'site-section' as const,
  id: siteEx.siteSectionId,
  title: 'Guides',
  description: 'Step-by-step guides to integrate Acme',
  default: true,
  path: 'guides',
  sectionGroup: siteEx.siteSectionGroupId,
  siteSpaces: [siteSpaceExample],
  draft: false,
  urls: { published: `${siteEx.publishedUrl}/guides` },
  icon: 'book-open',
};

export const SiteSection = z
  .object({
    object: z.literal('site-section'),
    id: z.string(),
    title: z.string(),
    description: z.string().openapi(conditional('Text shown under the section title; absent until one is set with `updateSiteSectionById`.')).optional(),
    default: z.boolean().openapi({ description: 'Whether it is the default section of the site.' }),
    path: z.string().openapi({ description: 'Path of the section in the published site URL.' }),
    condition: SiteCondition.optional(),
    sectionGroup: z.string().openapi(conditional('Id of the section group holding it; absent at the root.')).optional(),
    siteSpaces: z.array(SiteSpace).openapi({ description: 'The site spaces (variants) of the section.' }),
    draft: z.boolean().openapi({ description: 'Whether it is a draft, not live: never on this server, where every change to a site\'s structure is live at once.' }),
    urls: z.object({ published: z.url().openapi({ description: 'Present when the site is published.' }).optional() }),
    icon: z.string().openapi(conditional('Name of the icon shown next to the section; absent when none is set.')).optional(),
  })
  .openapi('SiteSection', { description: 'A section of a docs site: one or more site spaces under a path.', example: siteSectionExample });

export const siteSectionGroupExample = {
  object: 'site-section-group' as const,
  id: siteEx.siteSectionGroupId,
  title: 'Developers',
  children: [siteSectionExample],
  sections: [siteSectionExample],
  draft: false,
  icon: 'code',
};

export const SiteSectionGroup = z
  .object({
    object: z.literal('site-section-group'),
    id: z.string(),
    title: z.string(),
    sectionGroup: z.string().openapi(conditional('Id of the parent section group; absent at the root.')).optional(),
    children: z.array(SiteSection).openapi({ description: 'The sections of the group, in their order.' }),
    sections: z.array(SiteSection).openapi({ description: "The same sections as `children`, under GitBook's deprecated name." }),
    draft: z.boolean().openapi({ description: 'Whether it is a draft, not live: never on this server, where every change to a site\'s structure is live at once.' }),
    icon: z.string().openapi(conditional('Name of the icon shown next to the group; absent when none is set.')).optional(),
  })
  .openapi('SiteSectionGroup', { description: 'A named group of sections of a docs site.', example: siteSectionGroupExample });

export const siteIdParam = z.string().min(1).max(128).openapi({ description: 'The id of the site.', example: siteEx.siteId });

export const SiteIdParams = OrganizationIdParams.extend({ siteId: siteIdParam });

/** `shareKey`: resolves published URLs of share-link sites. */
export const shareKeyQuery = z
  .string()
  .min(1)
  .max(256)
  .optional()
  .openapi({ description: 'Secret key of a share-link site, used to resolve its published URLs.' });

/** Link for the API location of a site, used by the examples. */
export const siteLocation = `${ex.baseUrl}/v1/orgs/${ex.orgId}/sites/${siteEx.siteId}`;
