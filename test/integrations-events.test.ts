// Integration events: installation_setup, listing and reading them, development mode and the delivery
// of events to a tunnel by the background runner.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationEvents, jobs } from '../server/db/schema/index.js';
import { createDeliveryHandler, deliverIntegrationEvent, DELIVER_INTEGRATION_EVENT } from '../server/integrations/delivery.job.js';
import { verifySignature } from '../server/integrations/signature.js';
import { emitSpaceContentUpdated } from '../server/integrations/content-events.js';
import { createCtx } from '../server/context.js';
import { createUrls } from '../server/urls.js';
import { claimJob } from '../server/jobs/claims.js';
import { createJobRunner, type JobHandler } from '../server/jobs/runner.js';
import { useHarness, type Account } from './support/harness.js';
import { publishAs } from './support/matrix/integrations.js';

const h = useHarness();
/** A script that handles every event (answers 200). */
const okScript = 'export default { fetch() { return new Response("ok") } }';
let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++n}`;

/** A local tunnel: records the JSON bodies it receives and answers `status` to each. */
interface Receiver {
  url: string;
  received: { path: string; body: any; raw: string; headers: IncomingMessage['headers'] }[];
  status: number;
  server: Server;
}

async function startReceiver(): Promise<Receiver> {
  const receiver = { received: [], status: 200 } as unknown as Receiver;
  receiver.server = createServer((req, res) => {
    let data = '';
    req.on('data', (chunk) => (data += chunk));
    req.on('end', () => {
      receiver.received.push({ path: req.url ?? '', body: JSON.parse(data), raw: data, headers: req.headers });
      res.writeHead(receiver.status).end();
    });
  });
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
  return receiver;
}

/** A runner of the delivery jobs as a freshly started server would have, with short retry delays. */
function runner(now = () => new Date(), handler: JobHandler = deliverIntegrationEvent) {
  return createJobRunner({
    db: h.current.db,
    logger: pino({ level: 'silent' }),
    handlers: { [DELIVER_INTEGRATION_EVENT]: handler },
    now,
    backoff: { baseMs: 5 },
  });
}

/** Runs delivery jobs until no delivery is queued or running any more. */
async function deliverAll(now?: () => Date, handler?: JobHandler) {
  const jobsRunner = runner(now, handler);
  for (let i = 0; i < 200; i++) {
    await jobsRunner.drain();
    const pending = await h.current.db.select({ id: jobs.id, status: jobs.status }).from(jobs).where(eq(jobs.kind, DELIVER_INTEGRATION_EVENT));
    if (!pending.some((j) => j.status === 'queued' || j.status === 'running')) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('deliveries did not finish');
}

async function install(account: Account, name: string) {
  const res = await account.api.post(`/integrations/${name}/installations`, { organization: account.organizationId });
  expect(res.status).toBe(200);
  return res.body;
}

async function eventsOf(owner: Account, name: string) {
  const res = await owner.api.get(`/integrations/${name}/events`);
  expect(res.status).toBe(200);
  return res.body.items;
}

describe('integration events', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await new Promise((resolve) => receiver.server.close(resolve));
  });

  it('post /integrations/{integrationName}/installations emits installation_setup, listed and read with its trace', async () => {
    const owner = await h.current.newAdmin();
    const name = unique('events');
    // The script answers 2xx and logs what it got: the log joins the event's trace.
    const script = `export default { async fetch(request, env) {
      const event = await request.json();
      console.log('got', event.type, request.headers.get('x-integration-event'), env.installationId === event.installationId);
      return new Response('ok');
    } }`;
    await publishAs(owner, name, { script });
    const installation = await install(owner, name);
    const [event] = await eventsOf(owner, name);
    expect(event).toEqual({
      object: 'integration-event',
      id: event.id,
      integrationId: name,
      installationId: installation.id,
      createdAt: event.createdAt,
      payload: { eventId: event.id, type: 'installation_setup', installationId: installation.id, status: 'active', previous: { status: 'pending', configuration: {} } },
      status: 'pending',
    });
    const queued = await owner.api.get(`/integrations/${name}/events/${event.id}`);
    expect(queued.status).toBe(200);
    expect(queued.body.event).toEqual(event);
    expect(queued.body.trace.logs.map((l: { message: string }) => l.message)).toEqual(['Event queued for delivery']);
    await deliverAll();
    const done = await owner.api.get(`/integrations/${name}/events/${event.id}`);
    expect(done.body.event.status).toBe('success');
    expect(done.body.trace.logs.map((l: { message: string }) => l.message)).toEqual([
      'Event queued for delivery',
      'got installation_setup installation_setup true',
      'Delivery attempt 1 to the script: 200',
    ]);
    // Installing again emits nothing.
    await install(owner, name);
    expect(await eventsOf(owner, name)).toHaveLength(1);
  });

  it('get /integrations/{integrationName}/events lists newest first, paginated; 403 for non-admins, 404 for unknowns', async () => {
    const owner = await h.current.newAdmin();
    const orgs = [await h.current.newAdmin(), await h.current.newAdmin()];
    const editor = await h.current.newMember(owner.organizationId, 'edit');
    const name = unique('events');
    await publishAs(owner, name);
    const installs = [await install(owner, name), await install(orgs[0], name), await install(orgs[1], name)];
    const all = await eventsOf(owner, name);
    expect(all.map((e: { installationId: string }) => e.installationId)).toEqual(installs.map((i) => i.id).reverse());
    const page1 = await owner.api.get(`/integrations/${name}/events`, { limit: 2 });
    expect(page1.body.count).toBe(3);
    const page2 = await owner.api.get(`/integrations/${name}/events`, { limit: 2, page: page1.body.next.page });
    expect([...page1.body.items, ...page2.body.items].map((e: { id: string }) => e.id)).toEqual(all.map((e: { id: string }) => e.id));
    expect((await editor.api.get(`/integrations/${name}/events`)).status).toBe(403);
    expect((await orgs[0].api.get(`/integrations/${name}/events/${all[0].id}`)).status).toBe(403);
    expect((await owner.api.get('/integrations/no-such-one/events')).status).toBe(404);
    expect((await owner.api.get(`/integrations/${name}/events/evt_unknown`)).status).toBe(404);
    // An event of another integration is not one of this one.
    const otherName = unique('events');
    await publishAs(owner, otherName);
    expect((await owner.api.get(`/integrations/${otherName}/events/${all[0].id}`)).status).toBe(404);
  });

  it('put /integrations/{integrationName}/dev sets the development mode; 400, 403 and 404', async () => {
    const owner = await h.current.newAdmin();
    const editor = await h.current.newMember(owner.organizationId, 'edit');
    const name = unique('dev');
    await publishAs(owner, name);
    expect((await owner.api.put(`/integrations/${name}/dev`, { tunnelUrl: receiver.url })).status).toBe(204);
    const bad = await owner.api.put(`/integrations/${name}/dev`, { tunnelUrl: 'not a url' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('body.tunnelUrl');
    expect((await editor.api.put(`/integrations/${name}/dev`, { tunnelUrl: receiver.url })).status).toBe(403);
    expect((await owner.api.put('/integrations/no-such-one/dev', { tunnelUrl: receiver.url })).status).toBe(404);
  });

  it('delivers installation_setup to the development tunnel, by a runner started after the event was accepted', async () => {
    const owner = await h.current.newAdmin();
    const name = unique('tunnel');
    await publishAs(owner, name, { secrets: { SIGNING_SECRET: 'tunnel-secret' } });
    expect((await owner.api.put(`/integrations/${name}/dev`, { tunnelUrl: `${receiver.url}/hook/${name}` })).status).toBe(204);
    const installation = await install(owner, name);
    // No runner was running: the event waits in the jobs table, as it would across a restart.
    expect(receiver.received.filter((r) => r.path === `/hook/${name}`)).toHaveLength(0);
    await deliverAll();
    const got = receiver.received.filter((r) => r.path === `/hook/${name}`);
    expect(got).toHaveLength(1);
    const [event] = await eventsOf(owner, name);
    expect(got[0].body).toEqual({
      eventId: event.id,
      type: 'installation_setup',
      installationId: installation.id,
      status: 'active',
      previous: { status: 'pending', configuration: {} },
    });
    expect(got[0].headers['content-type']).toBe('application/json');
    expect(got[0].headers['x-integration-event-id']).toBe(event.id);
    // The receiver checks origin and age: the HMAC of "<t>.<raw body>" with the integration's secret.
    const signature = String(got[0].headers['x-integration-signature']);
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature('tunnel-secret', got[0].raw, signature, new Date())).toBe(true);
    expect(verifySignature('another-secret', got[0].raw, signature, new Date())).toBe(false);
    expect(verifySignature('tunnel-secret', got[0].raw.replace('active', 'paused'), signature, new Date())).toBe(false);
    expect(verifySignature('tunnel-secret', got[0].raw, signature, new Date(Date.now() + 3_600_000))).toBe(false);
    const read = await owner.api.get(`/integrations/${name}/events/${event.id}`);
    expect(read.body.event.status).toBe('success');
    expect(read.body.trace.logs.at(-1)).toMatchObject({ level: 'info', message: `Delivery attempt 1 to ${receiver.url}/hook/${name}: 200` });
  });

  it('takes over a delivery whose worker died mid-way (lease expired) and delivers it', async () => {
    const owner = await h.current.newAdmin();
    const name = unique('crash');
    await publishAs(owner, name);
    await owner.api.put(`/integrations/${name}/dev`, { tunnelUrl: `${receiver.url}/hook/${name}` });
    await install(owner, name);
    // A worker claims the job with a 1 ms lease, then "crashes".
    expect(await claimJob(h.current.db, [DELIVER_INTEGRATION_EVENT], new Date(), 1)).not.toBeNull();
    await deliverAll(() => new Date(Date.now() + 1000));
    expect(receiver.received.filter((r) => r.path === `/hook/${name}`)).toHaveLength(1);
  });

  it('marks the event failed when the worker of its last attempt died, without delivering it again', async () => {
    const owner = await h.current.newAdmin();
    const name = unique('lastcrash');
    await publishAs(owner, name);
    await owner.api.put(`/integrations/${name}/dev`, { tunnelUrl: `${receiver.url}/hook/${name}` });
    await install(owner, name);
    const [pending] = await eventsOf(owner, name);
    // Its last allowed attempt was claimed by a worker that then died (the lease ran out).
    await h.current.db
      .update(jobs)
      .set({ status: 'running', attempts: sql`${jobs.maxAttempts}`, lockedUntil: new Date(Date.now() - 1) })
      .where(and(eq(jobs.kind, DELIVER_INTEGRATION_EVENT), sql`${jobs.payload}->>'eventId' = ${pending.id}`));
    await deliverAll();
    expect(receiver.received.filter((r) => r.path === `/hook/${name}`)).toHaveLength(0);
    const [event] = await eventsOf(owner, name);
    expect(event.status).toBe('failed');
    const { body } = await owner.api.get(`/integrations/${name}/events/${event.id}`);
    expect(body.trace.logs.map((l: { message: string }) => l.message)).toContain('The worker of the last delivery attempt stopped before finishing');
  });

  it('marks the event failed after its bounded attempts when the tunnel fails, each attempt in the trace', async () => {
    const failing = await startReceiver();
    failing.status = 500;
    try {
      const owner = await h.current.newAdmin();
      const name = unique('failing');
      await publishAs(owner, name);
      await owner.api.put(`/integrations/${name}/dev`, { tunnelUrl: failing.url });
      await install(owner, name);
      await deliverAll();
      expect(failing.received).toHaveLength(3);
      const [event] = await eventsOf(owner, name);
      expect(event.status).toBe('failed');
      const { body } = await owner.api.get(`/integrations/${name}/events/${event.id}`);
      const attempts = body.trace.logs.filter((l: { message: string }) => l.message.startsWith('Delivery attempt'));
      expect(attempts.map((l: { message: string; level: string }) => [l.level, l.message])).toEqual(
        [1, 2, 3].map((i) => ['error', `Delivery attempt ${i} of 3 to ${failing.url} failed: the tunnel answered 500`]),
      );
    } finally {
      await new Promise((resolve) => failing.server.close(resolve));
    }
  });

  it('abandons an attempt the tunnel does not answer in time, and fails the event after the last one', async () => {
    const silent = await startReceiver();
    silent.server.removeAllListeners('request');
    silent.server.on('request', () => {}); // never answers
    try {
      const owner = await h.current.newAdmin();
      const name = unique('silent');
      await publishAs(owner, name);
      await owner.api.put(`/integrations/${name}/dev`, { tunnelUrl: silent.url });
      await install(owner, name);
      await deliverAll(undefined, createDeliveryHandler({ timeoutMs: 100 }));
      const [event] = await eventsOf(owner, name);
      expect(event.status).toBe('failed');
      const { body } = await owner.api.get(`/integrations/${name}/events/${event.id}`);
      expect(body.trace.logs.filter((l: { message: string }) => l.message.endsWith('failed: no answer within 100 ms'))).toHaveLength(3);
    } finally {
      silent.server.closeAllConnections();
      await new Promise((resolve) => silent.server.close(resolve));
    }
  });

  it('put /integrations/{integrationName}/dev refuses a tunnel URL that is not http or https', async () => {
    const owner = await h.current.newAdmin();
    const name = unique('scheme');
    await publishAs(owner, name);
    const res = await owner.api.put(`/integrations/${name}/dev`, { tunnelUrl: 'file:///etc/passwd' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('body.tunnelUrl');
  });

  it('records a network failure of the tunnel in the trace', async () => {
    const closed = await startReceiver();
    await new Promise((resolve) => closed.server.close(resolve));
    const owner = await h.current.newAdmin();
    const name = unique('closed');
    await publishAs(owner, name);
    await owner.api.put(`/integrations/${name}/dev`, { tunnelUrl: closed.url });
    await install(owner, name);
    await deliverAll();
    const [event] = await eventsOf(owner, name);
    expect(event.status).toBe('failed');
    const [row] = await h.current.db.select().from(integrationEvents).where(eq(integrationEvents.id, event.id));
    expect(row.logs.filter((l) => l.level === 'error')).toHaveLength(3);
  });

  it("forwards only the owner's events to the tunnel, and every organization's with all=true", async () => {
    const owner = await h.current.newAdmin();
    const other = await h.current.newAdmin();
    const third = await h.current.newAdmin();
    const name = unique('scoped');
    await publishAs(owner, name, { script: okScript });
    const path = `/hook/${name}`;
    await owner.api.put(`/integrations/${name}/dev`, { tunnelUrl: `${receiver.url}${path}` });
    const foreign = await install(other, name);
    await deliverAll();
    expect(receiver.received.filter((r) => r.path === path)).toHaveLength(0);
    const [skipped] = await eventsOf(owner, name);
    expect(skipped.installationId).toBe(foreign.id);
    expect(skipped.status).toBe('success');
    // Another organization's tunnel, for its own integration, gets nothing of this one.
    const theirs = unique('theirs');
    await publishAs(other, theirs);
    await other.api.put(`/integrations/${theirs}/dev`, { tunnelUrl: `${receiver.url}/hook/${theirs}`, all: true });
    await owner.api.put(`/integrations/${name}/dev`, { tunnelUrl: `${receiver.url}${path}`, all: true });
    const thirdInstall = await install(third, name);
    await install(owner, name);
    await deliverAll();
    const got = receiver.received.filter((r) => r.path === path);
    expect(got.map((r) => r.body.installationId)).toHaveLength(2);
    expect(got[0].body.installationId).toBe(thirdInstall.id);
    expect(receiver.received.filter((r) => r.path === `/hook/${theirs}`)).toHaveLength(0);
  });

  it('marks an event failed with the reason after its attempts when the script throws or answers non-2xx; pending until then', async () => {
    const owner = await h.current.newAdmin();
    const cases = [
      ["export default { fetch() { console.error('cannot handle'); throw new Error('boom') } }", 'Error: boom'],
      ["export default { fetch() { return new Response('no', { status: 500 }) } }", 'the script answered 500'],
      ['export default {}', 'no default export with a fetch'],
    ] as const;
    for (const [script, reason] of cases) {
      const name = unique('fails');
      await publishAs(owner, name, { script });
      await install(owner, name);
      const [pending] = await eventsOf(owner, name);
      expect(pending.status).toBe('pending');
      await deliverAll();
      const read = await owner.api.get(`/integrations/${name}/events/${pending.id}`);
      expect(read.status).toBe(200);
      expect(read.body.event.status).toBe('failed');
      const failures = read.body.trace.logs.filter((l: { level: string; message: string }) => l.level === 'error' && l.message.startsWith('Delivery attempt'));
      expect(failures.map((l: { message: string }) => l.message.slice(0, 40))).toEqual([1, 2, 3].map((n) => `Delivery attempt ${n} of 3 to the script failed`.slice(0, 40)));
      expect(failures[2].message).toContain(reason);
    }
  });

  it('delivers space_installation_setup and uninstall events to the script with the installation configuration in env', async () => {
    const owner = await h.current.newAdmin();
    const name = unique('target');
    const script = `export default { async fetch(request, env) {
      const event = await request.json();
      console.log(event.type, event.spaceId === env.spaceId, JSON.stringify(env.configuration), env.secrets.KEY);
      return new Response(null, { status: 204 });
    } }`;
    await publishAs(owner, name, { script, secrets: { KEY: 'k-1' } });
    const installation = await install(owner, name);
    expect((await owner.api.patch(`/integrations/${name}/installations/${installation.id}`, { configuration: { plan: 'pro' } })).status).toBe(200);
    const space = (await owner.api.post(`/orgs/${owner.organizationId}/spaces`, { title: 'S' })).body;
    expect((await owner.api.post(`/integrations/${name}/installations/${installation.id}/spaces`, { space: space.id })).status).toBe(201);
    expect((await owner.api.delete(`/integrations/${name}/installations/${installation.id}/spaces/${space.id}`)).status).toBe(204);
    await deliverAll();
    const events = await eventsOf(owner, name);
    expect(events.map((e: { status: string }) => e.status)).toEqual(['success', 'success', 'success', 'success']);
    const traces = await Promise.all(events.map(async (e: { id: string }) => (await owner.api.get(`/integrations/${name}/events/${e.id}`)).body.trace.logs[1].message));
    expect(traces).toEqual([
      'space_installation_deleted true {"plan":"pro"} k-1',
      'space_installation_setup true {"plan":"pro"} k-1',
      'installation_setup true {"plan":"pro"} k-1',
      'installation_setup true {"plan":"pro"} k-1',
    ]);
  });

  it('emits space_content_updated to the installations on the space and those on every space of its organization', async () => {
    const owner = await h.current.newAdmin();
    const name = unique('content');
    const script = `export default { async fetch(request) {
      const event = await request.json();
      if (event.type === 'space_content_updated') console.log(event.spaceId, event.revisionId, event.updatedBy[0].id);
      return new Response('ok');
    } }`;
    await publishAs(owner, name, { script });
    const installation = await install(owner, name);
    const [onSpace, elsewhere] = [
      (await owner.api.post(`/orgs/${owner.organizationId}/spaces`, { title: 'Installed' })).body,
      (await owner.api.post(`/orgs/${owner.organizationId}/spaces`, { title: 'Not installed' })).body,
    ];
    expect((await owner.api.post(`/integrations/${name}/installations/${installation.id}/spaces`, { space: onSpace.id })).status).toBe(201);
    const ctx = createCtx({ caller: { userId: owner.userId }, db: h.current.db, now: () => new Date(), urls: createUrls('https://api.test.example'), log: pino({ level: 'silent' }) });
    expect(await emitSpaceContentUpdated(ctx, onSpace.id, 'rev_new')).toBe(1);
    expect(await emitSpaceContentUpdated(ctx, elsewhere.id, 'rev_other')).toBe(0);
    // With space_selection all, every space of the organization is covered.
    expect((await owner.api.patch(`/integrations/${name}/installations/${installation.id}`, { space_selection: 'all' })).status).toBe(200);
    expect(await emitSpaceContentUpdated(ctx, elsewhere.id, 'rev_other')).toBe(1);
    await deliverAll();
    const updates = (await eventsOf(owner, name)).filter((e: { payload: { type: string } }) => e.payload.type === 'space_content_updated');
    expect(updates.map((e: { status: string; payload: { spaceId: string } }) => [e.status, e.payload.spaceId])).toEqual([
      ['success', elsewhere.id],
      ['success', onSpace.id],
    ]);
    const trace = (await owner.api.get(`/integrations/${name}/events/${updates[1].id}`)).body.trace.logs;
    expect(trace[1].message).toBe(`${onSpace.id} rev_new ${owner.userId}`);
  });

  it('emits space_content_updated when a change request is merged into a space it is installed on', async () => {
    const owner = await h.current.newAdmin();
    const name = unique('merged');
    await publishAs(owner, name, { script: `export default { async fetch() { return new Response('ok'); } }` });
    const installation = await install(owner, name);
    const space = (await owner.api.post(`/orgs/${owner.organizationId}/spaces`, { title: 'Docs' })).body;
    expect((await owner.api.post(`/integrations/${name}/installations/${installation.id}/spaces`, { space: space.id })).status).toBe(201);
    const cr = await owner.api.post(`/spaces/${space.id}/change-requests`, { subject: 'Add a page' });
    expect(cr.status).toBe(201);
    const edit = await owner.api.post(`/spaces/${space.id}/change-requests/${cr.body.id}/content?compat=false`, {
      changes: [{ operation: 'insert_page', document: { markdown: '# Hello' } }],
    });
    expect(edit.status).toBe(200);
    const merged = await owner.api.post(`/spaces/${space.id}/change-requests/${cr.body.id}/merge`);
    expect(merged.status).toBe(200);
    await deliverAll();
    const updates = (await eventsOf(owner, name)).filter((e: { payload: { type: string } }) => e.payload.type === 'space_content_updated');
    expect(updates.map((e: { status: string; payload: { spaceId: string; revisionId: string } }) => [e.status, e.payload.spaceId, e.payload.revisionId])).toEqual([
      ['success', space.id, merged.body.revision],
    ]);
  });
});
