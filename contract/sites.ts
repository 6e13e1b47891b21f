// Published docs sites, their adaptive schema and publication.
import { DateTime, DefaultLevel, listExample, listOf, paginationQuery, queryBoolean, trimmedText } from './common.js';
import { ContentRef } from './document.js';
import { ex } from './examples.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { OrganizationIdParams } from './organizations.js';
import {
  shareKeyQuery,
  SiteIdParams,
  siteEx,
  siteLocation,
  SiteCondition,
  SiteSection,
  siteSectionExample,
  SiteSpace,
  SiteVisibility,
} from './site-schemas.js';
import { z } from './zod.js';
import { conditional } from './conditional.js';

export const siteTypes = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;

export const SiteType = z
  .enum(siteTypes)
  .openapi('SiteType', { description: 'Plan of a docs site, which decides the features it has.', example: 'premium' });

export const siteHostnamePattern = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;
export const siteProxyPattern = /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/;

const agentsContext = z
  .enum(['excluded', 'included'])
  .openapi({
    description:
      'excluded: AI agents cannot access the site (its robots.txt disallows the known AI crawlers by name, and requests ' +
      'whose User-Agent names one are refused, 403); included: they can, and the site offers them each page as Markdown ' +
      'at `<page URL>.md` and an index of its pages at `<site URL>/llms.txt`.',
  });

/** The features of GitBook's site plans this server reports a site using (`Site.features`, server/sites/site-features.ts). */
export const siteFeatureKeys = [
  'sites-public-visibility',
  'sites-unlisted-visibility',
  'sites-share-links',
  'sites-visitor-authentication',
  'sites-adaptive-content',
  'sites-custom-domain',
  'sites-custom-subdirectory',
  'sites-basic-customization',
  'sites-full-text-search',
  'sites-sections',
  'sites-redirects',
] as const;

export const SiteFeature = z
  .object({
    id: z.enum(siteFeatureKeys).openapi({ description: "The feature, by GitBook's identifier." }),
    plan: SiteType.openapi({ description: 'The plan the feature belongs to in GitBook.' }),
    frozen: z.boolean().openapi({ description: 'A frozen feature is on but cannot be changed: never here, where no plan lapses.' }),
  })
  .openapi('SiteFeature', { description: 'A feature the site uses, with the plan it belongs to.', example: { id: 'sites-custom-domain', plan: 'premium', frozen: false } });

export const siteExample = {
  object: 'site' as const,
  id: siteEx.siteId,
  type: 'premium' as const,
  appliedType: 'premium' as const,
  title: 'Acme Developer Docs',
  hostname: 'docs.acme.example.com',
  basename: 'developers',
  visibility: 'public' as const,
  defaultLevel: 'inherit' as const,
  permissions: { view: true, access: true, edit: true, create: true, admin: true, installIntegration: true, viewAdaptiveSchema: true, editAdaptiveSchema: true },
  features: [
    { id: 'sites-public-visibility' as const, plan: 'basic' as const, frozen: false },
    { id: 'sites-custom-domain' as const, plan: 'premium' as const, frozen: false },
    { id: 'sites-basic-customization' as const, plan: 'basic' as const, frozen: false },
    { id: 'sites-full-text-search' as const, plan: 'basic' as const, frozen: false },
  ],
  published: true,
  siteSpaces: 2,
  createdAt: ex.createdAt,
  adaptiveContent: { enabled: false },
  agentsContext: 'included' as const,
  urls: {
    location: siteLocation,
    app: `${ex.appUrl}/o/${ex.orgId}/sites/${siteEx.siteId}`,
    preview: `${ex.appUrl}/o/${ex.orgId}/sites/${siteEx.siteId}/preview`,
    published: siteEx.publishedUrl,
  },
};

const imagePair = z.object({ light: z.url(), dark: z.url() });
/** Colors the published site puts in its style sheet: hex notation only, so a stored value cannot break out of CSS. */
const cssColor = z.string().regex(/^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/, 'must be a hex color such as #346DDB');
const imagePairInput = z.strictObject({ light: z.url({ protocol: /^https?$/ }), dark: z.url({ protocol: /^https?$/ }) });

