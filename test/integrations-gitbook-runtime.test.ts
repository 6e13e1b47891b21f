// Integrations built with GitBook's runtime (@gitbook/runtime's createIntegration), bundled as @gitbook/cli
// bundles them, published with `runtime: v2` and a component configuration: they receive events and
// requests in GitBook's dispatch protocol, read their settings from the IntegrationEnvironment, and call
// this API back with the installation token it holds.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../server/db/schema/index.js';
import { deliverIntegrationEvent, DELIVER_INTEGRATION_EVENT } from '../server/integrations/delivery.job.js';
import { verifySignature } from '../server/integrations/signature.js';
import { createJobRunner } from '../server/jobs/runner.js';
import { setScriptUrls } from '../server/runtime/script-runtime.js';
import { createUrls } from '../server/urls.js';
import { bundleIntegration } from './support/gitbook-bundle.js';
import { useHarness, type Account } from './support/harness.js';
import { publishAs } from './support/matrix/integrations.js';
import { open, publish, spaceWithPages } from './published-support.js';
import { newSite } from './sites-support.js';

const h = useHarness();
const PUBLIC_URL = 'https://api.test.example';
let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++n}`;

/** Runs delivery jobs until none is queued or running. */
async function deliverAll() {
  const runner = createJobRunner({ db: h.current.db, logger: pino({ level: 'silent' }), handlers: { [DELIVER_INTEGRATION_EVENT]: deliverIntegrationEvent }, backoff: { baseMs: 5 } });
  for (let i = 0; i < 400; i++) {
    await runner.drain();
    const left = await h.current.db.select({ status: jobs.status }).from(jobs).where(eq(jobs.kind, DELIVER_INTEGRATION_EVENT));
    if (!left.some((j) => j.status === 'queued' || j.status === 'running')) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('deliveries did not finish');
}

interface Received {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver: records what it is sent. */
async function startReceiver() {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ url: req.url ?? '', headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, received, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

// The space integration: on a content update, it reads the space through the API (its installation's
// token), and posts a webhook signed with an HMAC made by crypto.subtle, to the URL and with the secret of
// its space installation's configuration. Its public endpoint answers with what it was sent.
const spaceIntegration = `
import { createIntegration } from '@gitbook/runtime';

