// Absolute URLs of resources, built from the configured public base URL. The ground floor beside errors.ts:
// it imports nothing, so every floor (the Ctx, stores, views) can name the `Urls` it is handed.
export interface Urls {
  /** `<public><api path><path>`: where the API serves a resource (the API path is `/v1`, or where a host mounted it). */
  api(path: string): string;
  /** `<APP_URL><path>`: where a person opens it in the web app (not served by this server). */
  app(path: string): string;
  /** `<PUBLISHED_URL><path>`: where this server serves published docs sites (server/published/). */
  published(path: string): string;
  /**
   * `<public><root path><path>`: what this server serves beside the API for browsers, identity providers and
   * integrations (SAML sign-in, invitation join links, integration public endpoints). The root path is ''
   * for the standalone server (they are at its root) and the mount path when a host mounted the API
   * (createDocsApi's `handler` serves them under it).
   */
  root(path: string): string;
}

/** Where the web app and the published sites live; each defaults to a path under the public URL. */
export interface UrlBases {
  appUrl?: string;
  publishedUrl?: string;
  /** The path the API is served under, e.g. `/v1` (the default) or `/api/v1` when a host app mounts it there. */
  apiPath?: string;
  /** The path the routes beside the API are served under (`root`): '' (the default), or the host's mount path. */
  rootPath?: string;
}

export function createUrls(publicUrl: string, bases: UrlBases = {}): Urls {
  const app = bases.appUrl ?? `${publicUrl}/app`;
  const published = bases.publishedUrl ?? `${publicUrl}/sites`;
  const api = `${publicUrl}${bases.apiPath ?? '/v1'}`;
  return {
    api: (path) => `${api}${path}`,
    app: (path) => `${app}${path}`,
    published: (path) => `${published}${path}`,
    root: (path) => `${publicUrl}${bases.rootPath ?? ''}${path}`,
  };
}
