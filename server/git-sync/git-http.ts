// isomorphic-git's HTTP client, through the server's outbound guard (server/http/outbound.ts): a URL a
// user gave reaches only public addresses (unless ALLOW_PRIVATE_FETCH=true), within a deadline, and an
// answer over `maxBytes` fails the operation. It reads whole bodies: isomorphic-git is only asked for ref
// advertisements; packs are streamed (pack-fetch.ts, pack-push.ts).
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import { outboundRequest, OutboundTooLarge, type OutboundLimits } from '../http/outbound.js';

/** The pack (or another answer) was larger than the limit: the repository is too large. */
export class RepositoryTooLarge extends Error {}

async function collect(body: GitHttpRequest['body']): Promise<Uint8Array | undefined> {
  if (!body) return undefined;
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function* once(bytes: Uint8Array): AsyncIterableIterator<Uint8Array> {
  yield bytes;
}

/** The client for isomorphic-git's `http` option. */
export function guardedHttp(limits: OutboundLimits): HttpClient {
  return {
    async request(request: GitHttpRequest): Promise<GitHttpResponse> {
      const body = await collect(request.body);
      let res;
      try {
        res = await outboundRequest(request.url, limits, { method: request.method, headers: request.headers, body, origin: 'user' });
      } catch (err) {
        if (err instanceof OutboundTooLarge) {
          throw new RepositoryTooLarge(`The repository is too large: the server sent more than ${limits.maxBytes} bytes`);
        }
        throw err;
      }
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => (headers[name] = value));
      return { url: request.url, method: request.method, headers, body: once(res.body), statusCode: res.status, statusMessage: String(res.status) };
    },
  };
}
