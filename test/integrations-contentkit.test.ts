// ContentKit: a block integration written with @gitbook/runtime's createComponent (test/fixtures/integrations/
// diagram-block.tsx, bundled as @gitbook/cli bundles it) renders the `integration` block of a published page:
// its tree is shown server-side (markdown, code, card), its webframe sandboxed in an iframe of its own origin
// with the page's policy framing only it; what it is sent is GitBook's UIRenderEvent and what it answers a
// ContentKitRenderOutput (Ajv over @gitbook/api's spec).
import { readFileSync } from 'node:fs';
import { eq, inArray } from 'drizzle-orm';
import lzString from 'lz-string';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { integrationInstallationTokens, integrationSigningSecrets, integrationTokens, users } from '../server/db/schema/index.js';
import { uiRenderEvent } from '../server/integrations/ui-render.js';
import { bundleIntegration } from './support/gitbook-bundle.js';
import { gitbookSchemaErrors } from './support/gitbook-schemas.js';
import { useHarness, type Account } from './support/harness.js';
import { publishAs } from './support/matrix/integrations.js';
import { open, publish } from './published-support.js';
import { newSite, newSpace, sitePath } from './sites-support.js';

const h = useHarness();
let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++n}`;
const source = readFileSync(new URL('./fixtures/integrations/diagram-block.tsx', import.meta.url), 'utf8');

const text = (value: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });
const paragraph = (value: string) => ({ object: 'block', type: 'paragraph', nodes: [text(value)] });
const diagram = (integration: string, props: Record<string, unknown>) => ({ object: 'block', type: 'integration', isVoid: true, data: { integration, block: 'diagram', props } });

describe('ContentKit blocks on published pages', () => {
  let owner: Account;
  let script: string;
  beforeAll(async () => {
    owner = await h.current.newAdmin();
    script = await bundleIntegration(source, 'production', 'tsx');
  });

  /** A published site whose one page holds `nodes`, in a space of its own. */
  async function publishedPage(nodes: object[]) {
    const spaceId = await newSpace(owner, 'Diagrams');
    const cr = await owner.api.post(`/spaces/${spaceId}/change-requests`);
    expect(cr.status).toBe(201);
    const written = await owner.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/content?compat=false`, {
      changes: [{ operation: 'insert_page', title: 'Flow', document: { document: { object: 'document', data: {}, nodes } } }],
    });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    expect((await owner.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
    const site = await newSite(owner);
    const siteSpace = await owner.api.post(`${sitePath(owner, site.id)}/site-spaces`, { spaceId });
    expect(siteSpace.status).toBe(200);
    const published = await publish(owner, site.id);
    return { spaceId, url: `${published.urls.published.replace(/\/$/, '')}/flow` };
  }

  async function installedOn(spaceId: string) {
    const name = unique('diagram');
    await publishAs(owner, name, {
      runtime: 'v2',
      script,
      target: 'space',
      blocks: [{ id: 'diagram', title: 'Diagram', description: 'A diagram from its source' }],
      contentSecurityPolicy: "default-src 'none'; script-src 'unsafe-inline'",
    });
    const installation = await owner.api.post(`/integrations/${name}/installations`, { organization: owner.organizationId });
    expect(installation.status).toBe(200);
    const onSpace = await owner.api.post(`/integrations/${name}/installations/${installation.body.id}/spaces`, { space: spaceId });
    expect(onSpace.status).toBe(201);
    return { name, installationId: installation.body.id as string };
  }

  it('renders the block\'s ContentKit tree in the page, its webframe sandboxed and framed by the page\'s policy', async () => {
    const name = unique('diagram-pending');
    // The page names the integration before it is installed: the block shows nothing.
    const page = await publishedPage([paragraph('Before the diagram'), diagram(name, { content: 'graph LR\n  X --> Y', caption: 'The <script>alert(1)</script> **flow**' }), paragraph('After the diagram')]);
    const bare = await open(h.current, page.url);
    expect(bare.status).toBe(200);
    expect(bare.text).toContain('After the diagram');
    expect(bare.text).not.toContain('<iframe');

    // Installed (a new publication of the space's content is not needed: the site changed, so the page is made again).
    await publishAs(owner, name, {
      runtime: 'v2',
      script,
      target: 'space',
      blocks: [{ id: 'diagram', title: 'Diagram', description: 'A diagram from its source' }],
      contentSecurityPolicy: "default-src 'none'; script-src 'unsafe-inline'",
    });
    const installation = await owner.api.post(`/integrations/${name}/installations`, { organization: owner.organizationId });
    expect((await owner.api.post(`/integrations/${name}/installations/${installation.body.id}/spaces`, { space: page.spaceId })).status).toBe(201);
    const again = await publishedPage([paragraph('Before the diagram'), diagram(name, { content: 'graph LR\n  X --> Y', caption: 'The <script>alert(1)</script> **flow**' }), paragraph('After the diagram')]);
    expect((await owner.api.post(`/integrations/${name}/installations/${installation.body.id}/spaces`, { space: again.spaceId })).status).toBe(201);
    const res = await open(h.current, again.url);
    expect(res.status).toBe(200);
    const html = res.text;

    // Up to its end tag: the state's text may hold a `>` (an arrow of the diagram), which an attribute value may.
    const frame = /<iframe[\s\S]*?><\/iframe>/.exec(html)?.[0];
    expect(frame, html).toBeDefined();
    const src = /src="([^"]+)"/.exec(frame!)![1].replace(/&amp;/g, '&');
    expect(new URL(src).pathname).toBe(`/integrations/${name}/integration`);
    expect(new URL(src).searchParams.get('v')).toBe('1');
    expect(frame).toContain('sandbox="allow-scripts allow-popups"');
    expect(frame).not.toContain('allow-same-origin');
    const state = /data-contentkit-state="([^"]*)"/.exec(frame!)![1].replace(/&#x22;|&quot;/g, '"').replace(/&amp;/g, '&');
    expect(JSON.parse(state)).toEqual({ content: 'graph LR\n  X --> Y' });
    // The tree around it, in the page where the block is.
    expect(html).toContain('<strong>flow</strong>');
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('<code class="language-mermaid">graph LR');
    expect(html).toContain('href="https://mermaid.js.org/intro/"');
    expect(html.indexOf('Before the diagram')).toBeLessThan(html.indexOf('<iframe'));
    expect(html.indexOf('<iframe')).toBeLessThan(html.indexOf('After the diagram'));
    // The page frames only the integration's origin, and loads the host that hands the frame its data.
    const policy = res.headers['content-security-policy'];
    expect(policy).toContain(`frame-src ${new URL(src).origin}`);
    const host = /<script src="([^"]*webframe-host\.js)"/.exec(html)?.[1];
    expect(host).toBeDefined();
    const hostScript = await request(h.current.app).get(new URL(host!).pathname);
    expect(hostScript.status).toBe(200);
    expect(hostScript.headers['content-type']).toContain('javascript');
    expect(hostScript.text).toContain('@webframe.ready');

    // The frame's page is the integration's public content endpoint, answered by its script with its policy.
    const framed = await request(h.current.app).get(`${new URL(src).pathname}${new URL(src).search}`);
    expect(framed.status).toBe(200);
    expect(framed.headers['content-type']).toContain('text/html');
    expect(framed.headers['content-security-policy']).toBe("default-src 'none'; script-src 'unsafe-inline'");
  });

  it('a block whose integration is installed but cannot render says so, and the page still answers', async () => {
    const spaceId = await newSpace(owner, 'Broken');
    const { name } = await installedOn(spaceId);
    await publishAs(owner, name, { runtime: 'v2', script: 'export default { async fetch() { return new Response("nope", { status: 500 }); } };', target: 'space' });
    const cr = await owner.api.post(`/spaces/${spaceId}/change-requests`);
    expect(cr.status).toBe(201);
    const written = await owner.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/content?compat=false`, {
      changes: [{ operation: 'insert_page', title: 'Flow', document: { document: { object: 'document', data: {}, nodes: [diagram(name, {}), paragraph('Still here')] } } }],
    });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    expect((await owner.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
    const site = await newSite(owner);
    expect((await owner.api.post(`${sitePath(owner, site.id)}/site-spaces`, { spaceId })).status).toBe(200);
    const published = await publish(owner, site.id);
    const res = await open(h.current, `${published.urls.published.replace(/\/$/, '')}/flow`);
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain(`This block of ${name} could not be shown.`);
    expect(res.text).toContain('Still here');
  });

  it('renderIntegrationUIWithPost answers the component\'s output, GitBook\'s ContentKitRenderOutput, with its cache; and its refusals', async () => {
    const spaceId = await newSpace(owner, 'Rendered');
    const { name } = await installedOn(spaceId);
    const context = { type: 'document', theme: 'light', spaceId, editable: true };
    const res = await owner.api.post(`/integrations/${name}/render`, { componentId: 'diagram', props: { content: 'graph TD\n  P --> Q' }, context });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(gitbookSchemaErrors('ContentKitRenderOutput', res.body)).toEqual([]);
    expect(res.body).toMatchObject({ type: 'element', state: { content: 'graph TD\n  P --> Q' }, props: { content: 'graph TD\n  P --> Q' } });
    expect(res.body.element.type).toBe('block');
    expect(res.headers['cache-control']).toContain('max-age=3600');

    const reader = await h.current.newMember(owner.organizationId, 'read');
    expect((await reader.api.post(`/integrations/${name}/render`, { componentId: 'diagram', props: {}, context })).status).toBe(200);
    const unknown = await owner.api.post(`/integrations/${name}/render`, { componentId: 'nothing', props: {}, context });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('Component nothing not found');
    // A configuration screen needs the organization's admins; the component refuses a context it does not render in (503, with why).
    const account = { type: 'configuration_account', theme: 'light', organizationId: owner.organizationId };
    expect((await reader.api.post(`/integrations/${name}/render`, { componentId: 'diagram', props: {}, context: account })).status).toBe(403);
    const refused = await owner.api.post(`/integrations/${name}/render`, { componentId: 'diagram', props: {}, context: account });
    expect(refused.status).toBe(503);
    expect(refused.body.error.message).toContain('answered 500');
    const elsewhere = await newSpace(owner, 'Not installed');
    const missing = await owner.api.post(`/integrations/${name}/render`, { componentId: 'diagram', props: {}, context: { ...context, spaceId: elsewhere } });
    expect(missing.status).toBe(404);
    const stranger = await h.current.newAdmin();
    expect((await stranger.api.post(`/integrations/${name}/render`, { componentId: 'diagram', props: {}, context })).status).toBe(404);
  });

  it('renders for a site\'s configuration screen: for its organization\'s admins, with the installation covering the site', async () => {
    const spaceId = await newSpace(owner, 'Site screen');
    const { name, installationId } = await installedOn(spaceId);
    const site = await newSite(owner);
    const render = (account: Account, siteId: string) =>
      account.api.post(`/integrations/${name}/render`, { componentId: 'diagram', props: {}, context: { type: 'configuration_site', theme: 'light', siteId } });
    const unknown = await render(owner, 'site_unknown');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('body.context.siteId: site site_unknown not found');
    const notInstalled = await render(owner, site.id);
    expect(notInstalled.status).toBe(404);
    expect(notInstalled.body.error.message).toContain(`is not installed on the site ${site.id}`);
    expect((await owner.api.patch(`/integrations/${name}/installations/${installationId}`, { site_selection: 'all' })).status).toBe(200);
    // Installed on every site of the organization now: the component runs, and refuses a context it does not render in.
    const refused = await render(owner, site.id);
    expect(refused.status).toBe(503);
    expect(refused.body.error.message).toContain('answered 500');
    const reader = await h.current.newMember(owner.organizationId, 'read');
    expect((await render(reader, site.id)).status).toBe(403);
    const stranger = await h.current.newAdmin();
    expect((await render(stranger, site.id)).status).toBe(404);
  });

  it('renderIntegrationUIWithGet answers the same output from the request in the URL (LZ-string), and names what is wrong in it', async () => {
    const spaceId = await newSpace(owner, 'Rendered by GET');
    const { name } = await installedOn(spaceId);
    const context = { type: 'document', theme: 'light', spaceId, editable: false };
    const body = { componentId: 'diagram', props: { content: 'graph LR\n  X --> Y' }, context };
    const compressed = (value: unknown) => lzString.compressToEncodedURIComponent(JSON.stringify(value));
    const res = await owner.api.get(`/integrations/${name}/render?request=${compressed(body)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(gitbookSchemaErrors('ContentKitRenderOutput', res.body)).toEqual([]);
    expect(res.headers['cache-control']).toContain('max-age=3600');
    const posted = await owner.api.post(`/integrations/${name}/render`, body);
    expect(posted.status).toBe(200);
    expect(res.body).toEqual(posted.body);
    expect(res.body).toMatchObject({ type: 'element', props: { content: 'graph LR\n  X --> Y' } });

    // Not compressed JSON, a body missing a field, an unknown component: 400s naming where.
    const garbled = await owner.api.get(`/integrations/${name}/render?request=${encodeURIComponent('{"componentId":"diagram"}')}`);
    expect(garbled.status).toBe(400);
    expect(garbled.body.error.message).toContain('query.request: not LZ-string compressed JSON');
    const noContext = await owner.api.get(`/integrations/${name}/render?request=${compressed({ componentId: 'diagram', props: {} })}`);
    expect(noContext.status).toBe(400);
    expect(noContext.body.error.message).toContain('query.request.context');
    const unknown = await owner.api.get(`/integrations/${name}/render?request=${compressed({ ...body, componentId: 'nothing' })}`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/query\.request\.componentId: .*Component nothing not found/);
    expect((await owner.api.get(`/integrations/${name}/render`)).status).toBe(400);
    // The same access as POST: a reader of the space renders, a stranger does not see it.
    const reader = await h.current.newMember(owner.organizationId, 'read');
    expect((await reader.api.get(`/integrations/${name}/render?request=${compressed(body)}`)).status).toBe(200);
    const stranger = await h.current.newAdmin();
    expect((await stranger.api.get(`/integrations/${name}/render?request=${compressed(body)}`)).status).toBe(404);
  });

  it('the first renders of an integration, sent at once, store its tokens, each with one bot user, and its one signing secret', async () => {
    const spaceId = await newSpace(owner, 'Rendered at once');
    const { name, installationId } = await installedOn(spaceId);
    const context = { type: 'document', theme: 'light', spaceId, editable: false };
    const render = () => owner.api.post(`/integrations/${name}/render`, { componentId: 'diagram', props: { content: 'graph TD\n  A --> B' }, context });
    for (const res of await Promise.all([render(), render(), render()])) expect(res.status, JSON.stringify(res.body)).toBe(200);
    const db = h.current.db;
    const installationTokens = await db.select({ userId: integrationInstallationTokens.userId }).from(integrationInstallationTokens).where(eq(integrationInstallationTokens.installationId, installationId));
    const ownTokens = await db.select({ userId: integrationTokens.userId, installationId: integrationTokens.installationId }).from(integrationTokens).where(eq(integrationTokens.integrationName, name));
    expect(installationTokens.length).toBeGreaterThan(0);
    expect(ownTokens.length).toBeGreaterThan(0);
    // Each token acts as the one user of its installation or integration, made with the first.
    expect(new Set(installationTokens.map((t) => t.userId)).size).toBe(1);
    expect(new Set(ownTokens.map((t) => t.userId)).size).toBe(1);
    expect(ownTokens.every((t) => t.installationId === installationId)).toBe(true);
    const bots = await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, [installationTokens[0].userId, ownTokens[0].userId]));
    expect(bots.map((u) => u.email).sort()).toEqual([`installation-${installationId.toLowerCase()}@integrations.invalid`, `integration-${name.toLowerCase()}@integrations.invalid`].sort());
    expect(await db.select().from(integrationSigningSecrets).where(eq(integrationSigningSecrets.integrationName, name))).toHaveLength(1);
    // Held by this process afterwards: a later render writes nothing more.
    expect((await render()).status).toBe(200);
    expect(await db.select().from(integrationInstallationTokens).where(eq(integrationInstallationTokens.installationId, installationId))).toHaveLength(installationTokens.length);
    expect(await db.select().from(integrationTokens).where(eq(integrationTokens.integrationName, name))).toHaveLength(ownTokens.length);
  });

  it('the ui_render event it is sent is GitBook\'s UIRenderEvent', () => {
    const event = uiRenderEvent('ins_1', { componentId: 'diagram', props: { content: 'graph TD' }, context: { type: 'document', spaceId: 'sp_1', editable: false, theme: 'light' }, userId: 'usr_1' });
    expect(gitbookSchemaErrors('UIRenderEvent', event)).toEqual([]);
  });
});
