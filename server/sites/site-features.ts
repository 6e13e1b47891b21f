// What a site shows GitBook's clients of its plan and of the caller's rights on it: `Site.features` (the features
// of GitBook's site plans the site uses, read from its settings) and `Site.permissions` (from the caller's role).
import { sql } from 'drizzle-orm';
import type { components } from '../../generated/types.js';
import { atLeast, type Role } from '../auth/roles.js';
import type { SiteRow } from './site-view.js';

type SiteFeature = components['schemas']['SiteFeature'];

/** What a site's features are read from besides its row: whether it has sections and redirects. */
export interface SiteFacts {
  siteSpaces: number;
  sections: boolean;
  redirects: boolean;
}

/** The columns (on a query of `sites`) that give a site's facts. */
export function siteFactFields() {
  return {
    siteSpaceCount: sql<number>`(SELECT count(*) FROM site_spaces ss WHERE ss.site_id = "sites"."id")`.mapWith(Number),
    hasSections: sql<boolean>`EXISTS (SELECT 1 FROM site_sections sc WHERE sc.site_id = "sites"."id" AND sc.kind = 'section')`,
    hasRedirects: sql<boolean>`EXISTS (SELECT 1 FROM site_redirects r WHERE r.site_id = "sites"."id")`,
  };
}

/** The facts of a row selected with `siteFactFields`. */
export function factsOf(row: { siteSpaceCount: number; hasSections: boolean; hasRedirects: boolean }): SiteFacts {
  return { siteSpaces: row.siteSpaceCount, sections: row.hasSections === true, redirects: row.hasRedirects === true };
}

// The plan each feature belongs to in GitBook's pricing.
const plans: Record<SiteFeature['id'], SiteFeature['plan']> = {
  'sites-public-visibility': 'basic',
  'sites-basic-customization': 'basic',
  'sites-full-text-search': 'basic',
  'sites-unlisted-visibility': 'premium',
  'sites-share-links': 'premium',
  'sites-custom-domain': 'premium',
  'sites-redirects': 'premium',
  'sites-visitor-authentication': 'ultimate',
  'sites-adaptive-content': 'ultimate',
  'sites-custom-subdirectory': 'ultimate',
  'sites-sections': 'ultimate',
};

const visibilityFeature: Record<string, SiteFeature['id']> = {
  public: 'sites-public-visibility',
  unlisted: 'sites-unlisted-visibility',
  'share-link': 'sites-share-links',
  'visitor-auth': 'sites-visitor-authentication',
};

/** The features the site uses: its visibility's, adaptive content, custom hostname, proxy, sections, redirects, and customization and search (every site). */
export function siteFeatures(row: SiteRow, facts: SiteFacts): SiteFeature[] {
  const used: SiteFeature['id'][] = [
    ...(visibilityFeature[row.visibility] ? [visibilityFeature[row.visibility]] : []),
    ...(row.adaptiveEnabled ? (['sites-adaptive-content'] as const) : []),
    ...(row.hostname ? (['sites-custom-domain'] as const) : []),
    ...(row.proxy ? (['sites-custom-subdirectory'] as const) : []),
    ...(facts.sections ? (['sites-sections'] as const) : []),
    ...(facts.redirects ? (['sites-redirects'] as const) : []),
    'sites-basic-customization',
    'sites-full-text-search',
  ];
  return used.map((id) => ({ id, plan: plans[id], frozen: false }));
}

/** What a caller with `role` on the site (organization role raised by grants; null: none) may do there. */
export function sitePermissions(role: Role | null) {
  return {
    view: atLeast(role, 'read'),
    access: atLeast(role, 'read'),
    edit: atLeast(role, 'edit'),
    create: atLeast(role, 'create'),
    admin: atLeast(role, 'admin'),
    installIntegration: atLeast(role, 'admin'),
    viewAdaptiveSchema: atLeast(role, 'read'),
    editAdaptiveSchema: atLeast(role, 'admin'),
  };
}
