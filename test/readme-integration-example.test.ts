// The ten-line integration of docs/integrations.md, taken from that page itself and
// run as its shell example runs it: published, installed, called at its public endpoint, and its
// installation event delivered. An edit of that page that breaks the example fails here.
import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import request from 'supertest';
import { expect, it } from 'vitest';
import { jobs } from '../server/db/schema/index.js';
import { deliverIntegrationEvent, DELIVER_INTEGRATION_EVENT } from '../server/integrations/delivery.job.js';
import { createJobRunner } from '../server/jobs/runner.js';
import { useHarness } from './support/harness.js';

const h = useHarness();
const readme = readFileSync(new URL('../docs/integrations.md', import.meta.url), 'utf8');

/** The script docs/integrations.md writes to hello.js. */
function readmeScript(): string {
  const script = readme.match(/cat > hello\.js <<'JS'\n([\s\S]*?)\nJS\n/)?.[1];
  if (!script) throw new Error("docs/integrations.md no longer writes hello.js with cat > hello.js <<'JS'");
  return script;
}

it("the integration example of docs/integrations.md answers what it says, and its installation event is delivered", async () => {
  const admin = await h.current.newAdmin();
  // The publish body of the page's `jq -n …` line.
  const publish = await admin.api.post('/integrations/hello', {
    title: 'Hello',
    description: 'Says hello',
    scopes: [],
    organization: admin.organizationId,
    script: readmeScript(),
    contentSecurityPolicy: { 'default-src': "'none'" },
  });
  expect(publish.status, JSON.stringify(publish.body)).toBe(200);
  const installed = await admin.api.post('/integrations/hello/installations', { organization: admin.organizationId });
  expect(installed.status).toBe(200);

  const called = await request(h.current.app).get(`/integrations/hello/installations/${installed.body.id}/integration?name=Ada`);
  expect(called.status).toBe(200);
  expect(called.headers['content-security-policy']).toBe("default-src 'none'");
  expect(called.body).toEqual({ hello: 'Ada', plan: null });
  expect(readme).toContain(`# 200, Content-Security-Policy: default-src 'none', {"hello":"Ada","plan":null}`);

  // "success" once delivered: the README's last line.
  const runner = createJobRunner({ db: h.current.db, logger: pino({ level: 'silent' }), handlers: { [DELIVER_INTEGRATION_EVENT]: deliverIntegrationEvent }, backoff: { baseMs: 5 } });
  for (let i = 0; i < 100; i++) {
    await runner.drain();
    const queued = await h.current.db.select({ status: jobs.status }).from(jobs).where(eq(jobs.kind, DELIVER_INTEGRATION_EVENT));
    if (!queued.some((j) => j.status === 'queued' || j.status === 'running')) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const events = await admin.api.get('/integrations/hello/events');
  expect(events.status).toBe(200);
  expect(events.body.items.map((e: { payload: { type: string }; status: string }) => [e.payload.type, e.status])).toEqual([['installation_setup', 'success']]);
  expect(readme).toContain(`jq '.items[].status'   # "success" once delivered`);
});