export const Site = z
  .object({
    object: z.literal('site'),
    id: z.string(),
    type: SiteType.openapi({ description: 'Plan of the site; `basic` unless chosen otherwise.' }),
    appliedType: SiteType.openapi({ description: 'The plan in effect: the site\'s `type` (no plan is frozen or lapses on this server).' }),
    title: z.string(),
    icon: z.object({ icon: imagePair }).openapi({ description: 'Icon of the site, for light and dark themes.' }).optional(),
    hostname: z.string().regex(siteHostnamePattern).openapi(conditional('Custom hostname the site is served on; absent until one is set with `updateSiteById`.')).optional(),
    basename: z.string().openapi(conditional('A short name for the site, used in its default URL; absent until one is set with `updateSiteById` (the site id stands in the URL then).')).optional(),
    proxy: z
      .object({
        origin: z.string().openapi({ description: 'The proxied URL the site is served from (a domain plus a sub-path).' }),
        target: z.url().openapi({ description: 'The URL the proxy forwards to.' }),
      })
      .optional()
      .openapi({ description: 'Present when the site is served through a reverse proxy.' }),
    visibility: SiteVisibility,
    defaultLevel: DefaultLevel.openapi({
      description: "What every member of the organization gets on the site: always `inherit`, their organization role (grants raise it: `inviteToSite`).",
    }),
    permissions: z
      .object({
        view: z.boolean(),
        access: z.boolean(),
        edit: z.boolean(),
        create: z.boolean(),
        admin: z.boolean(),
        installIntegration: z.boolean(),
        viewAdaptiveSchema: z.boolean(),
        editAdaptiveSchema: z.boolean(),
      })
      .openapi({ description: "What the caller may do on the site, from their role on it (organization role raised by their and their teams' grants)." }),
    features: z.array(SiteFeature).openapi({
      description:
        "The features of GitBook's site plans the site uses, from its settings: its visibility, adaptive content, a custom " +
        'hostname or proxy, sections, redirects, and the customization and search every site has.',
    }),
    published: z.boolean(),
    siteSpaces: z.number().int().openapi({ description: 'Number of site spaces of the site.' }),
    createdAt: DateTime,
    adaptiveContent: z.object({ enabled: z.boolean() }).openapi({ description: 'Whether adaptive content is on.' }).optional(),
    agentsContext: agentsContext.optional(),
    urls: z.object({
      location: z.url(),
      app: z.url(),
      preview: z.url().openapi({ description: 'Where the site is previewed in the application (`<app>/o/<organization>/sites/<site>/preview`), published or not.' }),
      published: z.url().openapi({ description: 'Present when the site is published.' }).optional(),
      login: z
        .url()
        .openapi({
          description:
            'Where a visitor signs in (`<published>/~auth/login`): sent on to the `fallbackURL` of the site\'s visitor ' +
            'authentication with a `location` to come back to. Present when the site is published and its visitors carry ' +
            'a token (visibility `visitor-auth`, or adaptive content on).',
        })
        .optional(),
      logout: z
        .url()
        .openapi({
          description:
            'Where a visitor signs out (`<published>/~auth/logout`): the site forgets their token, then sends them to the ' +
            '`logoutURL` of its visitor authentication (the site\'s home without one). Present with `login`.',
        })
        .optional(),
    }),
  })
  .openapi('Site', { description: 'A published docs site: sections and site spaces served at a URL.', example: siteExample });

const colorPair = z
  .object({ light: z.string(), dark: z.string() })
  .openapi('SiteCustomizationColor', {
    description: 'A CSS color for the light and the dark theme.',
    example: { light: '#346DDB', dark: '#5B8DEF' },
  });

const link = z.object({ title: z.string(), to: ContentRef });

