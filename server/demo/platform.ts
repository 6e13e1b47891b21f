// The publishing half of the demo: a published site with sections, an integration with an installation,
// an OpenAPI specification with two versions, ingested conversations with a cluster resolved by a merged
// change request, and a translation that has run.
import { DEMO_CLUSTER_TASK, DEMO_CONVERSATIONS, DEMO_INTEGRATION, DEMO_OPENAPI, DEMO_OWNER, DEMO_SITE, DEMO_TRANSLATION } from './data.js';
import type { DemoContent } from './content.js';
import { must, type DemoActors } from './seed.js';

/** `runJobs` completes the background work a step enqueued (processing, translation, clustering). */
export async function seedPlatform(organizationId: string, actors: DemoActors, content: DemoContent, runJobs: () => Promise<void>): Promise<void> {
  const owner = actors[DEMO_OWNER.key].api;
  const org = { params: { path: { organizationId } } };

  const site = await must(owner.POST('/orgs/{organizationId}/sites', { ...org, body: { title: DEMO_SITE.title, visibility: 'public' } }));
  const sitePath = { organizationId, siteId: site.id };
  for (const section of DEMO_SITE.sections) {
    await must(
      owner.POST('/orgs/{organizationId}/sites/{siteId}/sections', {
        params: { path: sitePath },
        body: { spaceId: content.spaces[section.space], title: section.title, icon: section.icon },
      }),
    );
  }
  await must(owner.POST('/orgs/{organizationId}/sites/{siteId}/site-spaces', { params: { path: sitePath }, body: { spaceId: content.spaces[DEMO_SITE.extraSpace] } }));
  await must(owner.POST('/orgs/{organizationId}/sites/{siteId}/publish', { params: { path: sitePath } }));

  const integration = { params: { path: { integrationName: DEMO_INTEGRATION.name } } };
  await must(owner.POST('/integrations/{integrationName}', { ...integration, body: { ...DEMO_INTEGRATION.definition, organization: organizationId } }));
  const installed = await must(owner.POST('/integrations/{integrationName}/installations', { ...integration, body: { organization: organizationId } }));
  // On the demo site, configured: its pages load the integration's script (fetch_published_script).
  const onSite = { params: { path: { integrationName: DEMO_INTEGRATION.name, installationId: installed.id } } };
  await must(owner.POST('/integrations/{integrationName}/installations/{installationId}/sites', { ...onSite, body: { siteId: site.id } }));
  await must(
    owner.PATCH('/integrations/{integrationName}/installations/{installationId}/sites/{siteId}', {
      params: { path: { ...onSite.params.path, siteId: site.id } },
      body: { configuration: DEMO_INTEGRATION.siteConfiguration },
    }),
  );

  const [first, ...later] = DEMO_OPENAPI.versions;
  await must(owner.POST('/orgs/{organizationId}/openapi', { ...org, body: { slug: DEMO_OPENAPI.slug, source: { text: first } } }));
  await runJobs();
  for (const text of later) {
    await must(
      owner.PUT('/orgs/{organizationId}/openapi/{specSlug}', { params: { path: { organizationId, specSlug: DEMO_OPENAPI.slug } }, body: { source: { text } } }),
    );
    await runJobs();
  }

  for (const c of DEMO_CONVERSATIONS) {
    await must(owner.POST('/orgs/{organizationId}/conversations', { ...org, body: { id: c.id, subject: c.subject, parts: [{ type: 'message', role: 'user', body: c.body }] } }));
  }
  await runJobs();

  // A change request created for the cluster of one conversation's issue, merged: that cluster is resolved.
  const issues = await must(owner.GET('/orgs/{organizationId}/conversations-issues', { params: { path: { organizationId }, query: { conversation: DEMO_CLUSTER_TASK.conversation } } }));
  const cluster = issues.items[0]?.issue.cluster;
  if (!cluster) throw new Error(`Demo seed: conversation ${DEMO_CLUSTER_TASK.conversation} has no clustered issue`);
  const spaceId = content.spaces[DEMO_CLUSTER_TASK.space];
  const pages = await must(owner.GET('/spaces/{spaceId}/content/pages', { params: { path: { spaceId } } }));
  const page = pages.pages.find((p) => p.title === DEMO_CLUSTER_TASK.page);
  if (!page) throw new Error(`Demo seed: no page ${DEMO_CLUSTER_TASK.page} in ${DEMO_CLUSTER_TASK.space}`);
  const task = await must(owner.POST('/spaces/{spaceId}/change-requests', { params: { path: { spaceId } }, body: { subject: DEMO_CLUSTER_TASK.subject, conversationsIssuesCluster: cluster } }));
  const taskPath = { spaceId, changeRequestId: task.id };
  await must(
    owner.POST('/spaces/{spaceId}/change-requests/{changeRequestId}/content', {
      params: { path: taskPath, query: { compat: false } },
      body: { changes: [{ operation: 'update_page', page: page.id, document: { markdown: DEMO_CLUSTER_TASK.markdown } }] },
    }),
  );
  await must(owner.POST('/spaces/{spaceId}/change-requests/{changeRequestId}/merge', { params: { path: taskPath } }));

  const translation = await must(
    owner.POST('/orgs/{organizationId}/translations', {
      ...org,
      body: { source: { space: content.spaces[DEMO_TRANSLATION.space], language: DEMO_TRANSLATION.from }, language: DEMO_TRANSLATION.to },
    }),
  );
  await must(owner.POST('/orgs/{organizationId}/translations/{translationId}/run', { params: { path: { organizationId, translationId: translation.id } } }));
  await runJobs();
}
