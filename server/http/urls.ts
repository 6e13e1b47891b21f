// Absolute URLs of resources, built from the configured public base URL.
export interface Urls {
  /** `<public>/v1<path>`: where the API serves a resource. */
  api(path: string): string;
  /** `<public>/app<path>`: where a person opens it in the web app. */
  app(path: string): string;
  /** `<public><path>`: what this server serves outside the API (e.g. integration public endpoints). */
  root(path: string): string;
}

export function createUrls(publicUrl: string): Urls {
  return {
    api: (path) => `${publicUrl}/v1${path}`,
    app: (path) => `${publicUrl}/app${path}`,
    root: (path) => `${publicUrl}${path}`,
  };
}