/** GitBook's interface languages (`internationalization.locale`). */
const customizationLocales = ['en', 'fr', 'es', 'zh', 'ja', 'de', 'nl', 'no', 'pt-br', 'ru'] as const;
/** GitBook's page menu actions (`pageActions.items`). */
export const pageActionTypes = ['assistant', 'external-ai', 'markdown', 'mcp', 'git', 'pdf'] as const;
/** GitBook's code highlighting themes (Shiki's names). */
const codeThemes = [
  'default-light', 'default-dark', 'monochrome-light', 'monochrome-dark', 'andromeeda', 'aurora-x', 'ayu-dark', 'catppuccin-frappe', 'catppuccin-latte', 'catppuccin-macchiato', 'catppuccin-mocha', 'dark-plus', 'dracula', 'dracula-soft', 'everforest-dark', 'everforest-light', 'github-dark', 'github-dark-default', 'github-dark-dimmed', 'github-dark-high-contrast', 'github-light', 'github-light-default', 'github-light-high-contrast', 'gruvbox-dark-hard', 'gruvbox-dark-medium', 'gruvbox-dark-soft', 'gruvbox-light-hard', 'gruvbox-light-medium', 'gruvbox-light-soft', 'houston', 'kanagawa-dragon', 'kanagawa-lotus', 'kanagawa-wave', 'laserwave', 'light-plus', 'material-theme', 'material-theme-darker', 'material-theme-lighter', 'material-theme-ocean', 'material-theme-palenight', 'min-dark', 'min-light', 'monokai', 'night-owl', 'nord', 'one-dark-pro', 'one-light', 'plastic', 'poimandres', 'red', 'rose-pine', 'rose-pine-dawn', 'rose-pine-moon', 'slack-dark', 'slack-ochin', 'snazzy-light', 'solarized-dark', 'solarized-light', 'synthwave-84', 'tokyo-night', 'vesper', 'vitesse-black', 'vitesse-dark', 'vitesse-light',
] as const;
const codeThemePair = z.object({ light: z.enum(codeThemes), dark: z.enum(codeThemes) });
const socialAccount = z.object({
  platform: z.enum(['twitter', 'instagram', 'facebook', 'linkedin', 'github', 'discord', 'slack', 'youtube', 'tiktok', 'reddit', 'bluesky', 'mastodon', 'threads', 'medium']),
  handle: z.string().min(1).max(128).openapi({ description: 'The handle, without a prefix such as `@`.' }),
  display: z.object({ footer: z.boolean(), header: z.boolean() }).openapi({ description: 'Where the site links the account.' }),
});

export const siteCustomizationExample = {
  title: 'Acme Developer Docs',
  styling: { theme: 'clean', primaryColor: { light: '#346DDB', dark: '#5B8DEF' }, font: 'Inter', corners: 'rounded' },
  themes: { default: 'light', toggeable: true },
  feedback: { enabled: true },
  pagination: { enabled: true },
};

export const SiteCustomizationSettings = z
  .object({
    title: z.string().optional(),
    styling: z
      .object({
        theme: z.string().optional(),
        primaryColor: colorPair.optional(),
        tint: z.object({ color: colorPair }).optional(),
        infoColor: colorPair.optional(),
        successColor: colorPair.optional(),
        warningColor: colorPair.optional(),
        dangerColor: colorPair.optional(),
        corners: z.string().optional(),
        depth: z.string().optional(),
        links: z.string().optional(),
        font: z.string().optional(),
        monospaceFont: z.string().optional(),
        icons: z.string().optional(),
        sidebar: z.object({ background: z.string().optional(), list: z.string().optional() }).optional(),
        search: z.string().optional(),
        codeTheme: z
          .object({ default: codeThemePair, openapi: codeThemePair })
          .openapi({ description: 'Syntax highlighting of code blocks (`default`) and of OpenAPI blocks (`openapi`), per theme.' })
          .optional(),
        background: z.enum(['plain', 'match']).openapi({ description: "GitBook's deprecated background style (`tint` replaces it): `plain` unless set." }).optional(),
      })
      .optional(),
    internationalization: z
      .object({ locale: z.enum(customizationLocales) })
      .openapi({ description: 'The language of the site\'s interface (`en` unless set).' })
      .optional(),
    favicon: z
      .union([z.object({ icon: imagePair }), z.object({ emoji: z.string().min(1).max(32) }), z.object({}).strict()])
      .openapi({ description: "The site's favicon: an icon per theme, an emoji, or none (`{}`, the default)." })
      .optional(),
    socialAccounts: z
      .array(socialAccount)
      .max(10)
      .openapi({ description: "The site's social accounts, linked from its footer and/or header (`[]` unless set)." })
      .optional(),
    header: z
      .object({
        preset: z
          .enum(['default', 'bold', 'contrast', 'custom', 'none'])
          .openapi({ description: "GitBook's legacy header preset (the styling theme replaces it): `default` unless set." })
          .optional(),
        logo: imagePair.optional(),
        links: z
          .array(
            z.object({
              title: z.string(),
              style: z.string().optional(),
              to: ContentRef.optional(),
              links: z.array(link).optional(),
              condition: SiteCondition.optional(),
            }),
          )
          .optional(),
      })
      .optional(),
    footer: z
      .object({
        logo: imagePair.optional(),
        groups: z.array(z.object({ title: z.string(), links: z.array(link) })).optional(),
        copyright: z.string().optional(),
      })
      .optional(),
    announcement: z
      .object({
        enabled: z.boolean(),
        message: z.string().min(2).max(128).openapi({ description: 'The text of the banner.' }),
        link: link.optional(),
        style: z.enum(['info', 'warning', 'danger', 'success']).openapi({ description: 'The semantic color of the banner (`info` unless set).' }).optional(),
      })
      .optional(),
    themes: z.object({ default: z.string().optional(), toggeable: z.boolean().optional() }).optional(),
    pdf: z.object({ enabled: z.boolean() }).optional(),
    feedback: z.object({ enabled: z.boolean() }).optional(),
    ai: z.object({ mode: z.string() }).optional(),
    advancedCustomization: z.object({ enabled: z.boolean() }).optional(),
    git: z.object({ showEditLink: z.boolean() }).optional(),
    pageActions: z
      .object({
        externalAI: z.boolean().optional(),
        markdown: z.boolean().optional(),
        mcp: z.boolean().optional(),
        items: z
          .array(z.enum(pageActionTypes))
          .openapi({
            description:
              "The page menu's actions in order, as GitBook lists them: in an answer, those the flags above (and `ai.mode` " +
              '`assistant`) turn on; in a request, the actions to turn on (overriding the flags), an empty list none.',
          })
          .optional(),
      })
      .optional(),
    externalLinks: z.object({ target: z.string() }).optional(),
    pagination: z.object({ enabled: z.boolean() }).optional(),
    trademark: z.object({ enabled: z.boolean() }).optional(),
    privacyPolicy: z.object({ url: z.url().optional() }).optional(),
    socialPreview: z.object({ url: z.url().optional() }).optional(),
    insights: z.object({ trackingCookie: z.boolean() }).optional(),
  })
  .openapi('SiteCustomizationSettings', {
    description: 'Customization of a docs site or of one of its site spaces; absent fields keep their defaults.',
    example: siteCustomizationExample,
  });

