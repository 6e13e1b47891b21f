// The route table compiled once: a request's method and path (under /v1) give its operation and path
// parameters (still percent-encoded: `decodeParams`), or the methods its path does serve (405), or nothing
// (a path no operation has). Matching follows Express's router, which served these routes before: literal
// segments match case-insensitively, one trailing slash is allowed, a parameter is one non-empty segment,
// HEAD is served by GET, and among routes matching the same path the first in the table wins.
import { routes, type OperationId } from '../../generated/router.js';
import { BadRequest } from '../errors.js';

export type RouteLookup =
  | { operationId: OperationId; rawParams: Record<string, string> }
  | { allow: string }
  | undefined;

/** One path of the table with the operation of each method serving it. */
interface PathPattern {
  /** lower-cased literal, or the parameter's name after a ':' */
  segments: string[];
  operations: Map<string, OperationId>;
  allow: string;
}

function splitPath(path: string): string[] | undefined {
  const segments = path.split('/');
  segments.shift(); // the empty string before the leading slash
  if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop(); // one trailing slash
  // No segment at all (an empty path) or an empty one in the middle: no operation has such a path.
  return segments.length === 0 || segments.includes('') ? undefined : segments;
}

/** The parameters percent-decoded, as Express gave them; a malformed escape is a 400 naming the parameter. */
export function decodeParams(rawParams: Record<string, string>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(rawParams)) {
    try {
      params[name] = value.includes('%') ? decodeURIComponent(value) : value;
    } catch {
      throw new BadRequest(`Invalid request: params: ${name}: malformed percent-encoding in the path`);
    }
  }
  return params;
}

/** Compiles the route table; `lookup(method, path)` then costs one map read and the candidates' segment checks. */
export function compileRouteTable() {
  const byPath = new Map<string, PathPattern>();
  for (const route of routes) {
    let pattern = byPath.get(route.path);
    if (!pattern) {
      const segments = route.path.split('/').slice(1).map((s) => (s.startsWith(':') ? s : s.toLowerCase()));
      pattern = { segments, operations: new Map(), allow: '' };
      byPath.set(route.path, pattern);
    }
    const method = route.method.toUpperCase();
    if (!pattern.operations.has(method)) pattern.operations.set(method, route.operationId as OperationId);
  }
  // Candidates by segment count and first segment (every path of the table starts with a literal).
  const candidates = new Map<string, PathPattern[]>();
  for (const pattern of byPath.values()) {
    pattern.allow = [...pattern.operations.keys()].join(', ');
    if (pattern.segments[0].startsWith(':')) throw new Error(`route-table: ${pattern.segments.join('/')} starts with a parameter`);
    const key = `${pattern.segments.length}/${pattern.segments[0]}`;
    candidates.set(key, [...(candidates.get(key) ?? []), pattern]);
  }

  const matches = (pattern: PathPattern, segments: string[]) =>
    pattern.segments.every((s, i) => s.startsWith(':') || s === segments[i] || s === segments[i].toLowerCase());

  return function lookup(method: string, path: string): RouteLookup {
    const segments = splitPath(path);
    if (!segments) return undefined;
    const found = candidates.get(`${segments.length}/${segments[0].toLowerCase()}`)?.filter((p) => matches(p, segments));
    if (!found?.length) return undefined;
    const served = method === 'HEAD' ? 'GET' : method;
    for (const pattern of found) {
      const operationId = pattern.operations.get(served);
      if (!operationId) continue;
      const rawParams: Record<string, string> = {};
      pattern.segments.forEach((s, i) => {
        if (s.startsWith(':')) rawParams[s.slice(1)] = segments[i];
      });
      return { operationId, rawParams };
    }
    return { allow: found[0].allow };
  };
}
