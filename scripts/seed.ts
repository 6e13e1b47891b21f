// `npm run seed`: fills the configured database (DATA_DIR or DATABASE_URL, as the server) with the demo
// workspace (server/demo/), migrating it first. Running it again changes nothing and says so.
import { mkdirSync } from 'node:fs';
import { loadConfig } from '../server/config.js';
import { createDb } from '../server/db/client.js';
import { DEMO_ORGANIZATION_TITLE, DEMO_OWNER } from '../server/demo/data.js';
import { seedDemoWorkspace } from '../server/demo/seed.js';

const config = loadConfig();
if (config.storage.kind === 'pglite') mkdirSync(config.storage.dataDir, { recursive: true });
const database = createDb(config.storage);
try {
  await database.migrate();
  const started = Date.now();
  const result = await seedDemoWorkspace(database.db, { ownerToken: config.bootstrapToken });
  if (!result.created) {
    console.log(`The demo workspace is already there (organization ${result.organizationId}): nothing changed.`);
  } else {
    console.log(
      [
        `Seeded the demo workspace "${DEMO_ORGANIZATION_TITLE}" in ${Date.now() - started} ms.`,
        `  organization: ${result.organizationId}`,
        `  owner:        ${DEMO_OWNER.displayName} <${DEMO_OWNER.email}> (${result.ownerId})`,
        `  token:        ${result.token}`,
        'Keep the token: it is shown only this once (`npm run admin -- create-token --user <id>` makes another). Try:',
        `  curl -H "Authorization: Bearer ${result.token}" ${config.publicUrl}/v1/orgs/${result.organizationId}/spaces`,
      ].join('\n'),
    );
  }
} finally {
  await database.close();
}
