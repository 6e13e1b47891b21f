// 405 for a known path asked with a method it does not serve, with the `Allow` header listing those it does.
import type { RequestHandler } from 'express';
import { routes } from '../../generated/router.js';
import { errorBody } from './errors.js';

/** The route table's paths as patterns, each with the methods it serves. */
function pathPatterns() {
  const byPath = new Map<string, Set<string>>();
  for (const route of routes) {
    const methods = byPath.get(route.path) ?? new Set<string>();
    methods.add(route.method.toUpperCase());
    byPath.set(route.path, methods);
  }
  return [...byPath].map(([path, methods]) => ({
    pattern: new RegExp(`^${path.replace(/:\w+/g, '[^/]+')}/?$`),
    allow: [...methods].join(', '),
  }));
}

/** Answers 405 for a known path (under the router's mount point) and passes anything else on. */
export function methodNotAllowed(): RequestHandler {
  const patterns = pathPatterns();
  return (req, res, next) => {
    const known = patterns.find((p) => p.pattern.test(req.path));
    if (!known) return next();
    res.setHeader('Allow', known.allow);
    res.status(405).json(errorBody(405, `${req.method} is not allowed on ${req.path}; allowed: ${known.allow}`));
  };
}
