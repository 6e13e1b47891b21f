// The typed client of the API, for frontends and scripts: `openapi-fetch` over the types generated from
// the published document, so paths, parameters, bodies and replies are checked by TypeScript, and an
// error reply is typed as the API's error body (`{ error: { code, message } }`).
import createFetchClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from '../generated/types.js';

export type { components, operations, paths } from '../generated/types.js';

/** The API's error body, as every 4xx/5xx reply carries it (each reply's type narrows `code` to its status). */
export interface ApiError {
  error: { code: number; message: string };
}

export type ApiClient = Client<paths>;

export interface CreateClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The API's base URL, ending in `/v1`, e.g. `http://127.0.0.1:3000/v1`. */
  baseUrl: string;
  /** An access token, sent as `Authorization: Bearer <token>`; omit it for the unauthenticated routes. */
  token?: string;
}

/** A client for the API at `baseUrl`, authenticated with `token`. */
export function createClient({ baseUrl, token, headers, ...options }: CreateClientOptions): ApiClient {
  return createFetchClient<paths>({
    ...options,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }), ...(headers as Record<string, string> | undefined) },
  });
}
