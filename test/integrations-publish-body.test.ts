// The publish body as @gitbook/cli sends it: runtime v2, configurations by form or by component, an empty
// description, the images stored and served, and the rest of the public shape read back.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';
import { publishAs } from './support/matrix/integrations.js';

const h = useHarness();
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++n}`;

describe('publish body', () => {
  it('post /integrations/{integrationName} takes what @gitbook/cli sends: runtime v2, component configurations, empty description', async () => {
    const admin = await h.current.newAdmin();
    const name = unique('cli');
    const published = await publishAs(admin, name, {
      runtime: 'v2',
      description: '',
      icon: png,
      previewImages: [png, png],
      scopes: ['space:content:read', 'site:script:inject'],
      categories: ['analytics', 'marketing'],
      blocks: [{ id: 'chart', title: 'Chart', markdown: { codeblock: 'chart', body: 'url' } }],
      contentSources: [{ id: 'pages', title: 'Pages', configuration: { componentId: 'sourceConfig' } }],
      externalLinks: [{ url: 'https://acme.example.com/docs', label: 'Docs' }],
      configurations: {
        account: { properties: { plan: { type: 'string', enum: ['free', 'pro'] } }, required: ['plan'] },
        space: { componentId: 'spaceConfig' },
        site: { componentId: 'siteConfig' },
      },
      secrets: { SIGNING_SECRET: 'shh-123' },
      contentSecurityPolicy: "script-src 'self' https://cdn.acme.example.com",
    });
    expect(published).toMatchObject({
      version: 1,
      description: '',
      categories: ['analytics', 'marketing'],
      configurations: { space: { componentId: 'spaceConfig' }, site: { componentId: 'siteConfig' }, account: { required: ['plan'] } },
      contentSources: [{ id: 'pages', configuration: { componentId: 'sourceConfig' } }],
      externalLinks: [{ url: 'https://acme.example.com/docs', label: 'Docs' }],
      contentSecurityPolicy: "script-src 'self' https://cdn.acme.example.com",
    });
    expect(JSON.stringify(published)).not.toContain('shh-123');
    // The images answer at the URLs handed out, as the PNG bytes sent.
    for (const url of [published.urls.icon, ...published.previewImages]) {
      const path = new URL(url).pathname;
      const res = await request(h.current.app).get(path).buffer(true);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(Buffer.from(res.body).equals(Buffer.from(png, 'base64'))).toBe(true);
    }

    // A component-configured target stores the settings the component gives; a form-configured one checks them.
    const installation = await admin.api.post(`/integrations/${name}/installations`, { organization: admin.organizationId });
    expect(installation.status).toBe(200);
    const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' });
    expect(space.status).toBe(201);
    const onSpace = await admin.api.post(`/integrations/${name}/installations/${installation.body.id}/spaces`, { space: space.body.id });
    expect(onSpace.status).toBe(201);
    const configured = await admin.api.patch(`/integrations/${name}/installations/${installation.body.id}/spaces/${space.body.id}`, {
      configuration: { webhook: 'https://hooks.example.com/x', nested: { depth: 2 } },
    });
    expect(configured.status).toBe(200);
    expect(configured.body.configuration).toEqual({ webhook: 'https://hooks.example.com/x', nested: { depth: 2 } });
    const wrong = await admin.api.patch(`/integrations/${name}/installations/${installation.body.id}`, { configuration: { plan: 'gold' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toContain('body.configuration.plan');
  });

  it('post /integrations/{integrationName} refuses an unknown runtime and a configuration of neither form, naming the field', async () => {
    const admin = await h.current.newAdmin();
    const runtime = await admin.api.post(`/integrations/${unique('bad')}`, {
      title: 'Bad', description: 'x', script: 'export default {}', scopes: [], organization: admin.organizationId, runtime: 'v3',
    });
    expect(runtime.status).toBe(400);
    expect(runtime.body.error.message).toContain('body.runtime');
    const configuration = await admin.api.post(`/integrations/${unique('bad')}`, {
      title: 'Bad', description: 'x', script: 'export default {}', scopes: [], organization: admin.organizationId, configurations: { space: { component: 'x' } },
    });
    expect(configuration.status).toBe(400);
    expect(configuration.body.error.message).toContain('body.configurations.space');
  });
});
