// What an integration answers to an event a site's visitor's request stands for (`fetch_published_script`,
// `fetch_visitor_authentication`): its published script run here, in the protocol it was published with, or,
// in development mode, its tunnel, signed as events are. The routes that serve those requests
// (published-script.route.ts, visitor-auth.route.ts) decide what to pass on of the answer.
import { scriptResponseBytes, scriptServerOrigin, scriptUrls } from '../runtime/script-runtime.js';
import { dispatchRequest, jsonEventRequest } from './dispatch-protocol.js';
import { integrationEndpointPath } from './integration-view.js';
import type { LoadedScript, ScriptRunner } from './script-invocation.js';
import { SIGNING_SECRET_NAME } from './signature.js';
import { sendToTunnel } from './tunnel-forward.js';

export interface EventAnswer {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

/**
 * The answer to `event`: from the tunnel when `toTunnel` (delivery.job.ts `forwardedToTunnel`), else from
 * `loaded`, the installed script. Throws ScriptFailed when the script fails, the tunnel's error when it does.
 */
export async function answerSiteEvent(options: {
  integration: { name: string; devTunnelUrl: string | null };
  loaded: LoadedScript | undefined;
  toTunnel: boolean;
  runner: ScriptRunner;
  event: { eventId: string; type: string } & Record<string, unknown>;
  now: Date;
}): Promise<EventAnswer> {
  const { integration, loaded, event } = options;
  const request = loaded?.protocol === 'v2'
    ? dispatchRequest(scriptServerOrigin(), event, loaded.environment!)
    : jsonEventRequest(scriptUrls().root(integrationEndpointPath(integration.name)), event);
  if (options.toTunnel) {
    const got = await sendToTunnel({
      tunnelUrl: integration.devTunnelUrl!,
      below: '',
      method: request.method,
      headers: request.headers,
      body: scriptResponseBytes(request),
      eventId: event.eventId,
      signingSecret: loaded?.secrets[SIGNING_SECRET_NAME],
      now: options.now,
    });
    // The body arrives decoded, so its encoding is no longer what the tunnel said.
    return { status: got.status, headers: [...got.headers].filter(([key]) => key.toLowerCase() !== 'content-encoding'), body: got.body };
  }
  const ran = await options.runner({ key: integration.name, script: loaded!.script, scriptHash: loaded!.scriptHash, env: loaded!.env, request });
  return { status: ran.status, headers: ran.headers, body: scriptResponseBytes(ran) };
}
