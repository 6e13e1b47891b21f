// One listening server per app, for the requests `send` (api.ts) makes in a test file. Given the app itself,
// supertest makes a server, listens on a new port and closes it again for every request: in the fuzz test
// that was 5 % of the worker's CPU. The server listens as supertest's does (port 0, every address), so the
// app sees the same connections. setup-file.ts closes them when the file ends.
import { createServer, type Server } from 'node:http';
import type { App } from '../../server/app.js';

const listening = new Map<App, Server>();

/** The app's server, listening (again, when something closed it). */
export function serverOf(app: App): Server {
  let server = listening.get(app);
  if (!server?.listening) {
    server = createServer(app).listen(0);
    // As supertest's own: it never keeps the worker alive.
    server.unref();
    listening.set(app, server);
  }
  return server;
}

/** Closes the servers of the file's apps: each keeps its app, and the database it holds, alive while it listens. */
export function closeListeningServers(): void {
  for (const server of listening.values()) {
    server.closeAllConnections();
    server.close();
  }
  listening.clear();
}
