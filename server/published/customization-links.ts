// The links of a site's customization (header links, footer groups, the announcement) as the published
// site shows them: a header link whose condition does not hold for the reader is left out, and each
// ContentRef becomes a URL: `url` (http, https or mailto only), `space` (where the site serves that space)
// and `page` (where the site serves that page, in the site space being read or another one of the site).
// A reference the site cannot serve (a space it does not publish, a file, a user…) is left out rather than
// shown as a link that leads nowhere.
import type { SiteCustomization } from '../sites/customization.js';
import { conditionHolds, type Visitor } from '../conditions/evaluate.js';
import type { Link } from './page-html.js';
import type { SiteStructure, SpaceTree } from './site-data.js';

type Ref = { kind: string; url?: string; space?: string; page?: string };

export interface LinkPlaces {
  structure: SiteStructure;
  /** The URL (under the site's base) of a site space publishing `spaceId`, if the site publishes it. */
  spaceHref(spaceId: string): string | undefined;
  /** The tree being read and the URL of one of its pages, when the reader is in a site space. */
  current?: { spaceId: string; tree: SpaceTree; hrefOf(pageId: string): string | undefined };
}

function hrefOf(ref: Ref | undefined, places: LinkPlaces): string | undefined {
  if (!ref) return undefined;
  if (ref.kind === 'url' && ref.url && /^(https?:|mailto:)/i.test(ref.url)) return ref.url;
  if (ref.kind === 'space' && ref.space) return places.spaceHref(ref.space);
  if (ref.kind === 'page' && ref.page) {
    if (places.current && (!ref.space || ref.space === places.current.spaceId)) return places.current.hrefOf(ref.page);
    return undefined;
  }
  return undefined;
}

const resolved = (title: string, to: Ref | undefined, places: LinkPlaces): Link | undefined => {
  const href = hrefOf(to, places);
  return href ? { title, href } : undefined;
};

/** The header links the reader sees, the footer groups and the announcement's link, resolved. */
export function customizationLinks(custom: SiteCustomization, visitor: Visitor, places: LinkPlaces) {
  const headerLinks = (custom.header?.links ?? [])
    .filter((link) => conditionHolds(link.condition, visitor))
    .flatMap((link) => {
      const to = resolved(link.title, link.to as Ref | undefined, places) ?? resolved(link.title, (link.links?.[0]?.to as Ref | undefined), places);
      return to ? [{ ...to, ...(link.style && { style: link.style }) }] : [];
    });
  const footerGroups = (custom.footer?.groups ?? [])
    .map((group) => ({ title: group.title, links: group.links.flatMap((l) => resolved(l.title, l.to as Ref, places) ?? []) }))
    .filter((group) => group.links.length > 0);
  const announcement = custom.announcement?.link;
  const announcementLink = announcement ? resolved(announcement.title, announcement.to as Ref, places) : undefined;
  return { headerLinks, footerGroups, ...(announcementLink && { announcementLink }) };
}
