// Integration tasks: a script built with @gitbook/runtime that splits its work into tasks
// (`context.integration.queueTask`, i.e. queueIntegrationTask) runs them one after the other through the job
// runner, each a `task` event in the integration's events with GitBook's payload shape; and the operation's
// own rules (who may queue, schedule, size and pending limits).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PENDING_TASKS } from '../contract/integration-tasks.js';
import { integrationEvents, jobs } from '../server/db/schema/index.js';
import { deliverIntegrationEvent, DELIVER_INTEGRATION_EVENT } from '../server/integrations/delivery.job.js';
import { createJobRunner } from '../server/jobs/runner.js';
import { setScriptUrls } from '../server/runtime/script-runtime.js';
import { createUrls } from '../server/urls.js';
import { send } from './support/api.js';
import { bundleIntegration } from './support/gitbook-bundle.js';
import { gitbookSchemaErrors } from './support/gitbook-schemas.js';
import { useHarness, type Account } from './support/harness.js';
import { publishAs } from './support/matrix/integrations.js';

const h = useHarness();
const PUBLIC_URL = 'https://api.test.example';
let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++n}`;

/** Runs due delivery jobs until none is queued or running (scheduled ones not yet due excepted). */
async function deliverAll() {
  const runner = createJobRunner({ db: h.current.db, logger: pino({ level: 'silent' }), handlers: { [DELIVER_INTEGRATION_EVENT]: deliverIntegrationEvent }, backoff: { baseMs: 5 } });
  for (let i = 0; i < 400; i++) {
    await runner.drain();
    const left = await h.current.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.kind, DELIVER_INTEGRATION_EVENT), sql`${jobs.status} IN ('queued', 'running')`, sql`${jobs.runAt} <= now()`));
    if (left.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('deliveries did not finish');
}

// Splits an import into three tasks: the installation's setup queues the first, each task reports its step to
// the webhook of the configuration and queues the next, until the third.
const splittingIntegration = `
import { createIntegration } from '@gitbook/runtime';

