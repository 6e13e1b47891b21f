// `npm run mock -- --mode examples|dynamic|stateful|hybrid` (default examples): see modes.ts and the
// docs/consuming.md. MOCK_PORT (default 4010) and MOCK_HOST (default 127.0.0.1) choose where; BOOTSTRAP_TOKEN fixes
// the token the stateful and hybrid modes print.
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config.js';
import { MOCK_MODES, startMockMode, type MockMode } from './modes.js';

const { values } = parseArgs({ options: { mode: { type: 'string', default: 'examples' } } });
if (!MOCK_MODES.includes(values.mode as MockMode)) {
  console.error(`Unknown mode "${values.mode}": use --mode ${MOCK_MODES.join('|')}`);
  process.exit(2);
}
const mode = values.mode as MockMode;
// The same checks as the server's (BOOTSTRAP_TOKEN of at least 16 characters, a known LOG_LEVEL).
const config = loadConfig({ BOOTSTRAP_TOKEN: process.env.BOOTSTRAP_TOKEN, LOG_LEVEL: process.env.LOG_LEVEL });
const port = Number(process.env.MOCK_PORT ?? 4010);
const host = process.env.MOCK_HOST ?? '127.0.0.1';

const started = Date.now();
const mock = await startMockMode(mode, { port, host, token: config.bootstrapToken });
const lines = [`Mock (${mode}) ready in ${Date.now() - started} ms at ${mock.baseUrl}; reference at ${mock.baseUrl.replace(/\/v1$/, '/docs')}`];
if (mock.token) {
  lines.push(
    `  demo organization: ${mock.organizationId}`,
    `  token:             ${mock.token}   (its owner is an admin; the data resets at every start)`,
    `  try: curl -H "Authorization: Bearer ${mock.token}" ${mock.baseUrl}/orgs/${mock.organizationId}/spaces`,
  );
} else {
  lines.push(`  try: curl -H "Authorization: Bearer any-token" ${mock.baseUrl}/user`);
}
console.log(lines.join('\n'));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void mock.stop().then(() => process.exit(0)));
