// The customization of a published site, with the defaults a site starts from. No operation of the
// description changes customizations yet, so the published profile shows these defaults (titled after
// the site and each site space); a stored override would be merged over them here.
import type { components } from '../../generated/types.js';

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
    },
    header: { links: [] },
    footer: { groups: [] },
    announcement: { enabled: false },
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