export default createIntegration({
  events: {
    installation_setup: async (event, context) => {
      await context.integration.queueTask({ task: { type: 'import:pages', step: 1, of: 3 } });
    },
  },
  task: async (task, context) => {
    const hook = context.environment.secrets.HOOK;
    console.log('task ' + task.step + ' of ' + task.of);
    const answer = await fetch(hook, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ step: task.step, installation: context.environment.installation?.id ?? null }) });
    if (!answer.ok) throw new Error('the hook answered ' + answer.status);
    if (task.step < task.of) await context.integration.queueTask({ task: { ...task, step: task.step + 1 } });
  },
});
`;

describe('integration tasks', () => {
  let server: Server;
  let hook: Server;
  let hookUrl: string;
  const steps: { step: number; installation: string | null }[] = [];
  let owner: Account;
  let script: string;
  beforeAll(async () => {
    // The script calls the API back over the network (queueIntegrationTask): the app listens.
    server = h.current.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    setScriptUrls(createUrls(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
    hook = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        steps.push(JSON.parse(body));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/steps`;
    owner = await h.current.newAdmin();
    script = await bundleIntegration(splittingIntegration);
  });
  afterAll(async () => {
    setScriptUrls(createUrls(PUBLIC_URL));
    await new Promise((resolve) => server.close(resolve));
    await new Promise((resolve) => hook.close(resolve));
  });

  async function taskEvents(name: string) {
    const res = await owner.api.get(`/integrations/${name}/events?limit=100`);
    expect(res.status).toBe(200);
    return (res.body.items as { id: string; status: string; installationId?: string; payload: Record<string, any> }[]).filter((e) => e.payload.type === 'task').reverse();
  }

  it('a script that splits its work runs its three tasks, each a task event of the integration with GitBook\'s shape', async () => {
    const name = unique('tasks');
    await publishAs(owner, name, { runtime: 'v2', script, secrets: { HOOK: hookUrl } });
    const installation = await owner.api.post(`/integrations/${name}/installations`, { organization: owner.organizationId });
    expect(installation.status).toBe(200);
    await deliverAll();

    expect(steps.filter((s) => s.installation === installation.body.id)).toEqual([1, 2, 3].map((step) => ({ step, installation: installation.body.id })));
    const tasks = await taskEvents(name);
    expect(tasks.map((t) => [t.status, t.payload.task.step])).toEqual([
      ['success', 1],
      ['success', 2],
      ['success', 3],
    ]);
    for (const task of tasks) {
      expect(task.installationId).toBe(installation.body.id);
      expect(task.payload).toEqual({ eventId: task.id, type: 'task', installationId: installation.body.id, task: { type: 'import:pages', step: task.payload.task.step, of: 3 } });
      expect(gitbookSchemaErrors('TaskEvent', task.payload)).toEqual([]);
    }
    const trace = await owner.api.get(`/integrations/${name}/events/${tasks[1].id}`);
    expect(trace.status).toBe(200);
    const messages = trace.body.trace.logs.map((l: { message: string }) => l.message);
    expect(messages).toContain('task 2 of 3');
    expect(messages.some((m: string) => m.includes('handling task import:pages'))).toBe(true);
  });

  it('a scheduled task waits its delay before it is delivered', async () => {
    const name = unique('tasks-later');
    await publishAs(owner, name, { runtime: 'v2', script, secrets: { HOOK: hookUrl } });
    const before = Date.now();
    const queued = await owner.api.post(`/integrations/${name}/tasks`, { task: { type: 'later', step: 3, of: 3 }, schedule: 120 });
    expect(queued.status).toBe(204);
    const [task] = await taskEvents(name);
    expect(task).toMatchObject({ status: 'pending', payload: { type: 'task', task: { type: 'later', step: 3, of: 3 } } });
    expect(task.installationId).toBeUndefined();
    const [job] = await h.current.db.select().from(jobs).where(sql`${jobs.payload}->>'eventId' = ${task.id}`);
    expect(job.runAt.getTime()).toBeGreaterThanOrEqual(before + 119_000);
    await deliverAll();
    expect((await taskEvents(name))[0].status).toBe('pending');
  });

  it('refuses a payload too large, a schedule out of bounds, members who are not admins, and strangers', async () => {
    const name = unique('tasks-rules');
    await publishAs(owner, name, { runtime: 'v2', script, secrets: { HOOK: hookUrl } });
    const big = await owner.api.post(`/integrations/${name}/tasks`, { task: { blob: 'x'.repeat(70 * 1024) } });
    expect(big.status).toBe(400);
    expect(big.body.error.message).toContain('body.task');
    const far = await owner.api.post(`/integrations/${name}/tasks`, { task: {}, schedule: 86_401 });
    expect(far.status).toBe(400);
    expect(far.body.error.message).toContain('schedule');
    const noTask = await owner.api.post(`/integrations/${name}/tasks`, { schedule: 1 });
    expect(noTask.status).toBe(400);
    expect(noTask.body.error.message).toContain('task');

    const editor = await h.current.newMember(owner.organizationId, 'edit');
    expect((await editor.api.post(`/integrations/${name}/tasks`, { task: {} })).status).toBe(403);
    const stranger = await h.current.newAdmin();
    expect((await stranger.api.post(`/integrations/${name}/tasks`, { task: {} })).status).toBe(403);
    expect((await owner.api.post(`/integrations/${unique('nothing')}/tasks`, { task: {} })).status).toBe(404);
    expect(await taskEvents(name)).toEqual([]);
  });

  it('an installation token queues for its own integration only', async () => {
    const name = unique('tasks-token');
    const other = unique('tasks-other');
    await publishAs(owner, name, { runtime: 'v2', script, secrets: { HOOK: hookUrl } });
    await publishAs(owner, other, { runtime: 'v2', script, secrets: { HOOK: hookUrl } });
    const installation = await owner.api.post(`/integrations/${name}/installations`, { organization: owner.organizationId });
    const token = await owner.api.post(`/integrations/${name}/installations/${installation.body.id}/tokens`);
    expect(token.status).toBe(200);
    const own = await send(h.current.app, 'post', `/v1/integrations/${name}/tasks`, { token: token.body.token, body: { task: { type: 'own' } } });
    expect(own.status).toBe(204);
    const foreign = await send(h.current.app, 'post', `/v1/integrations/${other}/tasks`, { token: token.body.token, body: { task: { type: 'foreign' } } });
    expect(foreign.status).toBe(404);
    const tasks = await taskEvents(name);
    expect(tasks.map((t) => [t.payload.task.type, t.installationId])).toEqual([['own', installation.body.id]]);
    expect(await taskEvents(other)).toEqual([]);
  });

  it(`refuses a task beyond ${MAX_PENDING_TASKS} waiting to run (429), and takes one again once they ran`, async () => {
    const name = unique('tasks-full');
    await publishAs(owner, name, { runtime: 'v2', script, secrets: { HOOK: hookUrl } });
    const now = new Date();
    const rows = Array.from({ length: MAX_PENDING_TASKS }, (_, i) => ({
      id: `evt_full_${name}_${i}`,
      integrationName: name,
      organizationId: owner.organizationId,
      payload: { eventId: `evt_full_${name}_${i}`, type: 'task', task: { i } },
      status: 'pending',
      logs: [],
      createdAt: now,
    }));
    await h.current.db.insert(integrationEvents).values(rows);
    const refused = await owner.api.post(`/integrations/${name}/tasks`, { task: { type: 'one-too-many' } });
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toContain(`${MAX_PENDING_TASKS} tasks waiting`);
    await h.current.db.update(integrationEvents).set({ status: 'success' }).where(eq(integrationEvents.integrationName, name));
    expect((await owner.api.post(`/integrations/${name}/tasks`, { task: { type: 'room-again' } })).status).toBe(204);
  });
});
