// `npm run mock`: serves generated/openapi.yaml with Prism (CORS on) under /v1, like the real server.
// MOCK_PORT (default 4010) and MOCK_HOST (default 127.0.0.1) choose where. Every operation answers with
// its documented example, and requests are validated against the spec.
import { startMock } from './prism.js';

const port = Number(process.env.MOCK_PORT ?? 4010);
const host = process.env.MOCK_HOST ?? '127.0.0.1';
const started = Date.now();
const mock = await startMock(port, host);
console.log(`Mock ready in ${Date.now() - started} ms at ${mock.baseUrl} (e.g. GET ${mock.baseUrl}/user)`);
mock.prism.process.stdout?.pipe(process.stdout);
mock.prism.process.stderr?.pipe(process.stderr);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void mock.stop().then(() => process.exit(0)));