/** What `updateSiteCustomizationById` accepts: the settings, with colors and images held to what can be rendered safely. */
export const SiteCustomizationSettingsInput = z.object({
  ...SiteCustomizationSettings.shape,
  styling: SiteCustomizationSettings.shape.styling.unwrap().extend({
    primaryColor: z.strictObject({ light: cssColor, dark: cssColor }).optional(),
    tint: z.strictObject({ color: z.strictObject({ light: cssColor, dark: cssColor }) }).optional(),
  }).optional(),
  favicon: z.strictObject({ icon: imagePairInput }).optional(),
  header: SiteCustomizationSettings.shape.header.unwrap().extend({ logo: imagePairInput.optional() }).optional(),
}).openapi('SiteCustomizationSettingsInput', {
  description:
    'The whole customization of a site (a full replacement: omitted fields take their defaults). Colors are hex ' +
    '(`#346DDB`), images `http(s)` URLs.',
  example: siteCustomizationExample,
});

export const publishedContentSiteExample = {
  object: 'published-content-site' as const,
  site: siteExample,
  structure: { type: 'sections' as const, structure: [siteSectionExample], siteSpaces: [] },
  customizations: {
    site: siteCustomizationExample,
    siteSpaces: { [siteEx.siteSpaceId]: { ...siteCustomizationExample, title: 'Getting started with Acme' } },
  },
  scripts: [
    {
      script: 'https://integrations.docs.example.com/v1/integrations/web-analytics/script.js',
      contentSecurityPolicy: "script-src 'self' https://integrations.docs.example.com",
      cookies: true,
    },
  ],
};

export const PublishedContentSite = z
  .object({
    object: z.literal('published-content-site'),
    site: Site,
    structure: z
      .union([
        z
          .object({
            type: z.literal('sections'),
            structure: z.array(SiteSection).openapi({
              description: 'The sections in navigation order (groups flattened, each section naming its group), each with its site spaces.',
            }),
            siteSpaces: z.array(SiteSpace).openapi({
              description:
                'The site spaces at the root of the site, outside every section (served at `<site URL>/<path>`), in their ' +
                'order; often none. GitBook\'s structure of a site with sections holds sections only, so they are here, beside it.',
            }),
          })
          .openapi('PublishedSiteSectionsStructure', { description: 'The structure of a site with sections.' }),
        z
          .object({
            type: z.literal('siteSpaces'),
            structure: z.array(SiteSpace).openapi({ description: 'The site spaces of the site, in their order.' }),
          })
          .openapi('PublishedSiteSpacesStructure', { description: 'The structure of a site without sections: its site spaces.' }),
      ])
      .openapi({ description: '`sections` when the site has sections; `siteSpaces` when it has none (the one-space site among them).' }),
    customizations: z.object({
      site: SiteCustomizationSettings,
      siteSpaces: z.record(z.string(), SiteCustomizationSettings).openapi({
        description:
          'By site space id, the customization the published site applies on that site space\'s pages: the site\'s with ' +
          'the site space\'s overrides (overrideSiteSpaceCustomizationById) over it. Present for every site space, equal ' +
          'to `site` for one without overrides, so applying it never resets the site\'s settings.',
      }),
    }),
    scripts: z
      .array(
        z.object({
          script: z.url(),
          contentSecurityPolicy: z.string().optional(),
          cookies: z.boolean().openapi({ description: 'Whether the script sets cookies.' }),
        }),
      )
      .openapi({ description: 'Scripts of integrations to load on the published site.' }),
  })
  .openapi('PublishedContentSite', {
    description: 'Everything needed to render a published docs site: the site, its structure, customizations and scripts.',
    example: publishedContentSiteExample,
  });