async function hmacHex(secret: string, body: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const signature = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(body));
  return [...new Uint8Array(signature)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export default createIntegration({
  events: {
    space_content_updated: async (event, context) => {
      const { webhookUrl, secret } = context.environment.spaceInstallation!.configuration as { webhookUrl: string; secret: string };
      const { data: space } = await context.api.spaces.getSpaceById(event.spaceId);
      const body = JSON.stringify({ space: space.id, title: space.title, revision: event.revisionId, integration: context.environment.integration.name });
      console.log('notifying', webhookUrl);
      const answer = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': await hmacHex(secret, body) }, body });
      if (!answer.ok) throw new Error('the webhook answered ' + answer.status);
    },
  },
  fetch: async (request, context) => {
    const url = new URL(request.url);
    return Response.json({
      method: request.method,
      path: url.pathname,
      query: url.searchParams.get('q'),
      body: request.method === 'GET' ? null : await request.text(),
      configuration: context.environment.spaceInstallation?.configuration ?? null,
      installation: context.environment.installation?.id ?? null,
      hasToken: typeof context.environment.apiTokens.installation === 'string',
    });
  },
});
`;

describe('integrations built with @gitbook/runtime', () => {
  let server: Server;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let owner: Account;
  let spaceScript: string;
  beforeAll(async () => {
    // The script calls the API back over the network: the app listens, and is the API it is told about.
    server = h.current.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    setScriptUrls(createUrls(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
    receiver = await startReceiver();
    owner = await h.current.newAdmin();
    spaceScript = await bundleIntegration(spaceIntegration);
  });
  afterAll(async () => {
    setScriptUrls(createUrls(PUBLIC_URL));
    await new Promise((resolve) => server.close(resolve));
    await new Promise((resolve) => receiver.server.close(resolve));
  });

  /** Publishes the space integration with runtime v2 and a component configuration, installed and configured on a new space. */
  async function installedOnSpace(scopes = ['space:metadata:read', 'space:content:read'], secrets: Record<string, string> = {}) {
    const name = unique('gb-space');
    await publishAs(owner, name, { runtime: 'v2', script: spaceScript, scopes, secrets, configurations: { space: { componentId: 'configure' } } });
    const installation = await owner.api.post(`/integrations/${name}/installations`, { organization: owner.organizationId });
    expect(installation.status).toBe(200);
    const space = await owner.api.post(`/orgs/${owner.organizationId}/spaces`, { title: 'Runtime docs' });
    expect(space.status).toBe(201);
    const onSpace = await owner.api.post(`/integrations/${name}/installations/${installation.body.id}/spaces`, { space: space.body.id });
    expect(onSpace.status).toBe(201);
    const configured = await owner.api.patch(`/integrations/${name}/installations/${installation.body.id}/spaces/${space.body.id}`, {
      configuration: { webhookUrl: `${receiver.url}/hook/${name}`, secret: `secret-of-${name}` },
    });
    expect(configured.status).toBe(200);
    return { name, installationId: installation.body.id as string, space: space.body as { id: string; title: string }, endpoint: new URL(onSpace.body.urls.publicEndpoint).pathname };
  }

  async function mergeAPage(spaceId: string) {
    const cr = await owner.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'Add a page' });
    expect(cr.status).toBe(201);
    const edit = await owner.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/content?compat=false`, {
      changes: [{ operation: 'insert_page', document: { markdown: '# Hello' } }],
    });
    expect(edit.status).toBe(200);
    const merged = await owner.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/merge`);
    expect(merged.status).toBe(200);
    return merged.body.revision as string;
  }

  async function eventsOf(name: string) {
    const res = await owner.api.get(`/integrations/${name}/events`);
    expect(res.status).toBe(200);
    return res.body.items as { id: string; status: string; payload: { type: string } }[];
  }

  it('delivers a content update to the script, which calls the API back and signs a webhook with crypto.subtle', async () => {
    const s = await installedOnSpace();
    const revision = await mergeAPage(s.space.id);
    await deliverAll();

    const hooks = receiver.received.filter((r) => r.url === `/hook/${s.name}`);
    expect(hooks).toHaveLength(1);
    const [hook] = hooks;
    expect(JSON.parse(hook.body)).toEqual({ space: s.space.id, title: 'Runtime docs', revision, integration: s.name });
    const expected = createHmac('sha256', `secret-of-${s.name}`).update(hook.body).digest('hex');
    expect(hook.headers['x-signature']).toBe(expected);

    const events = await eventsOf(s.name);
    const update = events.find((e) => e.payload.type === 'space_content_updated')!;
    expect(update.status).toBe('success');
    const trace = await owner.api.get(`/integrations/${s.name}/events/${update.id}`);
    expect(trace.status).toBe(200);
    const messages = trace.body.trace.logs.map((l: { message: string }) => l.message);
    expect(messages).toContain(`notifying ${receiver.url}/hook/${s.name}`);
    expect(messages.some((m: string) => m.includes('handling GitBook-generated event space_content_updated'))).toBe(true);

    // Events the integration has no handler for are refused by the runtime (406): failed at once, and why.
    const setup = events.find((e) => e.payload.type === 'installation_setup')!;
    expect(setup.status).toBe('failed');
    const why = await owner.api.get(`/integrations/${s.name}/events/${setup.id}`);
    const failures = why.body.trace.logs.filter((l: { level: string; message: string }) => l.level === 'error' && l.message.startsWith('Delivery attempt'));
    expect(failures).toHaveLength(1);
    expect(failures[0].message).toContain('the script answered 406');
    expect(failures[0].message).toContain('Integration does not handle \\"installation_setup\\" events');
    expect(failures[0].message).toContain('not attempted again');
  });

  it('fails the content update, with the reason, when the API refuses the call outside the scopes', async () => {
    const s = await installedOnSpace(['space:content:read']);
    await mergeAPage(s.space.id);
    await deliverAll();
    const update = (await eventsOf(s.name)).find((e) => e.payload.type === 'space_content_updated')!;
    expect(update.status).toBe('failed');
    const trace = await owner.api.get(`/integrations/${s.name}/events/${update.id}`);
    const text = trace.body.trace.logs.map((l: { message: string }) => l.message).join('\n');
    expect(text).toContain('space:metadata:read');
    expect(text).toContain('the script answered 500');
    expect(receiver.received.filter((r) => r.url === `/hook/${s.name}`)).toHaveLength(0);
  });

  it('hands a request to a public endpoint to the runtime as a fetch event with the environment', async () => {
    const s = await installedOnSpace();
    const res = await request(h.current.app).post(`${s.endpoint}/echo?q=7`).set('content-type', 'text/plain').send('ping');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      method: 'POST',
      path: `${s.endpoint}/echo`,
      query: '7',
      body: 'ping',
      configuration: { webhookUrl: `${receiver.url}/hook/${s.name}`, secret: `secret-of-${s.name}` },
      installation: s.installationId,
      hasToken: true,
    });
    const get = await request(h.current.app).get(s.endpoint);
    expect(get.status).toBe(200);
    expect(get.body).toMatchObject({ method: 'GET', body: null });
  });

  it('an installation on every space (space_selection: all) gets each space\'s events and requests, configured once; a space\'s own installation wins; other organizations\' spaces are not covered', async () => {
    const name = unique('gb-all-spaces');
    await publishAs(owner, name, { runtime: 'v2', script: spaceScript, scopes: ['space:metadata:read', 'space:content:read'], configurations: { space: { componentId: 'configure' } } });
    const installation = await owner.api.post(`/integrations/${name}/installations`, { organization: owner.organizationId });
    expect(installation.status).toBe(200);
    const installationId = installation.body.id as string;
    const settings = { webhookUrl: `${receiver.url}/hook/${name}`, secret: `secret-of-${name}` };
    const everySpace = await owner.api.patch(`/integrations/${name}/installations/${installationId}`, { space_selection: 'all', configuration: settings });
    expect(everySpace.status).toBe(200);
    expect(everySpace.body).toMatchObject({ space_selection: 'all', configuration: settings });

    // A space without an installation of its own, and one with its own (configured otherwise).
    const covered = await owner.api.post(`/orgs/${owner.organizationId}/spaces`, { title: 'Covered docs' });
    expect(covered.status).toBe(201);
    const own = await owner.api.post(`/orgs/${owner.organizationId}/spaces`, { title: 'Own docs' });
    expect(own.status).toBe(201);
    expect((await owner.api.post(`/integrations/${name}/installations/${installationId}/spaces`, { space: own.body.id })).status).toBe(201);
    const ownSettings = { webhookUrl: `${receiver.url}/hook/${name}-own`, secret: `own-secret-of-${name}` };
    expect((await owner.api.patch(`/integrations/${name}/installations/${installationId}/spaces/${own.body.id}`, { configuration: ownSettings })).status).toBe(200);

    // Events: the covered space's reaches the script with the installation's configuration, and the script
    // reads that space back with its installation token; the space with its own installation uses its own.
    const coveredRevision = await mergeAPage(covered.body.id);
    const ownRevision = await mergeAPage(own.body.id);
    // Another organization's space: never this installation's.
    const stranger = await h.current.newAdmin();
    const foreign = await stranger.api.post(`/orgs/${stranger.organizationId}/spaces`, { title: 'Elsewhere' });
    expect(foreign.status).toBe(201);
    await deliverAll();

    const hooks = receiver.received.filter((r) => r.url === `/hook/${name}`);
    expect(hooks).toHaveLength(1);
    expect(JSON.parse(hooks[0].body)).toEqual({ space: covered.body.id, title: 'Covered docs', revision: coveredRevision, integration: name });
    expect(hooks[0].headers['x-signature']).toBe(createHmac('sha256', settings.secret).update(hooks[0].body).digest('hex'));
    const ownHooks = receiver.received.filter((r) => r.url === `/hook/${name}-own`);
    expect(ownHooks).toHaveLength(1);
    expect(JSON.parse(ownHooks[0].body)).toEqual({ space: own.body.id, title: 'Own docs', revision: ownRevision, integration: name });
    expect(ownHooks[0].headers['x-signature']).toBe(createHmac('sha256', ownSettings.secret).update(ownHooks[0].body).digest('hex'));
    const updates = (await eventsOf(name)).filter((e) => e.payload.type === 'space_content_updated');
    expect(updates).toHaveLength(2);
    expect(updates.every((e) => e.status === 'success')).toBe(true);

    // The space-scoped public endpoint answers for each space of the organization.
    const endpoint = (spaceId: string) => `/integrations/${name}/installations/${installationId}/spaces/${spaceId}/integration`;
    const onCovered = await request(h.current.app).get(`${endpoint(covered.body.id)}/x`);
    expect(onCovered.status).toBe(200);
    expect(onCovered.body).toMatchObject({ configuration: settings, installation: installationId, hasToken: true });
    const onOwn = await request(h.current.app).get(endpoint(own.body.id));
    expect(onOwn.status).toBe(200);
    expect(onOwn.body).toMatchObject({ configuration: ownSettings, installation: installationId });
    expect((await request(h.current.app).get(endpoint(foreign.body.id))).status).toBe(404);
    expect((await request(h.current.app).get(endpoint('no-such-space'))).status).toBe(404);

    // The installation token acts on a covered space, and not on another organization's.
    const token = await owner.api.post(`/integrations/${name}/installations/${installationId}/tokens`);
    expect(token.status).toBe(200);
    const asInstallation = (path: string) => request(h.current.app).get(`/v1${path}`).set('authorization', `Bearer ${token.body.token}`);
    const read = await asInstallation(`/spaces/${covered.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.title).toBe('Covered docs');
    expect((await asInstallation(`/spaces/${foreign.body.id}`)).status).toBe(404);

    // Back to the selected spaces: the covered space is no longer the installation's; its own space still is.
    expect((await owner.api.patch(`/integrations/${name}/installations/${installationId}`, { space_selection: 'selected' })).status).toBe(200);
    expect((await request(h.current.app).get(endpoint(covered.body.id))).status).toBe(404);
    expect((await request(h.current.app).get(endpoint(own.body.id))).status).toBe(200);
    expect((await asInstallation(`/spaces/${covered.body.id}`)).status).toBe(403);
  });

  it('development mode: the tunnel receives what the script would, signed; DELETE /dev hands events back to the script', async () => {
    const got: { url: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];
    const tunnel = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(200, { 'content-type': 'text/plain' }).end('from the tunnel');
      });
    });
    await new Promise<void>((resolve) => tunnel.listen(0, '127.0.0.1', resolve));
    const tunnelUrl = `http://127.0.0.1:${(tunnel.address() as AddressInfo).port}/dev`;
    /** The form a tunnel got, read as @gitbook/runtime reads it. */
    const formOf = async (i: number) => {
      const form = await new Request('http://tunnel.invalid/', { method: 'POST', headers: { 'content-type': String(got[i].headers['content-type']) }, body: new Uint8Array(got[i].body) }).formData();
      return { event: JSON.parse(String(form.get('event'))), environment: JSON.parse(String(form.get('environment'))), fetchBody: form.get('fetch-body') };
    };
    try {
      const s = await installedOnSpace(undefined, { SIGNING_SECRET: 'dev-secret' });
      await deliverAll(); // the installation events, to the script
      expect((await owner.api.put(`/integrations/${s.name}/dev`, { tunnelUrl })).status).toBe(204);

      const revision = await mergeAPage(s.space.id);
      await deliverAll();
      expect(got).toHaveLength(1);
      expect(got[0].url).toBe('/dev');
      const { event, environment } = await formOf(0);
      expect(event).toMatchObject({ type: 'space_content_updated', spaceId: s.space.id, revisionId: revision, installationId: s.installationId });
      expect(got[0].headers['x-integration-event-id']).toBe(event.eventId);
      expect(environment.integration.name).toBe(s.name);
      expect(environment.installation.id).toBe(s.installationId);
      expect(environment.spaceInstallation).toMatchObject({ space: s.space.id, configuration: { secret: `secret-of-${s.name}` } });
      expect(environment.secrets).toEqual({ SIGNING_SECRET: 'dev-secret' });
      expect(typeof environment.apiTokens.installation).toBe('string');
      expect(environment.apiEndpoint).toBe(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      expect(verifySignature('dev-secret', got[0].body, String(got[0].headers['x-integration-signature']), new Date())).toBe(true);
      expect(receiver.received.filter((r) => r.url === `/hook/${s.name}`)).toHaveLength(0);

      // A request to the public endpoint goes there too, as the fetch event the script would get.
      const fetched = await request(h.current.app).post(`${s.endpoint}/echo?q=1`).set('content-type', 'text/plain').send('ping');
      expect(fetched.status).toBe(200);
      expect(fetched.text).toBe('from the tunnel');
      expect(got).toHaveLength(2);
      const forwarded = await formOf(1);
      expect(forwarded.event).toMatchObject({ type: 'fetch', installationId: s.installationId, spaceId: s.space.id, request: { method: 'post' } });
      expect(forwarded.event.request.url).toContain(`${s.endpoint}/echo?q=1`);
      expect(forwarded.fetchBody).toBe('ping');
      expect(verifySignature('dev-secret', got[1].body, String(got[1].headers['x-integration-signature']), new Date())).toBe(true);

      // Only the owner's admins end it; then events go to the script again.
      const member = await h.current.newMember(owner.organizationId, 'edit');
      expect((await member.api.delete(`/integrations/${s.name}/dev`)).status).toBe(403);
      expect((await owner.api.delete(`/integrations/${s.name}/dev`)).status).toBe(204);
      expect((await owner.api.delete(`/integrations/${s.name}/dev`)).status).toBe(204);
      expect((await owner.api.delete(`/integrations/${unique('nothing')}/dev`)).status).toBe(204);
      await mergeAPage(s.space.id);
      await deliverAll();
      expect(got).toHaveLength(2);
      expect(receiver.received.filter((r) => r.url === `/hook/${s.name}`)).toHaveLength(1);
    } finally {
      await new Promise((resolve) => tunnel.close(resolve));
    }
  });

  it('a published page loads the script fetch_published_script makes from the site installation, with its CSP merged and cached as its headers say', async () => {
    const siteIntegration = `
      import { createIntegration } from '@gitbook/runtime';
      let made = 0;
      export default createIntegration({
        fetch_published_script: async (event, context) => {
          made++;
          const { trackingId } = context.environment.siteInstallation!.configuration as { trackingId: string };
          return new Response('window.tracker = ' + JSON.stringify({ trackingId, site: event.siteId, made }) + ';', {
            headers: { 'content-type': 'application/javascript', 'cache-control': 'public, max-age=60' },
          });
        },
      });`;
    const name = unique('gb-site');
    await publishAs(owner, name, {
      runtime: 'v2',
      script: await bundleIntegration(siteIntegration),
      scopes: ['site:script:inject', 'site:script:cookies'],
      configurations: { site: { componentId: 'configure' } },
      contentSecurityPolicy: { 'connect-src': 'https://collect.example.com', 'frame-ancestors': '*' },
    });
    const installation = await owner.api.post(`/integrations/${name}/installations`, { organization: owner.organizationId });
    expect(installation.status).toBe(200);
    const space = await spaceWithPages(owner, 'Guides', [{ title: 'Intro', markdown: 'Hello readers.' }]);
    const site = await newSite(owner, { title: 'Tracked docs', spaces: [space] });
    const url: string = (await publish(owner, site.id)).urls.published;
    const onSite = await owner.api.post(`/integrations/${name}/installations/${installation.body.id}/sites`, { siteId: site.id });
    expect(onSite.status).toBe(201);
    const configured = await owner.api.patch(`/integrations/${name}/installations/${installation.body.id}/sites/${site.id}`, { configuration: { trackingId: 'UA-42' } });
    expect(configured.status).toBe(200);

    const page = await open(h.current, `${url}/intro`);
    expect(page.status).toBe(200);
    const src = `${PUBLIC_URL}/integrations/${name}/installations/${installation.body.id}/sites/${site.id}/script.js`;
    expect(page.text).toContain(`<script src="${src}" defer></script>`);
    // The page's policy lets the script send to where it declares, and keeps the page's own frame-ancestors.
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain('connect-src https://collect.example.com');
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).not.toContain('frame-ancestors *');
    const profile = await owner.api.get(`/orgs/${owner.organizationId}/sites/${site.id}/published`);
    expect(profile.status).toBe(200);
    expect(profile.body.scripts).toEqual([{ script: src, contentSecurityPolicy: 'connect-src https://collect.example.com; frame-ancestors *', cookies: true }]);

    const script = await request(h.current.app).get(new URL(src).pathname);
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toContain('application/javascript');
    expect(script.headers['cache-control']).toBe('public, max-age=60');
    expect(script.text).toBe(`window.tracker = {"trackingId":"UA-42","site":"${site.id}","made":1};`);
    // Kept as its Cache-Control allows: the script is not run again…
    expect((await request(h.current.app).get(new URL(src).pathname)).text).toContain('"made":1');
    // …until the configuration changes.
    expect((await owner.api.patch(`/integrations/${name}/installations/${installation.body.id}/sites/${site.id}`, { configuration: { trackingId: 'UA-43' } })).status).toBe(200);
    expect((await request(h.current.app).get(new URL(src).pathname)).text).toContain('"trackingId":"UA-43"');

    // Without site:script:inject, an integration installed on the site adds no script.
    const silent = unique('gb-silent');
    await publishAs(owner, silent, { runtime: 'v2', script: await bundleIntegration(siteIntegration), scopes: [] });
    const other = await owner.api.post(`/integrations/${silent}/installations`, { organization: owner.organizationId });
    expect((await owner.api.post(`/integrations/${silent}/installations/${other.body.id}/sites`, { siteId: site.id })).status).toBe(201);
    const again = await open(h.current, `${url}/intro`);
    expect(again.text).not.toContain(silent);
    expect((await request(h.current.app).get(`/integrations/${silent}/installations/${other.body.id}/sites/${site.id}/script.js`)).status).toBe(404);
  });
});
