// `ui_render`: an integration's ContentKit component rendered by its script, at once (not a recorded event):
// for an `integration` block of a published page (server/published/integration-blocks.ts) and for
// renderIntegrationUIWithPost (ui-render.store.ts). The event is GitBook's UIRenderEvent: `componentId`,
// `props`, `state`, `context` (a document, or a configuration screen), `action`, with the environment of the
// installation concerned (its space or site installation when the context names one); `@gitbook/runtime`
// hands it to the component's `render`, whose answer is a ContentKitRenderOutput (`{ type: 'element',
// element, state, props }`, or `{ type: 'complete' }`) with the cache it asked for (`Cache-Control`).
// The event carries the installation only (the space or site is in `context`): GitBook's schema makes an event
// with both an installation and a space match two of its `oneOf` branches.
import { newId } from '../ids.js';
import type { Db } from '../db/client.js';
import { ScriptFailed, scriptResponseBytes, scriptServerOrigin } from '../runtime/script-runtime.js';
import { dispatchRequest, jsonEventRequest } from './dispatch-protocol.js';
import { integrationEndpointPath } from './integration-view.js';
import { loadScriptTarget, sandboxRunner, type ScriptRunner, type ScriptTarget } from './script-invocation.js';

export interface UiRenderInput {
  componentId: string;
  props: Record<string, unknown>;
  state?: Record<string, unknown>;
  context: Record<string, unknown>;
  action?: Record<string, unknown>;
  /** The user the UI is rendered for, when there is one (GitBook's `auth.userId`). */
  userId?: string;
}

export type UiRenderResult =
  | {
      ok: true;
      output: { type: 'element'; element: { type: string } & Record<string, unknown>; state: Record<string, unknown>; props: Record<string, unknown> } | { type: 'complete'; returnValue?: Record<string, unknown> };
      cacheControl?: string;
    }
  | { ok: false; status: number; reason: string };

/** The UIRenderEvent of `input` for the installation of `target`. */
export function uiRenderEvent(installationId: string, input: UiRenderInput) {
  return {
    eventId: newId('evt'),
    type: 'ui_render' as const,
    installationId,
    componentId: input.componentId,
    props: input.props,
    ...(input.state && { state: input.state }),
    context: input.context,
    ...(input.action && { action: input.action }),
    ...(input.userId && { auth: { userId: input.userId } }),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Runs the integration's component for `target` (an installation, with the space or site concerned); `preread`: its script's row, read already (scriptTargetAttached). */
export async function renderComponent(
  db: Db,
  name: string,
  target: ScriptTarget & { installationId: string },
  input: UiRenderInput,
  runner: ScriptRunner = sandboxRunner,
  preread?: Parameters<typeof loadScriptTarget>[3],
): Promise<UiRenderResult> {
  const read = await loadScriptTarget(db, name, target, preread);
  if (!read?.exists) return { ok: false, status: 404, reason: `The integration ${name} is not installed there` };
  const loaded = read.loaded;
  if (!loaded) return { ok: false, status: 404, reason: `The integration ${name} has no script to render its components` };
  const event = uiRenderEvent(target.installationId, input);
  const request = loaded.protocol === 'v2' ? dispatchRequest(scriptServerOrigin(), event, loaded.environment!) : jsonEventRequest(`${scriptServerOrigin()}${integrationEndpointPath(name)}`, event);
  let answer;
  try {
    answer = await runner({ key: name, script: loaded.script, scriptHash: loaded.scriptHash, env: loaded.env, request });
  } catch (err) {
    if (!(err instanceof ScriptFailed)) throw err;
    return { ok: false, status: 502, reason: `The integration's script failed: ${err.message}` };
  }
  const text = scriptResponseBytes(answer).toString('utf8');
  if (answer.status < 200 || answer.status > 299) {
    return { ok: false, status: answer.status, reason: `The integration's script answered ${answer.status}: ${text.slice(0, 300)}` };
  }
  let output: unknown;
  try {
    output = JSON.parse(text);
  } catch {
    return { ok: false, status: 502, reason: 'The integration\'s script did not answer JSON' };
  }
  const cacheControl = answer.headers.find(([key]) => key.toLowerCase() === 'cache-control')?.[1];
  if (isObject(output) && output.type === 'complete') return { ok: true, output: { type: 'complete', ...(isObject(output.returnValue) && { returnValue: output.returnValue }) }, ...(cacheControl && { cacheControl }) };
  // `type` may be left out by older runtimes: an answer with an element is one.
  if (isObject(output) && isObject(output.element) && typeof output.element.type === 'string' && (output.type === undefined || output.type === 'element')) {
    return {
      ok: true,
      output: { type: 'element', element: output.element as { type: string } & Record<string, unknown>, state: isObject(output.state) ? output.state : {}, props: isObject(output.props) ? output.props : {} },
      ...(cacheControl && { cacheControl }),
    };
  }
  return { ok: false, status: 502, reason: 'The integration\'s script did not answer a ContentKit render output' };
}
