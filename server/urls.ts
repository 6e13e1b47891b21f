// Absolute URLs of resources, built from the configured public base URL. The ground floor beside errors.ts:
// it imports nothing, so every floor (the Ctx, stores, views) can name the `Urls` it is handed.
export interface Urls {
  /** `<public><api path><path>`: where the API serves a resource (the API path is `/v1`, or where a host mounted it). */
  api(path: string): string;
  /** `<APP_URL><path>`: where a person opens it in the web app (not served by this server). */
  app(path: string): string;
  /** `<PUBLISHED_URL><path>`: where this server serves published docs sites (server/published/). */
  published(path: string): string;
  /** `<public><path>`: what this server serves outside the API (e.g. integration public endpoints). */
  root(path: string): string;
}

/** Where the web app and the published sites live; each defaults to a path under the public URL. */
export interface UrlBases {
  appUrl?: string;
  publishedUrl?: string;
  /** The path the API is served under, e.g. `/v1` (the default) or `/api/v1` when a host app mounts it there. */
  apiPath?: string;
}

export function createUrls(publicUrl: string, bases: UrlBases = {}): Urls {
  const app = bases.appUrl ?? `${publicUrl}/app`;
  const published = bases.publishedUrl ?? `${publicUrl}/sites`;
  const api = `${publicUrl}${bases.apiPath ?? '/v1'}`;
  return {
    api: (path) => `${api}${path}`,
    app: (path) => `${app}${path}`,
    published: (path) => `${published}${path}`,
    root: (path) => `${publicUrl}${path}`,
  };
}
