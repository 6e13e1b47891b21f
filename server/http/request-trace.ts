// What the API's request pipeline tells a tracer (server/telemetry/, loaded only when traces are
// configured): one call per request it serves, naming the operation when the route is known. Without a
// tracer the pipeline checks one field per request.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The operation a request reached: its id and its path template under the API's base (`/spaces/{spaceId}`). */
export interface TracedRoute {
  operationId: string;
  template: string;
}

export interface RequestTracer {
  /**
   * Runs `serve` (the request's whole work) inside the request's span, which ends when the response is
   * finished or the connection closed. `route` is undefined for a path of the API with a method it does
   * not take (405).
   */
  serve(req: IncomingMessage, res: ServerResponse, route: TracedRoute | undefined, serve: () => void): void;
}
