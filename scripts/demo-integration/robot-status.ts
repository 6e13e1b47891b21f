// The demo workspace's integration ("Robot status"), written as GitBook's integrations are: with
// @gitbook/runtime's createIntegration. `npm run demo:integration` bundles it as @gitbook/cli would into
// server/demo/robot-status.bundle.ts, which the demo seed publishes with `runtime: v2`. It is bundled by
// esbuild, not type-checked with the project (tsconfig excludes it: @gitbook/runtime ships TypeScript
// sources written for a bundler's module resolution, not NodeNext).
import { createIntegration } from '@gitbook/runtime';

const DEFAULT_STATUS_PAGE = 'https://status.acme-robotics.example.com';

export default createIntegration({
  events: {
    installation_setup: async (event, context) => {
      console.log(`Robot status is ${event.status} in ${context.environment.installation?.target.organization ?? 'an organization'}`);
    },
    installation_deleted: async () => {
      console.log('Robot status was uninstalled');
    },
    site_installation_setup: async (event, context) => {
      const statusPage = (context.environment.siteInstallation?.configuration as { statusPage?: string } | undefined)?.statusPage;
      console.log(`Robot status shows ${statusPage ?? DEFAULT_STATUS_PAGE} on site ${event.siteId}`);
    },
    site_installation_deleted: async (event) => {
      console.log(`Robot status left site ${event.siteId}`);
    },
  },
  // The script the docs site loads: a small banner linking to the status page of the site's configuration.
  fetch_published_script: async (event, context) => {
    const statusPage = (context.environment.siteInstallation?.configuration as { statusPage?: string } | undefined)?.statusPage ?? DEFAULT_STATUS_PAGE;
    const script = `(() => {
  const link = document.createElement('a');
  link.href = ${JSON.stringify(statusPage)};
  link.textContent = 'Robot arm status';
  link.style.cssText = 'position:fixed;bottom:1rem;right:1rem;padding:.4rem .8rem;border-radius:1rem;background:#0b7;color:#fff;font:14px sans-serif;text-decoration:none';
  document.addEventListener('DOMContentLoaded', () => document.body.appendChild(link));
})();`;
    return new Response(script, { headers: { 'content-type': 'application/javascript', 'cache-control': 'public, max-age=300' } });
  },
});
