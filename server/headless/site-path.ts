// A site's place in a path under PUBLISHED_URL's: `/<organization>/<site>[/<segment>…]`, as the published
// site routes it and URL resolution reads it.

export interface SitePath {
  org: string;
  site: string;
  segments: string[];
}

/**
 * The site named by `path` (under PUBLISHED_URL's path, with no query), matched as Express's
 * `/:org/:site{/*rest}` did (one trailing slash allowed); undefined for any other path, and null for a
 * site's path whose escapes are malformed (a 404 page: it leads nowhere).
 */
export function sitePath(path: string): SitePath | null | undefined {
  const parts = (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).split('/');
  if (parts[0] !== '' || !parts[1] || !parts[2]) return undefined;
  try {
    const [org, site, ...segments] = parts.slice(1).map((p) => decodeURIComponent(p));
    return { org, site, segments };
  } catch {
    return null;
  }
}
