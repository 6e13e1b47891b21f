// The events a site's visitors cause: `site_view` when a page of the published site is served (written after
// the answer, site-visitor-events.ts) and `page_feedback` when a reader rates a page with the form under it
// (page-feedback.ts). Each goes to the installations on the site whose integration has the scope GitBook
// asks for (`site:views:read`, `page:feedback:read`), with the payload @gitbook/api declares (Ajv over its
// spec), and is delivered to the script by the job runner.
import { pino } from 'pino';
import request from 'supertest';
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { jobs } from '../server/db/schema/index.js';
import { deliverIntegrationEvent, DELIVER_INTEGRATION_EVENT } from '../server/integrations/delivery.job.js';
import { siteViewsWritten } from '../server/integrations/site-visitor-events.js';
import { createJobRunner } from '../server/jobs/runner.js';
import { open, publish, spaceWithPages } from './published-support.js';
import { newSite, sitePath } from './sites-support.js';
import { gitbookSchemaErrors } from './support/gitbook-schemas.js';
import { useHarness, type Account } from './support/harness.js';
import { publishAs } from './support/matrix/integrations.js';

const h = useHarness();
vi.setConfig({ testTimeout: 60_000 });
let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++n}`;

// A `v1` script: the event is POSTed as JSON; what it logs joins the event's trace.
const script = 'export default { async fetch(request) { const e = await request.json(); console.log(`saw ${e.type} of ${e.pageId}`); return new Response("ok"); } };';

/** An integration with `scopes`, installed on the site. */
async function installedOnSite(admin: Account, siteId: string, scopes: string[]) {
  const name = unique('site-events');
  await publishAs(admin, name, { script, scopes });
  const installation = await admin.api.post(`/integrations/${name}/installations`, { organization: admin.organizationId });
  expect(installation.status).toBe(200);
  const onSite = await admin.api.post(`/integrations/${name}/installations/${installation.body.id}/sites`, { siteId });
  expect(onSite.status).toBe(201);
  return { name, installationId: installation.body.id as string };
}

async function eventsOf(admin: Account, name: string, type: string) {
  const res = await admin.api.get(`/integrations/${name}/events?limit=100`);
  expect(res.status).toBe(200);
  return (res.body.items as { id: string; status: string; payload: Record<string, any> }[]).filter((e) => e.payload.type === type).reverse();
}

async function publishedSite(admin: Account) {
  const space = await spaceWithPages(admin, 'Guides', [
    { title: 'Intro', markdown: 'Welcome.' },
    { title: 'Setup', markdown: 'Install it.' },
  ]);
  const site = await newSite(admin, { title: 'Event docs', spaces: [space] });
  const url: string = (await publish(admin, site.id)).urls.published;
  const pages = await admin.api.get(`/spaces/${space}/content/pages`);
  expect(pages.status).toBe(200);
  const siteSpaces = await admin.api.get(`${sitePath(admin, site.id)}/site-spaces`);
  expect(siteSpaces.status).toBe(200);
  const pageId = (slug: string) => (pages.body.pages as { id: string; slug: string }[]).find((p) => p.slug === slug)!.id;
  return { space, siteId: site.id as string, siteSpaceId: siteSpaces.body.items[0].id as string, url, pageId };
}

/** Runs the delivery jobs until none is queued or running. */
async function deliverAll() {
  const runner = createJobRunner({ db: h.current.db, logger: pino({ level: 'silent' }), handlers: { [DELIVER_INTEGRATION_EVENT]: deliverIntegrationEvent }, backoff: { baseMs: 5 } });
  for (let i = 0; i < 100; i++) {
    await runner.drain();
    const left = await h.current.db.select({ status: jobs.status }).from(jobs).where(eq(jobs.kind, DELIVER_INTEGRATION_EVENT));
    if (!left.some((j) => j.status === 'queued' || j.status === 'running')) return;
  }
  throw new Error('deliveries did not finish');
}

/** A reader's POST of the rating form to `url`. */
function postForm(url: string, form: string, type = 'application/x-www-form-urlencoded') {
  const u = new URL(url);
  return request(h.current.app).post(u.pathname).set('Host', u.host).set('Content-Type', type).set('User-Agent', 'Reader/2.0').send(form).redirects(0);
}

describe('site visitor events for integrations', () => {
  it('a page view sends site_view to the installations with site:views:read only, shaped as GitBook\'s, and it is delivered', async () => {
    const admin = await h.current.newAdmin();
    const site = await publishedSite(admin);
    const viewer = await installedOnSite(admin, site.siteId, ['site:views:read']);
    const other = await installedOnSite(admin, site.siteId, ['site:script:inject']);

    const page = await open(h.current, `${site.url}/setup?ref=news`)
      .set('User-Agent', 'Reader/1.0')
      .set('Referer', 'https://news.example.com/post')
      .set('Accept-Language', 'fr-FR,fr;q=0.9')
      .set('Cookie', 'anonymousId=anon-42; theme=dark; dw_visitor_x=secret-token');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Install it.');
    await siteViewsWritten();

    const [view] = await eventsOf(admin, viewer.name, 'site_view');
    expect(view.payload).toEqual({
      eventId: view.id,
      type: 'site_view',
      installationId: viewer.installationId,
      siteId: site.siteId,
      siteSpaceId: site.siteSpaceId,
      spaceId: site.space,
      pageId: site.pageId('setup'),
      // This server's own cookies (visitor tokens) are never handed to an integration.
      visitor: { anonymousId: 'anon-42', cookies: { anonymousId: 'anon-42', theme: 'dark' }, userAgent: 'Reader/1.0', ip: expect.any(String), language: 'fr-FR' },
      url: `${site.url}/setup?ref=news`,
      referrer: 'https://news.example.com/post',
    });
    expect(gitbookSchemaErrors('SiteViewEvent', view.payload)).toEqual([]);
    expect(await eventsOf(admin, other.name, 'site_view')).toEqual([]);

    // The second reader is served from the page cache, and counted all the same; without a cookie, the
    // anonymous id is the same for the same reader.
    for (let i = 0; i < 2; i++) expect((await open(h.current, `${site.url}/setup`).set('User-Agent', 'Reader/3.0')).status).toBe(200);
    // A page that does not exist is no view.
    expect((await open(h.current, `${site.url}/nowhere`)).status).toBe(404);
    await siteViewsWritten();
    const views = await eventsOf(admin, viewer.name, 'site_view');
    expect(views).toHaveLength(3);
    expect(views[1].payload.visitor.anonymousId).toMatch(/^anon_/);
    expect(views[2].payload.visitor.anonymousId).toBe(views[1].payload.visitor.anonymousId);
    expect(views[1].payload).toMatchObject({ referrer: '', url: `${site.url}/setup` });
    for (const v of views) expect(gitbookSchemaErrors('SiteViewEvent', v.payload)).toEqual([]);

    await deliverAll();
    const delivered = await admin.api.get(`/integrations/${viewer.name}/events/${view.id}`);
    expect(delivered.status).toBe(200);
    expect(delivered.body.event.status).toBe('success');
    expect(delivered.body.trace.logs.map((l: { message: string }) => l.message)).toContain(`saw site_view of ${site.pageId('setup')}`);
  });

  it('a reader rates a page with the form under it: page_feedback to the installations with page:feedback:read, shaped as GitBook\'s', async () => {
    const admin = await h.current.newAdmin();
    const site = await publishedSite(admin);
    const rater = await installedOnSite(admin, site.siteId, ['page:feedback:read']);
    const viewer = await installedOnSite(admin, site.siteId, ['site:views:read']);
    const feedbackUrl = `${site.url.replace(/\/$/, '')}/~feedback/intro`;

    // Without `feedback.enabled`, pages have no form and the feedback URL leads nowhere.
    expect((await open(h.current, `${site.url}/intro`)).text).not.toContain('Was this page helpful?');
    expect((await postForm(feedbackUrl, 'rating=good')).status).toBe(404);

    const custom = await admin.api.put(`${sitePath(admin, site.siteId)}/customization`, { feedback: { enabled: true } });
    expect(custom.status).toBe(200);
    const page = await open(h.current, `${site.url}/intro`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<form class="feedback" method="post" action="${new URL(feedbackUrl).pathname}"`);

    const rated = await postForm(feedbackUrl, `rating=good&comment=${encodeURIComponent('Clear, thank you')}`).set('Referer', `${site.url}/intro`);
    expect(rated.status).toBe(200);
    expect(rated.text).toContain('Thank you for your feedback');
    const [event] = await eventsOf(admin, rater.name, 'page_feedback');
    expect(event.payload).toEqual({
      eventId: event.id,
      type: 'page_feedback',
      installationId: rater.installationId,
      siteId: site.siteId,
      spaceId: site.space,
      pageId: site.pageId('intro'),
      feedback: { rating: 'good', comment: 'Clear, thank you' },
      visitor: { anonymousId: expect.stringMatching(/^anon_/), cookies: {}, userAgent: 'Reader/2.0', ip: expect.any(String) },
      url: `${site.url.replace(/\/$/, '')}/intro`,
      referrer: `${site.url}/intro`,
    });
    expect(gitbookSchemaErrors('PageFeedbackEvent', event.payload)).toEqual([]);
    await siteViewsWritten();
    expect(await eventsOf(admin, viewer.name, 'page_feedback')).toEqual([]);

    // A rating alone (no comment) is enough.
    expect((await postForm(feedbackUrl, 'rating=bad&comment=')).status).toBe(200);
    const both = await eventsOf(admin, rater.name, 'page_feedback');
    expect(both).toHaveLength(2);
    expect(both[1].payload.feedback).toEqual({ rating: 'bad' });
    expect(gitbookSchemaErrors('PageFeedbackEvent', both[1].payload)).toEqual([]);

    // Bad input names the field; a page the site does not have is its 404; the form is the only body taken.
    const badRating = await postForm(feedbackUrl, 'rating=great');
    expect(badRating.status).toBe(400);
    expect(badRating.text).toMatch(/^rating:/);
    expect((await postForm(feedbackUrl, 'comment=hello')).text).toMatch(/^rating: required/);
    const longComment = await postForm(feedbackUrl, `rating=ok&comment=${'x'.repeat(513)}`);
    expect(longComment.status).toBe(400);
    expect(longComment.text).toMatch(/^comment:/);
    expect((await postForm(feedbackUrl, '{"rating":"good"}', 'application/json')).status).toBe(415);
    expect((await postForm(`${site.url.replace(/\/$/, '')}/~feedback/nowhere`, 'rating=good')).status).toBe(404);
    expect((await postForm(`${site.url.replace(/\/$/, '')}/intro`, 'rating=good')).status).toBe(404);
    expect(await eventsOf(admin, rater.name, 'page_feedback')).toHaveLength(2);

    await deliverAll();
    const delivered = await admin.api.get(`/integrations/${rater.name}/events/${event.id}`);
    expect(delivered.body.event.status).toBe('success');
  });
});
