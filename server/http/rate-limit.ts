// Authentication with rate limiting (server/operating/rate-limit.ts), in front of every /v1 request.
// A request with a valid token counts against its token; one without (missing or invalid token) against its
// address (the connection's peer, or with TRUST_PROXY the client's as the trusted proxies forwarded it:
// server/http/proxy-trust.ts). Every answer carries X-RateLimit-Limit,
// X-RateLimit-Remaining and X-RateLimit-Reset (epoch seconds); a request over the limit is answered 429 with
// the error body and Retry-After, before any query of its own.
import { clientAddress } from './proxy-trust.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Authenticator } from '../auth/authenticate.js';
import type { Caller } from '../context.js';
import { ApiError, Unauthorized } from '../errors.js';
import type { RateLimiter, RateLimitState } from '../operating/rate-limit.js';

export const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

function apply(res: ServerResponse, state: RateLimitState, onRefused?: () => void): void {
  res.setHeader('X-RateLimit-Limit', String(state.limit));
  res.setHeader('X-RateLimit-Remaining', String(state.remaining));
  res.setHeader('X-RateLimit-Reset', String(state.reset));
  if (state.limited) {
    onRefused?.();
    res.setHeader('Retry-After', String(state.retryAfter));
    throw new ApiError(429, `Too many requests: at most ${state.limit} a minute; retry after ${state.retryAfter} s`);
  }
}

/**
 * Authenticates a request, counting it against `limiter` when one is given (without one, authentication
 * only, and no rate-limit headers): the caller, or a thrown 401 or 429.
 */
export function authenticateRequests(authenticate: Authenticator, limiter: RateLimiter | undefined, onRefused?: () => void) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<Caller> => {
    if (!limiter) return authenticate(req.headers.authorization);
    let caller;
    try {
      caller = await authenticate(req.headers.authorization);
    } catch (err) {
      // Counted against the address, then answered 401 (or 429 once the address is over its limit).
      if (err instanceof Unauthorized) apply(res, limiter.hit(`address:${clientAddress(req)}`), onRefused);
      throw err;
    }
    // The authenticator accepted the header, so it holds the token.
    const token = /^Bearer\s+(\S+)/i.exec(req.headers.authorization!)![1];
    apply(res, limiter.hit(`token:${token}`), onRefused);
    return caller;
  };
}
