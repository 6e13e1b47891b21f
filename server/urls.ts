// Absolute URLs of resources, built from the configured public base URL. The ground floor beside errors.ts:
// it imports nothing, so every floor (the Ctx, stores, views) can name the `Urls` it is handed.
export interface Urls {
  /** `<public>/v1<path>`: where the API serves a resource. */
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
}

export function createUrls(publicUrl: string, bases: UrlBases = {}): Urls {
  const app = bases.appUrl ?? `${publicUrl}/app`;
  const published = bases.publishedUrl ?? `${publicUrl}/sites`;
  return {
    api: (path) => `${publicUrl}/v1${path}`,
    app: (path) => `${app}${path}`,
    published: (path) => `${published}${path}`,
    root: (path) => `${publicUrl}${path}`,
  };
}
