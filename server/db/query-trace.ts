// What the storages tell a tracer about each statement they send, at their driver boundary: node-postgres
// clients (client.ts), the PGlite thread (pglite-thread.ts) and PGlite on the server's thread
// (pglite-traced.ts). The tracer itself (server/telemetry/) is
// loaded only when traces are configured; without one, a storage checks one field per statement.

/** Called when a statement is answered, with its error if it failed. */
export type QueryEnd = (err?: unknown) => void;

export interface QueryTracer {
  /**
   * A statement is being sent: its SQL text (parameters as `$1…`, never their values) and, for a prepared
   * statement, its name. Returns what to call once it is answered, or undefined when it is not traced.
   */
  start(text: string, name?: string): QueryEnd | undefined;
  /** Whether a statement sent now would be traced (inside a sampled request): lets a storage skip even
   * describing the statement to `start` when it would not be. */
  tracing(): boolean;
}
