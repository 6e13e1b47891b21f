// What `npm run mock` runs: mock/launch.mjs, the mock from its prebuilt bundle (built on first use).
// The other mock tests start the modes in-process from source; this one proves the bundle behaves the
// same: it finds the migrations and the demo database next to the sources, loads the server's chunk,
// answers, and stops cleanly.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './support/child-server.js';

const root = path.resolve(import.meta.dirname, '..');
const TOKEN = 'mock-launch-test-token-0123456789';
let child: ChildProcess | undefined;
afterAll(() => {
  if (child?.exitCode === null) child.kill('SIGKILL');
});

/** Spawns the launcher and resolves with its output once it prints that it is ready. */
function launch(mode: string, port: number): Promise<string> {
  child = spawn(process.execPath, ['mock/launch.mjs', '--mode', mode], {
    cwd: root,
    env: { ...process.env, MOCK_PORT: String(port), BOOTSTRAP_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready in')) resolve(output);
    };
    child!.stdout!.on('data', onData);
    child!.stderr!.on('data', onData);
    child!.once('exit', (code) => reject(new Error(`the mock exited with ${code}:\n${output}`)));
  });
}

describe('npm run mock (mock/launch.mjs)', () => {
  it('starts the stateful mock from its bundle, answers with the demo workspace, and exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const output = await launch('stateful', port);
    const organizationId = /demo organization: (\S+)/.exec(output)?.[1];
    expect(organizationId, output).toBeDefined();
    const res = await fetch(`http://127.0.0.1:${port}/v1/orgs/${organizationId}/spaces`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    const spaces = (await res.json()) as { items: { title: string }[] };
    expect(spaces.items.length).toBeGreaterThan(0);
    // The published document comes from generated/, found from the bundle through the sources' location.
    const spec = await fetch(`http://127.0.0.1:${port}/v1/openapi.json`);
    expect(spec.status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child!.once('exit', resolve));
    child!.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);
});
