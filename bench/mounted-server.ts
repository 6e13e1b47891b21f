// The project's API mounted in a host's own Express app, for `npx tsx bench/http.ts --mounted`: the
// package's createDocsApi() (the environment as `npm start` reads it) and its `handler` under /v1 of a
// plain Express 5 app with a route of its own before it, so that GET /v1/spaces/{id} goes through the
// host's router first, as it would in a real host.
import express from 'express';
import { createDocsApi } from '../server/index.js';

const docsApi = createDocsApi();
await docsApi.start();
const app = express();
app.disable('x-powered-by');
app.get('/host/status', (_req, res) => {
  res.json({ ok: true });
});
app.use('/v1', docsApi.handler);
const server = app.listen(docsApi.config.port, docsApi.config.host, () => docsApi.logger.info({ port: docsApi.config.port }, 'listening'));
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void docsApi.stop().then(() => process.exit(0));
});
