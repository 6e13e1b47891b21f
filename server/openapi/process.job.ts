// Background processing of an OpenAPI specification: fetch the source URL (deadline and size cap), parse
// and validate the document, store a new version, and record the outcome on the specification.
import { and, eq } from 'drizzle-orm';
import { openAPISpecs, openAPISpecVersions } from '../db/schema/index.js';
import { newId } from '../ids.js';
import type { EnqueueInput } from '../jobs/queue.js';
import type { JobHandler } from '../jobs/runner.js';
import { fetchText, OutboundTimeout, type OutboundLimits } from '../http/outbound.js';
import { fileNameOf, parseOpenAPI } from './parse.js';
import { newestFirstKey } from './spec-view.js';

export const PROCESS_OPENAPI_SPEC = 'process-openapi-spec';

/** Default limits of a source fetch: 10 s, and the 5 MiB a text source may have. */
export const defaultSpecFetchLimits: OutboundLimits = { timeoutMs: 10_000, maxBytes: 5 * 1024 * 1024 };

/** The job processing revision `revision` of a specification's source. */
export function processOpenAPISpecJob(specId: string, revision: string): EnqueueInput {
  // No uniqueKey: a job for an older revision may still be running; it records nothing (see below).
  return { kind: PROCESS_OPENAPI_SPEC, payload: { specId, revision }, maxAttempts: 3 };
}

type Outcome =
  | { ok: true; files: Record<string, unknown> }
  | { ok: false; code: 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR'; errors: { message: string; code?: string }[] };

async function produce(sourceUrl: string | null, sourceText: string | null, limits: OutboundLimits): Promise<Outcome> {
  let text: string;
  if (sourceUrl !== null) {
    try {
      // A user-given URL: public addresses only (server/http/outbound.ts).
      text = await fetchText(sourceUrl, limits, { headers: { accept: 'application/json, application/yaml, text/yaml, */*' }, origin: 'user' });
    } catch (err) {
      const code = err instanceof OutboundTimeout ? 'FETCH_TIMEOUT' : 'FETCH_ERROR';
      return { ok: false, code, errors: [{ message: (err as Error).message, code }] };
    }
  } else {
    text = sourceText ?? '';
  }
  const parsed = await parseOpenAPI(text);
  if (!parsed.ok) return { ok: false, code: 'PARSE_ERROR', errors: parsed.errors };
  return { ok: true, files: { [fileNameOf(sourceUrl, text)]: parsed.document } };
}

/** The handler, with fetch limits (tests shorten the deadline). */
export function processOpenAPISpecHandler(limits: OutboundLimits = defaultSpecFetchLimits): JobHandler {
  return async (payload, ctx) => {
    const { specId, revision } = payload as { specId: string; revision: string };
    const current = and(eq(openAPISpecs.id, specId), eq(openAPISpecs.sourceRevision, revision));
    const [spec] = await ctx.db.update(openAPISpecs).set({ processingState: 'progress' }).where(current).returning();
    // Deleted, or its source replaced since: the job of the newer revision does the work.
    if (!spec) return;
    const outcome = await produce(spec.sourceUrl, spec.sourceText, limits);
    await ctx.db.transaction(async (tx) => {
      // Lock the specification and check the revision again: a PUT during the fetch wins.
      const [locked] = await tx.select({ id: openAPISpecs.id }).from(openAPISpecs).where(current).for('update');
      if (!locked) return;
      const now = ctx.now();
      if (!outcome.ok) {
        await tx
          .update(openAPISpecs)
          .set({ processingState: 'complete', lastProcessedAt: now, lastProcessErrorCode: outcome.code, lastProcessedErrors: outcome.errors })
          .where(current);
        return;
      }
      const versionId = newId('ver', now.getTime());
      await tx.insert(openAPISpecVersions).values({ id: versionId, specId, filesystem: outcome.files, sourceUrl: spec.sourceUrl, newestFirst: newestFirstKey(versionId), createdAt: now });
      await tx
        .update(openAPISpecs)
        .set({ processingState: 'complete', lastProcessedAt: now, lastVersionId: versionId, lastProcessErrorCode: null, lastProcessedErrors: null, updatedAt: now })
        .where(current);
    });
    ctx.log.info({ specId, ok: outcome.ok }, 'processed OpenAPI specification');
  };
}