export const siteAdaptiveSchemaExample = {
  object: 'site-adaptive-schema' as const,
  jsonSchema: {
    type: 'object',
    properties: {
      isBetaUser: { type: 'boolean', description: 'Whether the visitor is enrolled in the beta program.' },
      isEnterprise: { type: 'boolean', description: 'Whether the visitor belongs to an enterprise customer.' },
      unsigned: {
        type: 'object',
        description: 'Claims the visitor may set without signing them.',
        properties: { prefersDarkMode: { type: 'boolean' } },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  },
  updatedAt: ex.updatedAt,
};

export const SiteAdaptiveSchema = z
  .object({
    object: z.literal('site-adaptive-schema'),
    jsonSchema: z.looseObject({}).openapi({
      description:
        'A draft-07 JSON Schema of the visitor attributes: an object of boolean properties, plus an `unsigned` ' +
        'object of boolean claims, with no additional properties.',
    }),
    updatedAt: DateTime,
  })
  .openapi('SiteAdaptiveSchema', {
    description: 'The attributes visitors of a site may carry, on which adaptive content conditions are written.',
    example: siteAdaptiveSchemaExample,
  });

const siteResponse = (description: string) => ({ description, schema: Site, example: siteExample });

export const sitePublishingAuthExample = {
  object: 'publishing-auth' as const,
  backend: 'custom' as const,
  privateKey: 'k9Jx2LQw7bQy0t1Z8cVn4mR5sP3aE6dH1uG2fK7jL0o',
  fallbackURL: 'https://auth.acme.example.com/docs-login',
  logoutURL: 'https://auth.acme.example.com/logout',
};

export const SitePublishingAuth = z
  .object({
    object: z.literal('publishing-auth'),
    backend: z.enum(['custom', 'integration']).openapi({
      description:
        'Who signs visitor tokens: `custom`, the site owner\'s own backend (visitors are sent to `fallbackURL`), or ' +
        '`integration`, the integration with the `site:visitor:auth` scope installed on the site (visitors are sent ' +
        'through its `fetch_visitor_authentication`, and it signs their token with `privateKey`).',
    }),
    privateKey: z.string().openapi({ description: 'The key visitor JWTs are signed with (HS256). Keep it on the signing backend.' }),
    fallbackURL: z.url().openapi(conditional('Where a visitor without a valid token is sent to sign in; absent until one is set with `updateSitePublishingAuthById`.')).optional(),
    logoutURL: z
      .url()
      .openapi(
        conditional('Where a visitor is sent after signing out of the site (`urls.logout` of the site), to sign out of the backend ' +
          'that signs their tokens too; absent until one is set with `updateSitePublishingAuthById`.'),
      )
      .optional(),
    integration: z
      .string()
      .openapi({
        description:
          'Name of the integration with the `site:visitor:auth` scope installed on the site (on the site itself, or on ' +
          'every site of the organization), if any: the one visitors are sent through when `backend` is `integration`.',
      })
      .optional(),
  })
  .openapi('SitePublishingAuth', {
    description:
      'How visitors of a `visitor-auth` site are authenticated: a JWT signed with `privateKey` (HS256), given once as ' +
      '`?jwt_token=` on any published URL of the site (kept in a cookie for the site), whose claims are the visitor\'s ' +
      'adaptive-content claims. The site\'s `urls.login` sends visitors to `fallbackURL`; its `urls.logout` forgets ' +
      'their token and sends them to `logoutURL`.',
    example: sitePublishingAuthExample,
  });

const httpUrl = z.url({ protocol: /^https?$/ });

export const siteOperations = operations({
  listSites: {
    method: 'get',
    path: '/orgs/{organizationId}/sites',
    tag: 'sites',
    summary: 'List the sites of an organization',
    description:
      'Lists the docs sites of an organization, optionally only those publishing a given space, whose title ' +
      'contains the given text, or that are (or are not) published.',
    params: OrganizationIdParams,
    query: z.object({
      ...paginationQuery,
      space: z.string().min(1).max(128).openapi({ description: 'Only sites that publish this space.' }).optional(),
      title: z.string().min(1).max(256).openapi({ description: 'Only sites whose title contains this text.' }).optional(),
      published: queryBoolean('Only published sites (true) or unpublished ones (false).').optional(),
    }),
    responses: {
      200: { description: 'A page of sites.', schema: listOf('SiteList', Site), example: listExample([siteExample]) },
    },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  createSite: {
    method: 'post',
    path: '/orgs/{organizationId}/sites',
    tag: 'sites',
    summary: 'Create a site',
    description:
      'Creates an unpublished docs site, of type `basic` unless `type` is given, publishing the given `spaces`. ' +
      ' The body may be omitted. An unknown space is not found (404).',
    params: OrganizationIdParams,
    body: z
      .strictObject({
        type: SiteType.optional(),
        title: trimmedText(1).optional(),
        visibility: SiteVisibility.optional(),
        spaces: z.array(z.string().min(1)).openapi({ description: 'Ids of spaces to add as site spaces.' }).optional(),
      })
      .openapi('CreateSite'),
    bodyOptional: true,
    bodyExample: { type: 'premium', title: 'Acme Developer Docs', visibility: 'public', spaces: [ex.spaceId] },
    responses: { 201: siteResponse('The created site.') },
    errors: [403, 404],
    access: access.organization('admin'),
    statements: 8,
  },
  getSiteById: {
    method: 'get',
    path: '/orgs/{organizationId}/sites/{siteId}',
    tag: 'sites',
    summary: 'Get a site',
    description: 'Returns a docs site of the organization; an unknown site is not found (404).',
    params: SiteIdParams,
    responses: { 200: siteResponse('The site.') },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  deleteSiteById: {
    method: 'delete',
    path: '/orgs/{organizationId}/sites/{siteId}',
    tag: 'sites',
    summary: 'Delete a site',
    description:
      'Deletes a docs site with its sections, section groups and site spaces (the spaces themselves are kept). ' +
      ' Succeeds with no content also when the site did not exist.',
    params: SiteIdParams,
    responses: { 204: { description: 'The site no longer exists.' } },
    errors: [403],
    access: access.organization('admin'),
    statements: 3,
  },
  updateSiteById: {
    method: 'patch',
    path: '/orgs/{organizationId}/sites/{siteId}',
    tag: 'sites',
    summary: 'Update a site',
    description:
      'Changes the given settings of a site; omitted fields are unchanged. `proxy: null` removes the proxy. ' +
      '`defaultSiteSpace` sets the default site space at the root or in the default section (one elsewhere is ' +
      'refused, 400); an unknown ' +
      'site, site space or section is not found (404); a `hostname` another site uses is a conflict (409).',
    params: SiteIdParams,
    body: z
      .strictObject({
        title: trimmedText(1).optional(),
        visibility: SiteVisibility.optional(),
        basename: z.string().min(1).openapi({ description: 'A short name for the site.' }).optional(),
        hostname: z
          .string()
          .regex(siteHostnamePattern)
          .nullable()
          .optional()
          .openapi({ description: 'Custom hostname to serve the site on (unique across sites); null removes it.' }),
        adaptiveContent: z.strictObject({ enabled: z.boolean() }).optional(),
        agentsContext: agentsContext.optional(),
        defaultSiteSpace: z.string().min(1).openapi({ description: 'Id of the site space to make the default.' }).optional(),
        defaultSiteSection: z.string().min(1).openapi({ description: 'Id of the section to make the default.' }).optional(),
        proxy: z
          .string()
          .regex(siteProxyPattern)
          .nullable()
          .optional()
          .openapi({ description: 'A domain plus a sub-path to serve the site from, e.g. `acme.example.com/docs`; null removes the proxy.' }),
      })
      .openapi('UpdateSite'),
    bodyExample: { title: 'Acme Developer Docs', visibility: 'unlisted', proxy: 'acme.example.com/docs', agentsContext: 'excluded' },
    responses: { 200: siteResponse('The updated site.') },
    errors: [403, 404, 409],
    access: access.organization('admin'),
    statements: 6,
  },
  getSiteAdaptiveSchema: {
    method: 'get',
    path: '/orgs/{organizationId}/sites/{siteId}/adaptive-schema',
    tag: 'sites',
    summary: 'Get the adaptive schema of a site',
    description:
      'Returns the schema of the visitor attributes used by adaptive content. A site that has none, or an ' +
      'unknown site, is not found (404).',
    params: SiteIdParams,
    responses: {
      200: { description: 'The adaptive schema.', schema: SiteAdaptiveSchema, example: siteAdaptiveSchemaExample },
    },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  updateSiteAdaptiveSchema: {
    method: 'put',
    path: '/orgs/{organizationId}/sites/{siteId}/adaptive-schema',
    tag: 'sites',
    summary: 'Set the adaptive schema of a site',
    description:
      'Replaces the schema of the visitor attributes of a site. A `jsonSchema` that is not a valid schema of ' +
      'boolean attributes is refused (400).',
    params: SiteIdParams,
    body: z
      .strictObject({
        jsonSchema: z.looseObject({}).openapi({ description: 'The draft-07 JSON Schema of the visitor attributes.' }),
      })
      .openapi('UpdateSiteAdaptiveSchema'),
    bodyExample: { jsonSchema: siteAdaptiveSchemaExample.jsonSchema },
    responses: {
      200: { description: 'The stored adaptive schema.', schema: SiteAdaptiveSchema, example: siteAdaptiveSchemaExample },
    },
    errors: [403, 404],
    access: access.organization('admin'),
    statements: 3,
  },
  listSiteAdaptiveTemplateConditions: {
    method: 'get',
    path: '/orgs/{organizationId}/sites/{siteId}/adaptive-schema/template-conditions',
    tag: 'sites',
    summary: 'List template conditions of a site',
    description: 'Lists ready-made adaptive content conditions, built from the adaptive schema of the site, with what each means.',
    params: SiteIdParams,
    responses: {
      200: {
        description: 'The template conditions.',
        schema: z
          .object({ items: z.array(z.object({ description: z.string(), condition: z.string() })) })
          .openapi('SiteAdaptiveTemplateConditions'),
        example: {
          items: [{ description: 'The visitor is enrolled in the beta program', condition: 'visitor.claims.isBetaUser' }],
        },
      },
    },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  getPublishedContentSite: {
    method: 'get',
    path: '/orgs/{organizationId}/sites/{siteId}/published',
    tag: 'sites',
    summary: 'Get the published profile of a site',
    description:
      'Returns what a published site renders: the site, its structure (a site without sections: its site spaces in ' +
      'order; with sections: the site spaces at its root, then its sections in navigation order, groups flattened, ' +
      'each section naming its group, with their site spaces), the customizations (defaults filled in; each site ' +
      'space\'s with its overrides) and the integration scripts. A share-link site needs its `shareKey` (the segment after `~s/` in its published URL): without it the ' +
      'request is refused (400), with a wrong one the site is not found (404). An unknown or unpublished site is not ' +
      'found (404). Site spaces whose space is deleted are left out. `scripts` lists the browser scripts of the ' +
      'integrations installed on the site.',
    params: SiteIdParams,
    query: z.object({ shareKey: shareKeyQuery }),
    responses: {
      200: { description: 'The published site profile.', schema: PublishedContentSite, example: publishedContentSiteExample },
    },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  publishSite: {
    method: 'post',
    path: '/orgs/{organizationId}/sites/{siteId}/publish',
    tag: 'sites',
    summary: 'Publish a site',
    description:
      'Publishes a docs site: it becomes `published` and is served at its URL (publishing a published site changes ' +
      'nothing). An unknown site is not found (404).',
    params: SiteIdParams,
    responses: { 200: siteResponse('The published site.') },
    errors: [403, 404],
    access: access.organization('admin'),
    statements: 4,
  },
  unpublishSite: {
    method: 'post',
    path: '/orgs/{organizationId}/sites/{siteId}/unpublish',
    tag: 'sites',
    summary: 'Unpublish a site',
    description:
      'Takes a docs site offline: it is no longer `published` and its URLs answer 404 from the next request on. Its ' +
      'settings and structure are kept; publishing it again serves it at the same URLs. Unpublishing an unpublished ' +
      'site changes nothing. An unknown site is not found (404).',
    params: SiteIdParams,
    responses: { 200: siteResponse('The unpublished site.') },
    errors: [403, 404],
    access: access.organization('admin'),
    statements: 4,
  },
  getSiteCustomizationById: {
    method: 'get',
    path: '/orgs/{organizationId}/sites/{siteId}/customization',
    tag: 'sites',
    summary: 'Get the customization of a site',
    description:
      'Returns the customization of a site with every default filled in (the title defaults to the site\'s). The ' +
      'published site applies its title, primary and tint colors, header logo and links (by condition), footer groups ' +
      'and copyright, the announcement, the themes (`default`, and `toggeable`: the reader\'s light or dark preference ' +
      'wins), `pagination`, the favicon and the social preview image. An unknown site is not found (404).',
    params: SiteIdParams,
    responses: {
      200: { description: 'The customization.', schema: SiteCustomizationSettings, example: siteCustomizationExample },
    },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  updateSiteCustomizationById: {
    method: 'put',
    path: '/orgs/{organizationId}/sites/{siteId}/customization',
    tag: 'sites',
    summary: 'Set the customization of a site',
    description:
      'Replaces the whole customization of a site: fields left out take their defaults. Returns it with the defaults ' +
      'filled in; the published site shows it from the next request on. A color that is not hex, an image URL that ' +
      'is not http(s), or a header link `condition` outside the grammar of conditions (or naming a claim the site\'s ' +
      'adaptive schema does not define) is refused (400). An unknown site is not found (404).',
    params: SiteIdParams,
    body: SiteCustomizationSettingsInput,
    bodyExample: siteCustomizationExample,
    responses: {
      200: { description: 'The stored customization, defaults filled in.', schema: SiteCustomizationSettings, example: siteCustomizationExample },
    },
    errors: [403, 404],
    access: access.organization('admin'),
    statements: 3,
  },
  getSitePublishingAuthById: {
    method: 'get',
    path: '/orgs/{organizationId}/sites/{siteId}/publishing/auth',
    tag: 'sites',
    summary: 'Get the visitor authentication of a site',
    description:
      'Returns how visitors of the site are authenticated when its visibility is `visitor-auth`: the key their JWTs ' +
      'must be signed with (HS256) and the fallback URL. Every site has a key, so it can be set up before the ' +
      'visibility is switched. An unknown site is not found (404).',
    params: SiteIdParams,
    responses: { 200: { description: 'The visitor authentication settings.', schema: SitePublishingAuth, example: sitePublishingAuthExample } },
    errors: [403, 404],
    access: access.organization('admin'),
    statements: 1,
  },
  updateSitePublishingAuthById: {
    method: 'patch',
    path: '/orgs/{organizationId}/sites/{siteId}/publishing/auth',
    tag: 'sites',
    summary: 'Update the visitor authentication of a site',
    description:
      'Changes the backend (`custom`, or `integration`: the integration with the `site:visitor:auth` scope installed ' +
      'on the site signs visitor tokens, a 400 when none is), the `fallbackURL` visitors without a valid token are ' +
      'redirected to (`null` removes it: they get a 401 page instead) and the `logoutURL` visitors are sent to once ' +
      'signed out (`null` removes it: they are sent to the site\'s home). Omitted fields are unchanged. An unknown ' +
      'site is not found (404).',
    params: SiteIdParams,
    body: z
      .strictObject({
        backend: z.enum(['custom', 'integration']),
        fallbackURL: httpUrl.nullable().openapi({ description: 'An http(s) URL; null removes it, omitted keeps it.' }).optional(),
        logoutURL: httpUrl.nullable().openapi({ description: 'An http(s) URL; null removes it, omitted keeps it.' }).optional(),
      })
      .openapi('UpdateSitePublishingAuth'),
    bodyExample: { backend: 'custom', fallbackURL: 'https://auth.acme.example.com/docs-login', logoutURL: 'https://auth.acme.example.com/logout' },
    responses: { 200: { description: 'The visitor authentication settings.', schema: SitePublishingAuth, example: sitePublishingAuthExample } },
    errors: [403, 404],
    access: access.organization('admin'),
    statements: 3,
  },
  regenerateSitePublishingAuthById: {
    method: 'post',
    path: '/orgs/{organizationId}/sites/{siteId}/publishing/auth/regenerate',
    tag: 'sites',
    summary: 'Regenerate the visitor key of a site',
    description:
      'Replaces the key visitor JWTs are signed with: tokens signed with the old key stop working at once. An ' +
      'unknown site is not found (404).',
    params: SiteIdParams,
    responses: { 200: { description: 'The settings with the new key.', schema: SitePublishingAuth, example: sitePublishingAuthExample } },
    errors: [403, 404],
    access: access.organization('admin'),
    statements: 3,
  },
});
