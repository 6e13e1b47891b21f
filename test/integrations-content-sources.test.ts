// Content computed by an integration's content source (`content_compute_document` / `content_compute_revision`):
// an integration written with @gitbook/runtime's createContentSource (test/fixtures/integrations/
// content-sources.ts, bundled as @gitbook/cli bundles it), published with its `contentSources` and installed
// on a space, computes a document and the pages of a revision through getComputedDocument and
// getComputedRevision from the props and dependencies it is given; what it is sent is GitBook's event with the
// installation's IntegrationEnvironment (Ajv over @gitbook/api's spec); what it cannot compute is refused.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from './support/api.js';
import { bundleIntegration } from './support/gitbook-bundle.js';
import { gitbookSchemaErrors } from './support/gitbook-schemas.js';
import { useHarness, type Account } from './support/harness.js';
import { publishAs } from './support/matrix/integrations.js';
import { publish } from './published-support.js';
import { newSite, newSpace } from './sites-support.js';

const h = useHarness();
let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++n}`;
const source = readFileSync(new URL('./fixtures/integrations/content-sources.ts', import.meta.url), 'utf8');

const declared = ['dashboards', 'echo', 'invalid', 'throws', 'refuses', 'not-json', 'deep', 'ghost'].map((id) => ({
  id,
  title: `Source ${id}`,
  configuration: { componentId: `${id}-picker` },
}));

type Json = Record<string, any>;
/** Every text of a document's leaves, in order. */
const texts = (document: Json): string[] => (document.nodes as Json[]).flatMap((b) => (b.nodes as Json[]).flatMap((t) => (t.leaves as Json[]).map((l) => l.text as string)));

describe('content sources of integrations', () => {
  let owner: Account;
  let script: string;
  let name: string;
  let spaceId: string;
  let installationId: string;
  const documentPath = () => `/spaces/${spaceId}/content/computed/document`;
  const revisionPath = () => `/spaces/${spaceId}/content/computed/revision`;
  const sourceOf = (id: string, props: Json = {}, dependencies?: Json) => ({ type: `integration:${name}:${id}`, props, ...(dependencies && { dependencies }) });

  beforeAll(async () => {
    owner = await h.current.newAdmin();
    script = await bundleIntegration(source);
    name = unique('dashboards');
    const published = await publishAs(owner, name, { runtime: 'v2', script, target: 'space', contentSources: declared });
    expect(published.contentSources.map((s: Json) => s.id)).toEqual(declared.map((s) => s.id));
    spaceId = await newSpace(owner, 'Dashboards');
    const installation = await owner.api.post(`/integrations/${name}/installations`, { organization: owner.organizationId });
    expect(installation.status).toBe(200);
    installationId = installation.body.id;
    const onSpace = await owner.api.post(`/integrations/${name}/installations/${installationId}/spaces`, { space: spaceId });
    expect(onSpace.status).toBe(201);
  });

  it('the integration shows the content sources it declared when it was published', async () => {
    const read = await owner.api.get(`/integrations/${name}`);
    expect(read.status).toBe(200);
    expect(read.body.contentSources).toEqual(declared);
    expect(gitbookSchemaErrors('IntegrationContentSource', read.body.contentSources[0])).toEqual([]);
  });

  it('post /spaces/{spaceId}/content/computed/document computes the document with the script, from its props and dependencies', async () => {
    const revision = (await owner.api.get(`/spaces/${spaceId}/content`)).body.id;
    const res = await owner.api.post(documentPath(), {
      source: sourceOf('dashboards', { dashboard: 'signups', team: 'growth' }, { guide: { ref: { kind: 'space', space: spaceId } }, spec: { ref: { kind: 'openapi', spec: 'no-such-spec' } } }),
      seed: 'signups',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.object).toBe('document');
    expect(texts(res.body)).toEqual(['Dashboard signups', 'Team growth', `Spec none; space ${spaceId}@${revision}`]);
    expect(gitbookSchemaErrors('JSONDocument', res.body)).toEqual([]);
    // A reader of the space computes it too; a stranger does not see the space.
    const reader = await h.current.newMember(owner.organizationId, 'read');
    const read = await reader.api.post(documentPath(), { source: sourceOf('dashboards', { dashboard: 'errors' }), seed: 's' });
    expect(read.status).toBe(200);
    expect(texts(read.body).slice(0, 2)).toEqual(['Dashboard errors', 'Team none']);
    const stranger = await h.current.newAdmin();
    expect((await stranger.api.post(documentPath(), { source: sourceOf('dashboards', { dashboard: 'errors' }), seed: 's' })).status).toBe(404);
  });

  it('post /spaces/{spaceId}/content/computed/revision computes the pages and files with the script, with ids from the seed', async () => {
    const res = await owner.api.post(revisionPath(), { source: sourceOf('dashboards', { team: 'growth' }), seed: 'growth' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { pages, files, reusableContents } = res.body;
    expect(reusableContents).toEqual([]);
    expect(pages.map((p: Json) => [p.type, p.title, p.slug, p.path])).toEqual([
      ['document', 'Dashboards of growth', 'dashboards-of-growth', 'dashboards-of-growth'],
      ['group', 'Archive', 'archive', 'archive'],
      ['document', 'Dashboards of growth', 'dashboards-of-growth-2', 'dashboards-of-growth-2'],
    ]);
    const [dashboards, archive, fixed] = pages;
    expect(dashboards).toMatchObject({
      kind: 'sheet',
      description: 'Every dashboard of the team.',
      computed: { type: `integration:${name}:dashboards`, props: { dashboard: 'overview', team: 'growth' }, dependencies: {} },
    });
    expect(dashboards.computedSeed).toMatch(/^[0-9a-f]{20}$/);
    expect(dashboards.urls.app).toContain(`/s/${spaceId}/dashboards-of-growth`);
    expect(dashboards.pages).toHaveLength(1);
    expect(dashboards.pages[0]).toMatchObject({ title: 'Weekly signups', slug: 'signups', path: 'dashboards-of-growth/signups', emoji: '📈' });
    expect(archive).toMatchObject({ kind: 'group', pages: [{ type: 'link', kind: 'link', title: 'Old board', target: { kind: 'url', url: 'https://boards.example.com/old' } }] });
    expect(fixed.id).toBe('fixedPage1');
    expect(files).toEqual([{ id: expect.stringMatching(/^[0-9a-f]{20}$/), name: 'chart.png', contentType: 'image/png', downloadURL: 'https://charts.example.com/chart.png', size: 1234, dimensions: { width: 640, height: 480 } }]);
    for (const file of files) expect(gitbookSchemaErrors('RevisionFile', file)).toEqual([]);
    // GitBook's RevisionPage, but for its `oneOf` that a computed page matches twice (test/gitbook-shapes.test.ts):
    // checked without `computed`, with a document as GitBook's page has one.
    const plain = (page: Json): Json => {
      const { computed, computedSeed, ...rest } = page;
      const document = page.type === 'document' ? { document: { object: 'document', data: {}, nodes: [] } } : {};
      return { ...rest, ...document, ...(page.pages && { pages: page.pages.map(plain) }) };
    };
    for (const page of pages) expect(gitbookSchemaErrors('RevisionPage', plain(page)), page.title).toEqual([]);

    // The same seed gives the same ids; another seed, other ones (the script's own id stays).
    const again = await owner.api.post(revisionPath(), { source: sourceOf('dashboards', { team: 'growth' }), seed: 'growth' });
    expect(again.body).toEqual(res.body);
    const other = await owner.api.post(revisionPath(), { source: sourceOf('dashboards', { team: 'growth' }), seed: 'other' });
    expect(other.status).toBe(200);
    expect(other.body.pages[0].id).not.toBe(dashboards.id);
    expect(other.body.pages[2].id).toBe('fixedPage1');

    // A computed page's document is computed from the source it carries.
    const page = await owner.api.post(documentPath(), { source: dashboards.pages[0].computed, seed: dashboards.pages[0].computedSeed });
    expect(page.status).toBe(200);
    expect(texts(page.body).slice(0, 2)).toEqual(['Dashboard signups', 'Team growth']);
  });

  it('the script is sent GitBook\'s ContentComputeDocumentEvent and ContentComputeRevisionEvent, with the installation\'s environment', async () => {
    const dependencies = { guide: { ref: { kind: 'space', space: spaceId } } };
    const res = await owner.api.post(documentPath(), { source: sourceOf('echo', { dashboard: 'signups', nested: { deep: [1, 'two'] } }, dependencies), seed: 'echo' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const seen = JSON.parse(texts(res.body)[0]);
    expect(seen.event).toMatchObject({
      type: 'content_compute_document',
      installationId,
      spaceId,
      sourceId: 'echo',
      props: { dashboard: 'signups', nested: { deep: [1, 'two'] } },
      dependencies: { guide: { ref: { kind: 'space', space: spaceId }, value: { object: 'space', id: spaceId } } },
    });
    expect(gitbookSchemaErrors('ContentComputeDocumentEvent', seen.event)).toEqual([]);
    expect(gitbookSchemaErrors('IntegrationEnvironment', seen.environment)).toEqual([]);
    expect(seen.environment.installation.id).toBe(installationId);
    expect(seen.environment.spaceInstallation.space).toBe(spaceId);
    expect(seen.environment.integration.name).toBe(name);
    expect(typeof seen.environment.apiTokens.installation).toBe('string');

    const revision = await owner.api.post(revisionPath(), { source: sourceOf('echo', { team: 'growth' }), seed: 'echo' });
    expect(revision.status, JSON.stringify(revision.body)).toBe(200);
    const seenRevision = JSON.parse(revision.body.pages[0].title);
    expect(seenRevision.event).toMatchObject({ type: 'content_compute_revision', installationId, spaceId, sourceId: 'echo', props: { team: 'growth' }, dependencies: {} });
    expect(gitbookSchemaErrors('ContentComputeRevisionEvent', seenRevision.event)).toEqual([]);
    expect(gitbookSchemaErrors('IntegrationEnvironment', seenRevision.environment)).toEqual([]);
  });

  it('a site token of a site publishing the space computes as a reader does', async () => {
    const site = await newSite(owner, { title: 'Dashboards', spaces: [spaceId] });
    const url: string = (await publish(owner, site.id)).urls.published;
    const resolved = await owner.api.get('/urls/published', { url });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    const reader = apiClient(h.current.app, resolved.body.apiToken);
    const doc = await reader.post(documentPath(), { source: sourceOf('dashboards', { dashboard: 'signups' }), seed: 's' });
    expect(doc.status, JSON.stringify(doc.body)).toBe(200);
    expect(texts(doc.body)[0]).toBe('Dashboard signups');
    const revision = await reader.post(revisionPath(), { source: sourceOf('dashboards', { team: 'site' }), seed: 's' });
    expect(revision.status).toBe(200);
    expect(revision.body.pages[0].title).toBe('Dashboards of site');
  });

  it('refuses an integration that is unknown, not installed on the space, or has no such source, naming source.type', async () => {
    const refusal = async (body: Json, path = documentPath()) => {
      const res = await owner.api.post(path, body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      return res.body.error.message as string;
    };
    expect(await refusal({ source: { type: 'integration:no-such-integration-here:x', props: {} }, seed: 's' })).toMatch(/^body\.source\.type: no integration is named "no-such-integration-here"/);
    expect(await refusal({ source: sourceOf('nothing'), seed: 's' })).toMatch(/^body\.source\.type: the integration .* declares no content source "nothing"/);
    expect(await refusal({ source: sourceOf('nothing'), seed: 's' }, revisionPath())).toMatch(/^body\.source\.type: .* declares no content source "nothing"/);
    // Installed in the organization, but on another space only.
    const elsewhere = await newSpace(owner, 'Elsewhere');
    const res = await owner.api.post(`/spaces/${elsewhere}/content/computed/document`, { source: sourceOf('dashboards', { dashboard: 'x' }), seed: 's' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(`body.source.type: the integration "${name}" is not installed on space ${elsewhere}`);
    // A malformed type, a type computed nowhere, a dependency of a kind not resolved.
    expect(await refusal({ source: { type: 'integration:only-name', props: {} }, seed: 's' })).toMatch(/body\.source\.type: /);
    expect(await refusal({ source: { type: 'builtin:translation', props: {}, dependencies: {} }, seed: 's' })).toMatch(/body\.source\.type: /);
    expect(await refusal({ source: sourceOf('dashboards', {}, { who: { ref: { kind: 'user', user: owner.userId } } }), seed: 's' })).toMatch(/^body\.source\.dependencies\.who\.ref: a user reference is not resolved here/);
    expect(await refusal({ source: { ...sourceOf('dashboards'), props: 'x' }, seed: 's' })).toMatch(/body\.source\.props: /);
  });

  it('a script that refuses is a 400 naming source; one that fails or answers something else is a 503', async () => {
    const refused = await owner.api.post(documentPath(), { source: sourceOf('refuses', { dashboard: 'x' }), seed: 's' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/^body\.source: the integration .* refused to compute refuses \(400\): .*No dashboard of that name/);
    // Declared in the manifest, but not in the script: @gitbook/runtime answers 404.
    const ghost = await owner.api.post(revisionPath(), { source: sourceOf('ghost'), seed: 's' });
    expect(ghost.status).toBe(400);
    expect(ghost.body.error.message).toMatch(/refused to compute ghost \(404\): .*Content source ghost not found/);
    for (const [id, reason] of [
      ['throws', /its script answered 500/],
      ['not-json', /its script did not answer JSON/],
      ['invalid', /could not compute its content source invalid: its script answered not a ContentComputeDocumentEventResponse \(\{ document \}\): document\./],
      ['deep', /its script answered JSON nested deeper than 400 levels/],
    ] as const) {
      const res = await owner.api.post(documentPath(), { source: sourceOf(id), seed: 's' });
      expect(res.status, id).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body.error.message).toMatch(reason);
    }
    // The document source's answer is not pages.
    const pages = await owner.api.post(revisionPath(), { source: sourceOf('invalid'), seed: 's' });
    expect(pages.status).toBe(200);
    expect(pages.body.pages).toEqual([]);
  });

  it('a script without content sources support (not a v2 script) that answers no JSON is a 503', async () => {
    const other = unique('plain');
    await publishAs(owner, other, { script: 'export default { async fetch() { return new Response("ok"); } };', target: 'space', contentSources: [declared[0]] });
    const installation = await owner.api.post(`/integrations/${other}/installations`, { organization: owner.organizationId });
    expect((await owner.api.post(`/integrations/${other}/installations/${installation.body.id}/spaces`, { space: spaceId })).status).toBe(201);
    const res = await owner.api.post(documentPath(), { source: { type: `integration:${other}:dashboards`, props: {} }, seed: 's' });
    expect(res.status).toBe(503);
    expect(res.body.error.message).toMatch(/did not answer JSON/);
  });
});
