// `content_compute_document` / `content_compute_revision`: an integration's content source computed by its
// script, at once (not a recorded event, as `ui_render`): for getComputedDocument and getComputedRevision with
// a source `integration:<name>:<sourceId>`. The integration must be installed on the space (on it, or on
// every space of its organization) and have declared the source when it was published (`contentSources`).
// The event is GitBook's ContentComputeDocumentEvent / ContentComputeRevisionEvent (`installationId`,
// `spaceId`, `sourceId`, `props`, the resolved `dependencies`), sent with the environment of the installation
// on the space; `@gitbook/runtime` hands it to the source's `compute` (createContentSource's `getPageDocument`
// / `getRevision`), whose answer is `{ document }` or `{ pages, files }`.
//
// Refusals: an integration not installed on the space, or without such a source, is the request's fault (400
// naming `source.type`), and so is a script that refuses (answers 4xx: the props or dependencies it was
// given, naming `source`); a script that fails, answers 5xx or something else than the expected shape is a 503, as a
// component that cannot be rendered (ui-render.store.ts): the answer says when to retry.
import type { SpaceGrant } from '../auth/access.js';
import type { Ctx } from '../context.js';
import { ApiError, BadRequest } from '../errors.js';
import { newId } from '../ids.js';
import { ScriptFailed, scriptResponseBytes, scriptServerOrigin } from '../runtime/script-runtime.js';
import { runSql, sqlText } from '../db/sql-text.js';
import { integrationEndpointPath } from './integration-view.js';
import { resolveDependencies } from './content-compute-dependencies.js';
import { readDocumentAnswer, readRevisionAnswer } from './content-compute-answer.js';
import { dispatchRequest, jsonEventRequest } from './dispatch-protocol.js';
import { loadScriptTarget, sandboxRunner } from './script-invocation.js';

export interface IntegrationSource {
  type: string;
  props: Record<string, unknown>;
  dependencies?: Record<string, { ref: { kind: string } & Record<string, unknown> }>;
}

type Kind = 'document' | 'revision';

/** GitBook's ContentComputeDocumentEvent / ContentComputeRevisionEvent. */
export function contentComputeEvent(kind: Kind, installationId: string, spaceId: string, sourceId: string, props: Record<string, unknown>, dependencies: Record<string, unknown>) {
  return { eventId: newId('evt'), type: `content_compute_${kind}` as const, installationId, spaceId, sourceId, props, dependencies };
}

/** The integration's name and source id of `integration:<name>:<sourceId>`. */
function parseType(type: string): { name: string; sourceId: string } {
  const [, name, sourceId] = type.split(':');
  return { name: name!, sourceId: sourceId! };
}

/**
 * The integration's declared sources and its active installation covering the space (on it, or on every
 * space of its organization), in one statement: no row when no integration has the name.
 */
function sourceRow(ctx: Ctx, name: string, spaceId: string) {
  return runSql(
    ctx.db,
    sqlText`SELECT i.content_sources,
      (SELECT inst.id FROM integration_installations inst JOIN spaces sp ON sp.id = ${spaceId}::text
        WHERE inst.integration_name = i.name AND inst.status = 'active' AND inst.organization_id = sp.organization_id
          AND (inst.space_selection = 'all' OR EXISTS (SELECT 1 FROM integration_space_installations x WHERE x.installation_id = inst.id AND x.space_id = sp.id))
        ORDER BY inst.id LIMIT 1) AS installation_id
    FROM integrations i WHERE i.name = ${name}::text`,
  );
}

/** The installation of the integration on the space, once it declares the source; BadRequest naming `body.source.type` otherwise. */
async function installedSource(ctx: Ctx, grant: SpaceGrant, name: string, sourceId: string): Promise<string> {
  const at = 'body.source.type';
  const [row] = await sourceRow(ctx, name, grant.row.id);
  if (!row) throw new BadRequest(`${at}: no integration is named ${JSON.stringify(name)}`);
  const installationId = row.installation_id as string | null;
  if (!installationId) throw new BadRequest(`${at}: the integration ${JSON.stringify(name)} is not installed on space ${grant.row.id}`);
  const declared = (row.content_sources as { id?: unknown }[]).some((s) => s.id === sourceId);
  if (!declared) throw new BadRequest(`${at}: the integration ${JSON.stringify(name)} declares no content source ${JSON.stringify(sourceId)}`);
  return installationId;
}

type Read<T> = (output: unknown) => { ok: true; value: T } | { ok: false; reason: string };

/** Runs the source's script; its answer as `read` takes it, or the refusal the request gets. */
async function runSource<T>(ctx: Ctx, grant: SpaceGrant, source: IntegrationSource, kind: Kind, read: Read<T>): Promise<T> {
  const { name, sourceId } = parseType(source.type);
  const installationId = await installedSource(ctx, grant, name, sourceId);
  const dependencies = await resolveDependencies(ctx, grant, source.dependencies);
  const target = { installationId, spaceId: grant.row.id };
  const loaded = (await loadScriptTarget(ctx.db, name, target))?.loaded;
  if (!loaded) throw new BadRequest(`body.source.type: the integration ${JSON.stringify(name)} has no script to compute its content sources`);
  const event = contentComputeEvent(kind, installationId, grant.row.id, sourceId, source.props, dependencies);
  const request = loaded.protocol === 'v2' ? dispatchRequest(scriptServerOrigin(), event, loaded.environment!) : jsonEventRequest(`${scriptServerOrigin()}${integrationEndpointPath(name)}`, event);
  const failed = (reason: string) => new ApiError(503, `The integration ${name} could not compute its content source ${sourceId}: ${reason}`, { 'Retry-After': '5' });
  let answer;
  try {
    answer = await sandboxRunner({ key: name, script: loaded.script, scriptHash: loaded.scriptHash, env: loaded.env, request });
  } catch (err) {
    if (!(err instanceof ScriptFailed)) throw err;
    throw failed(`its script failed: ${err.message}`);
  }
  const text = scriptResponseBytes(answer).toString('utf8');
  if (answer.status >= 400 && answer.status < 500) throw new BadRequest(`body.source: the integration ${name} refused to compute ${sourceId} (${answer.status}): ${text.slice(0, 300)}`);
  if (answer.status < 200 || answer.status > 299) throw failed(`its script answered ${answer.status}: ${text.slice(0, 300)}`);
  let output: unknown;
  try {
    output = JSON.parse(text);
  } catch {
    throw failed('its script did not answer JSON');
  }
  const value = read(output);
  if (!value.ok) throw failed(`its script answered ${value.reason}`);
  return value.value;
}

/** The document the integration's source computes. */
export function integrationDocument(ctx: Ctx, grant: SpaceGrant, source: IntegrationSource) {
  return runSource(ctx, grant, source, 'document', readDocumentAnswer);
}

/** The pages and files the integration's source computes, as the script gives them. */
export function integrationRevision(ctx: Ctx, grant: SpaceGrant, source: IntegrationSource) {
  return runSource(ctx, grant, source, 'revision', readRevisionAnswer);
}
