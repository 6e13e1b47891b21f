// The customization of a published site: the defaults a site starts from (titled after the site, or a
// site space), with what `updateSiteCustomizationById` stored merged over them. The published profile
// and the published site (server/published/) both read it through `siteCustomization`.
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { siteOperations } from '../../contract/sites.js';
import type { components } from '../../generated/types.js';
import type { OrganizationGrant } from '../auth/access.js';
import { checkCondition, claimNamesOf, type ClaimNames } from '../conditions/check.js';
import type { Ctx } from '../context.js';
import { sites } from '../db/schema/index.js';
import type { SiteRow } from './site-view.js';
import { requireGrantedSite, requireSite } from './structure.js';

export type SiteCustomization = components['schemas']['SiteCustomizationSettings'];

/** The full customization object of a site (or site space) titled `title`, with every default filled in. */
export function defaultCustomization(title: string): SiteCustomization {
  const color = (light: string, dark: string) => ({ light, dark });
  return {
    title,
    styling: {
      theme: 'clean',
      primaryColor: color('#346DDB', '#346DDB'),
      tint: { color: color('#346DDB', '#346DDB') },
      infoColor: color('#787878', '#787878'),
      successColor: color('#00C950', '#00C950'),
      warningColor: color('#FE9A00', '#FE9A00'),
      dangerColor: color('#FB2C36', '#FB2C36'),
      corners: 'rounded',
      depth: 'subtle',
      links: 'default',
      font: 'Inter',
      monospaceFont: 'IBMPlexMono',
      icons: 'regular',
      sidebar: { background: 'default', list: 'default' },
      search: 'prominent',
      codeTheme: { default: { light: 'default-light', dark: 'default-dark' }, openapi: { light: 'default-light', dark: 'default-dark' } },
      background: 'plain',
    },
    internationalization: { locale: 'en' },
    favicon: {},
    socialAccounts: [],
    header: { preset: 'default', links: [] },
    footer: { groups: [] },
    themes: { default: 'light', toggeable: true },
    pdf: { enabled: true },
    feedback: { enabled: false },
    ai: { mode: 'none' },
    advancedCustomization: { enabled: true },
    git: { showEditLink: false },
    pageActions: { externalAI: true, markdown: true, mcp: true },
    externalLinks: { target: 'self' },
    pagination: { enabled: true },
    trademark: { enabled: true },
    privacyPolicy: {},
    socialPreview: {},
    insights: { trackingCookie: true },
  };
}

export type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `over` merged into `base`, object by object (arrays and values replace). */
export function merged(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    out[key] = isObject(value) && isObject(base[key]) ? merged(base[key], value) : value;
  }
  return out;
}

/** The customization of a site: its stored one over the defaults. */
export function siteCustomization(site: Pick<SiteRow, 'title' | 'customization'>): SiteCustomization {
  const defaults = defaultCustomization(site.title) as Json;
  return completed(site.customization ? merged(defaults, site.customization) : defaults);
}

/** The customization of a site space: the site's with the site space's overrides over it. */
export function siteSpaceCustomization(site: Pick<SiteRow, 'title' | 'customization'>, siteSpace: { customization: Json | null }): SiteCustomization {
  const ofSite = siteCustomization(site);
  return siteSpace.customization ? completed(merged(ofSite as Json, siteSpace.customization)) : ofSite;
}

type PageAction = NonNullable<NonNullable<SiteCustomization['pageActions']>['items']>[number];

/**
 * The merged settings in GitBook's shape: the page menu's actions listed (`pageActions.items`, from its flags
 * and the AI mode: GitBook's source of truth, our flags' view of it), an announcement's style filled in, and
 * an announcement stored without a message (before messages were required) left out, as it shows nothing.
 */
function completed(settings: Json): SiteCustomization {
  const out = settings as SiteCustomization;
  const flags = out.pageActions ?? {};
  const items: PageAction[] = [
    ...(out.ai?.mode === 'assistant' ? (['assistant'] as const) : []),
    ...(flags.markdown !== false ? (['markdown'] as const) : []),
    ...(flags.externalAI !== false ? (['external-ai'] as const) : []),
    ...(flags.mcp !== false ? (['mcp'] as const) : []),
    ...(out.pdf?.enabled ? (['pdf'] as const) : []),
  ];
  const { announcement, ...rest } = out;
  return {
    ...rest,
    pageActions: { ...flags, items },
    ...(announcement?.message && { announcement: { ...announcement, style: announcement.style ?? 'info' } }),
  };
}

/** A request's page actions in our flags: GitBook's `items`, when given, decide them (the assistant follows `ai.mode`). */
export function withPageActionFlags<T extends { pageActions?: { items?: PageAction[]; externalAI?: boolean; markdown?: boolean; mcp?: boolean } }>(body: T): T {
  const items = body.pageActions?.items;
  if (!items) return body;
  const { items: _, ...flags } = body.pageActions!;
  return { ...body, pageActions: { ...flags, externalAI: items.includes('external-ai'), markdown: items.includes('markdown'), mcp: items.includes('mcp') } };
}

/** The customization of a site of the organization, defaults filled in. */
export async function getCustomization(ctx: Ctx, org: OrganizationGrant, siteId: string): Promise<SiteCustomization> {
  return siteCustomization(await requireGrantedSite(ctx, org, siteId));
}

/** Throws BadRequest naming the header link whose condition is not in the grammar or reads an undefined claim. */
export function checkHeaderConditions(body: { header?: { links?: { condition?: string }[] } }, names: ClaimNames | undefined): void {
  for (const [i, link] of (body.header?.links ?? []).entries()) checkCondition(`body.header.links[${i}].condition`, link.condition, names);
}

type CustomizationInput = z.output<typeof siteOperations.updateSiteCustomizationById.body>;

/** Replaces the stored customization (a full replacement: what is left out takes its default). */
export async function putCustomization(ctx: Ctx, org: OrganizationGrant, siteId: string, body: CustomizationInput): Promise<SiteCustomization> {
  const site = await requireSite(ctx, org.organization.id, siteId);
  checkHeaderConditions(body, claimNamesOf(site.adaptiveSchema));
  const [row] = await ctx.db
    .update(sites)
    .set({ customization: withPageActionFlags(body) as Json, updatedAt: ctx.now() })
    .where(eq(sites.id, site.id))
    .returning();
  return siteCustomization(row);
}
