// `urls.app` names where a person opens a resource in the web app, which this server does not serve. With
// no APP_URL set those URLs fall under this server's `/app`, and answer this page instead of a 404: what the
// address is, and which setting points it at the real app.
import type { RequestHandler } from 'express';
import { escapeHtml } from './page-html.js';

export function webAppNotice(): RequestHandler {
  return (req, res) => {
    res
      .status(200)
      .type('html')
      .set('Cache-Control', 'no-cache')
      .set('X-Robots-Tag', 'noindex')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Web app</title>
<style>body{font:16px/1.6 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem}</style></head>
<body><h1>This is an address of the web app</h1><p><code>${escapeHtml(req.originalUrl)}</code> opens this resource in the documentation web app, which this API server does not serve.
The server's operator sets <code>APP_URL</code> to where the web app runs; the API itself is under <a href="/docs">/docs</a>.</p></body></html>`,
      );
  };
}
