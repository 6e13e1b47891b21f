// The mock's public face, the same for every mode: one HTTP server on the mock's port that logs every
// request with its status, serves the reference docs, and forwards each API request to the real server
// and/or Prism. With both (hybrid), the server answers first and a 501 (an operation whose handler does
// not exist yet) is asked again of Prism, which answers from the contract.
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { publishedDocument, referenceDocs } from '../server/http/reference-docs.js';
import { forward, reply, type Answer } from './proxy.js';
import { describeViolations, violationErrorBody } from './violations.js';

export interface FrontOptions {
  /** The mock's own base (without /v1): what the reference's "try it" calls. */
  publicUrl: string;
  /** The real server (it serves /v1 and the docs itself). */
  server?: URL;
  /** Prism, serving the spec's paths at its root (no /v1). */
  prism?: URL;
  /** Where the request lines go; default stdout. */
  log?: (line: string) => void;
}

export function frontApp({ publicUrl, server, prism, log = (line) => console.log(line) }: FrontOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestLine(log));
  // The real server serves the docs itself; in the Prism modes the front does, from the same module.
  if (!server) app.use(referenceDocs({ publicUrl }), express.Router().use('/v1', publishedDocument()));
  app.use(express.raw({ type: () => true, limit: '64mb' }));
  app.use(async (req: Request, res: Response) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const url = req.originalUrl;
    const isApi = url.startsWith('/v1/') || url === '/v1';
    if (server) {
      const answer = await forward(server, req.method, url, req.headers, body);
      if (answer.status !== 501 || !prism || !isApi) {
        res.locals.answeredBy = 'server';
        return reply(res, answer);
      }
    }
    if (!prism || !isApi) {
      res.status(404).json({ error: { code: 404, message: `No operation at ${req.method} ${url}: paths start with /v1` } });
      return;
    }
    res.locals.answeredBy = 'prism';
    reply(res, explainViolations(await forward(prism, req.method, url.replace(/^\/v1/, '') || '/', req.headers, body), res));
  });
  app.use((err: Error & { status?: number }, _req: Request, res: Response, _next: NextFunction) => {
    const status = err.status && err.status < 500 ? err.status : 502;
    res.status(status).json({ error: { code: status, message: status === 502 ? `Mock backend unavailable: ${err.message}` : err.message } });
  });
  return app;
}

/** A Prism refusal carries the real reasons in its body's message (Prism's own body is the example's). */
function explainViolations(answer: Answer, res: Response): Answer {
  const header = answer.headers['sl-violations'];
  const violations = describeViolations(Array.isArray(header) ? header[0] : header);
  if (!violations) return answer;
  res.locals.violations = violations;
  if (answer.status < 400) return answer;
  return { ...answer, headers: { ...answer.headers, 'content-type': 'application/json' }, body: Buffer.from(violationErrorBody(answer.status, violations)) };
}

/** One line per request: method, path, status, time, who answered, and Prism's violations in words. */
function requestLine(log: (line: string) => void) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    res.on('finish', () => {
      const by = res.locals.answeredBy ? ` (${res.locals.answeredBy})` : '';
      const violations = res.locals.violations ? ` — ${res.locals.violations}` : '';
      // The path only, as the server's own request log: a query may carry what should not sit in logs.
      log(`${req.method} ${req.originalUrl.split('?')[0]} ${res.statusCode} ${Math.round(performance.now() - started)} ms${by}${violations}`);
    });
    next();
  };
}
