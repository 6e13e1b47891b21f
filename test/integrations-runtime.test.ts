// The script runtime (server/runtime/): scripts in the Workers module format run in the QuickJS sandbox
// with their limits (CPU time, memory, concurrency, no file system or process, outbound fetch through the
// guard), and the public endpoints of installations hand requests to them with the integration's CSP.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../server/integrations/signature.js';
import { DEFAULT_LIMITS, ScriptRuntime, type ScriptRequest } from '../server/runtime/script-runtime.js';
import { useHarness, type Account } from './support/harness.js';
import { publishAs } from './support/matrix/integrations.js';

const h = useHarness();
let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++n}`;

const post: ScriptRequest = { method: 'POST', url: 'https://api.test.example/integrations/x/integration', headers: [['content-type', 'application/json']], body: '{"type":"installation_setup"}' };

describe('script runtime', () => {
  // Short CPU time so the limit tests are quick; the other limits are the defaults.
  const runtime = new ScriptRuntime({ ...DEFAULT_LIMITS, cpuMs: 500, perIntegration: 2 }, { threads: 2 });
  let slow: Server;
  let slowUrl = '';
  let inFlight = 0;
  let mostInFlight = 0;
  beforeAll(async () => {
    // An upstream that answers after 150 ms and counts how many requests it holds at once.
    slow = createServer((req, res) => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, { 'content-type': 'text/plain' }).end(`slow ${req.url}`);
      }, 150);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await runtime.close();
    await new Promise((resolve) => slow.close(resolve));
  });

  const run = (script: string, env: Record<string, unknown> = {}, key = 'test') => runtime.invoke({ key, script, request: post, env });

  it('runs a Workers-format script with Request, Response, Headers, URL, TextEncoder/TextDecoder and env', async () => {
    const answer = await run(
      `export default { async fetch(request, env, context) {
        const body = await request.json();
        const url = new URL(request.url);
        const headers = new Headers({ 'X-One': '1' });
        headers.append('x-one', '2');
        const roundTrip = new TextDecoder().decode(new TextEncoder().encode('héllo ✓'));
        context.waitUntil(Promise.resolve());
        console.log('handled', body.type);
        return Response.json({ type: body.type, path: url.pathname, method: request.method, one: headers.get('x-one'), roundTrip, secret: env.secrets.KEY }, { status: 201 });
      } }`,
      { secrets: { KEY: 'k-1' } },
    );
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body)).toEqual({ type: 'installation_setup', path: '/integrations/x/integration', method: 'POST', one: '1, 2', roundTrip: 'héllo ✓', secret: 'k-1' });
    expect(answer.headers).toContainEqual(['content-type', 'application/json']);
    expect(answer.logs).toMatchObject([{ level: 'info', message: 'handled installation_setup' }]);
  });

  it('stops an endless loop after its CPU time while the server keeps answering', async () => {
    const looping = run('export default { fetch() { for (;;) {} } }');
    // The loop runs on a sandbox thread: the server's thread answers meanwhile.
    const started = Date.now();
    const health = await request(h.current.app).get('/health');
    expect(health.status).toBe(200);
    const answeredWhileLooping = Date.now() - started;
    await expect(looping).rejects.toThrow('more than 500 ms of CPU time');
    expect(answeredWhileLooping).toBeLessThan(10_000); // not a timing assertion: it would be never if the thread were blocked
    // A loop at load time is stopped too, and the runtime runs the next script normally.
    await expect(run('for (;;) {}')).rejects.toThrow('CPU time');
    expect((await run('export default { fetch() { return new Response("after") } }')).body).toBe('after');
  });

  it('stops a script that allocates past its memory limit', async () => {
    const huge = run('export default { fetch() { const all = []; for (;;) all.push(new Array(100000).fill(1.5)); } }');
    await expect(huge).rejects.toThrow('out of memory');
    // A string built by repeated growth (the case QuickJS's own accounting misses) is held too.
    await expect(run("export default { fetch() { const all = []; for (;;) all.push('y'.repeat(1 << 20)); } }")).rejects.toThrow(/out of memory/);
    await expect(run('export default { fetch() { const big = new Array(20_000_000).fill(1.5); return new Response(String(big.length)) } }')).rejects.toThrow('out of memory');
  });

  it('reports out of memory when QuickJS runs out of it while making the error itself (it throws null then)', async () => {
    // Small objects made after an await fill the memory slowly: a runtime with time enough to get there.
    const patient = new ScriptRuntime({ ...DEFAULT_LIMITS, cpuMs: 20_000 }, { threads: 1 });
    try {
      await expect(
        patient.invoke({ key: 'oom', script: 'export default { async fetch() { await 0; const all = []; for (;;) all.push({ a: [1] }); } }', request: post, env: {} }),
      ).rejects.toThrow('InternalError: out of memory');
    } finally {
      await patient.close();
    }
  });

  it('reports a script that throws, answers no Response, or never settles', async () => {
    await expect(run("export default { async fetch() { throw new Error('boom') } }")).rejects.toThrow('Error: boom');
    await expect(run('export default { fetch() { return "text" } }')).rejects.toThrow('must return a Response');
    await expect(run('export default { fetch() { return new Promise(() => {}) } }')).rejects.toThrow('never settled');
    await expect(run('export const nothing = 1;')).rejects.toThrow('no default export');
  });

  it('ends every invocation without QuickJS aborting: a fetch left unawaited, many objects made after an await, out of memory', async () => {
    // The sandbox thread's output reaches this process's stderr: QuickJS reports a runtime freed with
    // objects still alive there ("Aborted(Assertion failed: list_empty(&rt->gc_obj_list)…").
    const written: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      written.push(String(chunk));
      return write(chunk, ...rest);
    }) as typeof process.stderr.write;
    try {
      const unawaited = await run(`export default { fetch() { fetch('${slowUrl}/late'); return new Response('early') } }`);
      expect(unawaited.body).toBe('early');
      await expect(run(`export default { fetch() { fetch('${slowUrl}/late'); throw new Error('gone') } }`)).rejects.toThrow('Error: gone');
      // With the default CPU time: on a loaded machine these 200,000 objects may take more than the 500 ms of the limit tests.
      const roomy = new ScriptRuntime(DEFAULT_LIMITS, { threads: 1 });
      try {
        const many = await roomy.invoke({ key: 'many', script: 'export default { async fetch() { await 0; const a = []; for (let i = 0; i < 200000; i++) a.push({ i }); return new Response(String(a.length)) } }', request: post, env: {} });
        expect(many.body).toBe('200000');
      } finally {
        await roomy.close();
      }
      await expect(run('export default { async fetch() { await 0; const all = []; for (;;) all.push(new Array(100000).fill({ a: 1 })); } }')).rejects.toThrow('out of memory');
      // The late fetches are answered after their invocations ended (150 ms): nothing is resolved into a dropped sandbox.
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect((await run('export default { fetch() { return new Response("next") } }')).body).toBe('next');
    } finally {
      process.stderr.write = write;
    }
    expect(written.join('')).not.toContain('Aborted');
  });

  it('has no file system, process or imports (timers are the sandbox\'s own)', async () => {
    await expect(run("import fs from 'fs'; export default { fetch() { return new Response('x') } }")).rejects.toThrow('Imports are not available');
    await expect(run("import fs from 'node:fs'; export default { fetch() { return new Response('x') } }")).rejects.toThrow('Imports are not available');
    await expect(run("import * as std from 'std'; export default { fetch() { return new Response(std.loadFile('/etc/passwd')) } }")).rejects.toThrow('Imports are not available');
    const globals = await run(
      "export default { fetch() { return new Response([typeof process, typeof require, typeof std, typeof os, typeof __host, typeof Deno, typeof Bun].join(',')) } }",
    );
    expect(globals.body).toBe('undefined,undefined,undefined,undefined,undefined,undefined,undefined');
  });

  it('fetches only through the outbound guard: private addresses are refused', async () => {
    const previous = process.env.ALLOW_PRIVATE_FETCH;
    process.env.ALLOW_PRIVATE_FETCH = 'false';
    try {
      const answer = await run(
        `export default { async fetch() {
          const tried = [];
          for (const url of ['http://169.254.169.254/latest/meta-data', '${slowUrl}/', 'http://10.0.0.1/']) {
            try { await fetch(url); tried.push('reached ' + url); } catch (e) { tried.push(String(e.message)); }
          }
          return Response.json(tried);
        } }`,
      );
      const tried = JSON.parse(answer.body) as string[];
      expect(tried).toHaveLength(3);
      for (const line of tried) expect(line).toContain('not a public address');
    } finally {
      process.env.ALLOW_PRIVATE_FETCH = previous;
    }
  });

  it("sends and reads bytes in a script's own fetch", async () => {
    // An upstream answering the bytes it received, each plus one.
    const echo = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([...Buffer.concat(chunks)].map((b) => (b + 1) & 255))));
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/`;
      const answer = await run(
        `export default { async fetch() {
          const r = await fetch('${url}', { method: 'POST', body: new Uint8Array([0xff, 0x00, 0xc3, 0x27]) });
          return Response.json([...new Uint8Array(await r.arrayBuffer())]);
        } }`,
      );
      expect(JSON.parse(answer.body)).toEqual([0x00, 0x01, 0xc4, 0x28]);
    } finally {
      await new Promise((resolve) => echo.close(resolve));
    }
  });

  describe('warm sandboxes', () => {
    // A module-level counter tells whether an invocation ran in the sandbox of the one before (it
    // persists between the invocations a sandbox serves, as in Workers) or in a fresh one (it starts at 1).
    const counting = `let count = 0;
      export default { async fetch(request, env) {
        count++;
        if (env.act === 'loop') for (;;) {}
        if (env.act === 'oom') { const all = []; for (;;) all.push(new Array(100000).fill(1.5)); }
        if (env.act === 'throw') throw new Error('thrown');
        if (env.act === 'big') new Uint8Array(30 << 20);
        return Response.json({ count, secret: env.secrets && env.secrets.KEY, seen: typeof globalThis.env, globals: Object.keys(globalThis).sort().join() });
      } }`;
    const count = async (key: string, env: Record<string, unknown> = {}) => JSON.parse((await run(counting, env, key)).body) as { count: number; secret?: string; seen: string; globals: string };

    it('runs the right script when a thread forgot the scripts it was sent (more than it keeps)', async () => {
      // A sandbox thread keeps the text of the last scripts it was sent, and is sent a script only once: past
      // what it keeps it forgets them all, and the next invocations carry theirs again.
      const keys = Array.from({ length: 40 }, () => unique('many'));
      const source = (i: number) => `export default { fetch() { return new Response('script ${i}') } }`;
      for (const [i, key] of keys.entries()) expect((await run(source(i), {}, key)).body).toBe(`script ${i}`);
      for (const i of [0, 39, 5]) expect((await run(source(i), {}, keys[i])).body).toBe(`script ${i}`);
    });

    it('serves the next invocation of the same integration and script in the sandbox of the one before', async () => {
      const key = unique('warm');
      expect((await count(key)).count).toBe(1);
      expect((await count(key)).count).toBe(2);
      expect((await count(key)).count).toBe(3);
      // Another integration with the same script has sandboxes of its own.
      expect((await count(unique('other'))).count).toBe(1);
      // The integration publishes another script: a fresh sandbox runs it.
      const changed = await run(`${counting}\n// v2`, {}, key);
      expect(JSON.parse(changed.body).count).toBe(1);
    });

    it('discards a sandbox stopped for its CPU time, its memory or an exception, or grown large: the next invocation starts clean', async () => {
      for (const act of ['loop', 'oom', 'throw']) {
        const key = unique(`discard-${act}`);
        expect((await count(key)).count).toBe(1);
        expect((await count(key)).count).toBe(2);
        await expect(run(counting, { act }, key)).rejects.toThrow(act === 'loop' ? 'CPU time' : act === 'oom' ? 'out of memory' : 'Error: thrown');
        expect((await count(key)).count).toBe(1);
      }
      // One that ended well but grew its memory past half the limit (a 30 MiB buffer; it would hold the memory while waiting) is not kept either.
      const key = unique('discard-big');
      expect((await count(key)).count).toBe(1);
      expect((await count(key, { act: 'big' })).count).toBe(2);
      expect((await count(key)).count).toBe(1);
    });

    it("hands each invocation its own env: two installations' secrets on one warm sandbox each see their own", async () => {
      const key = unique('env');
      const first = await count(key, { secrets: { KEY: 'secret-of-a' } });
      const second = await count(key, { secrets: { KEY: 'secret-of-b' } });
      const third = await count(key, {});
      // One sandbox served all three (the counter went on) ...
      expect([first.count, second.count, third.count]).toEqual([1, 2, 3]);
      // ... and each saw only the env it was given; the runtime keeps none of it in the sandbox's globals.
      expect([first.secret, second.secret, third.secret]).toEqual(['secret-of-a', 'secret-of-b', undefined]);
      expect([first.seen, second.seen, third.seen]).toEqual(['undefined', 'undefined', 'undefined']);
      expect(second.globals).toBe(first.globals);
      expect(third.globals).toBe(first.globals);
      expect(first.globals).not.toMatch(/secret|env/i);
    });
  });

  it('runs at most perIntegration invocations of one integration at once; the others wait their turn', async () => {
    mostInFlight = 0;
    const script = `export default { async fetch() { const r = await fetch('${slowUrl}/one'); return new Response(await r.text()) } }`;
    const answers = await Promise.all(Array.from({ length: 6 }, () => run(script, {}, 'busy')));
    expect(answers.map((a) => a.body)).toEqual(Array(6).fill('slow /one'));
    expect(mostInFlight).toBe(2);
  });
});

/** Reads an answer's body as its bytes (supertest would parse it by its content type). */
function binaryParser(res: request.Response, done: (err: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

describe('public endpoints', () => {
  let owner: Account;
  let name: string;
  let installationId: string;
  const script = `export default { async fetch(request, env) {
    const url = new URL(request.url);
    return Response.json({
      method: request.method,
      path: url.pathname,
      query: url.searchParams.get('q'),
      body: await request.text(),
      header: request.headers.get('x-custom'),
      forged: request.headers.get('x-integration-event'),
      installationId: env.installationId ?? null,
      configuration: env.configuration,
      spaceConfiguration: env.spaceConfiguration ?? null,
    }, { status: url.pathname.endsWith('/teapot') ? 418 : 200, headers: { 'x-from-script': 'yes' } });
  } }`;

  beforeAll(async () => {
    owner = await h.current.newAdmin();
    name = unique('endpoint');
    await publishAs(owner, name, { script, contentSecurityPolicy: { 'script-src': "'self'", 'frame-ancestors': "'none'" } });
    const installed = await owner.api.post(`/integrations/${name}/installations`, { organization: owner.organizationId });
    expect(installed.status).toBe(200);
    installationId = installed.body.id;
    expect((await owner.api.patch(`/integrations/${name}/installations/${installationId}`, { configuration: { plan: 'pro' } })).status).toBe(200);
  });

  it("hands a request to the installation's public endpoint to the script, with the integration's CSP on the answer", async () => {
    const installation = (await owner.api.get(`/integrations/${name}/installations/${installationId}`)).body;
    const endpoint = new URL(installation.urls.publicEndpoint);
    expect(endpoint.pathname).toBe(`/integrations/${name}/installations/${installationId}/integration`);
    const res = await request(h.current.app)
      .post(`${endpoint.pathname}/hooks/teapot?q=1`)
      .set('content-type', 'text/plain')
      .set('x-custom', 'c')
      .set('x-integration-event', 'installation_setup')
      .send('hello');
    expect(res.status).toBe(418);
    expect(res.headers['content-security-policy']).toBe("script-src 'self'; frame-ancestors 'none'");
    expect(res.headers['x-from-script']).toBe('yes');
    expect(res.body).toEqual({
      method: 'POST',
      path: `/integrations/${name}/installations/${installationId}/integration/hooks/teapot`,
      query: '1',
      body: 'hello',
      header: 'c',
      forged: null,
      installationId,
      configuration: { plan: 'pro' },
      spaceConfiguration: null,
    });
    // Its content endpoint (where the webframes of its blocks are read) is the same endpoint, run by the script for
    // this installation with the integration's CSP: no separate content origin here.
    expect(installation.urls.publicContentEndpoint).toBe(installation.urls.publicEndpoint);
    const content = await request(h.current.app).get(`${new URL(installation.urls.publicContentEndpoint).pathname}/frame`);
    expect(content.status).toBe(200);
    expect(content.headers['content-security-policy']).toBe("script-src 'self'; frame-ancestors 'none'");
    expect(content.body).toMatchObject({ method: 'GET', path: `${endpoint.pathname}/frame`, installationId, configuration: { plan: 'pro' } });
    // The integration's own endpoint (no installation) answers too.
    const integration = (await owner.api.get(`/integrations/${name}`)).body;
    const root = await request(h.current.app).get(new URL(integration.urls.publicEndpoint).pathname);
    expect(root.status).toBe(200);
    expect(root.body).toMatchObject({ method: 'GET', installationId: null, configuration: {} });
  });

  it('serves the endpoint of a space installation with its configuration, and 404 for one that does not exist', async () => {
    const space = (await owner.api.post(`/orgs/${owner.organizationId}/spaces`, { title: 'Endpoint' })).body;
    const base = `/integrations/${name}/installations/${installationId}/spaces`;
    expect((await request(h.current.app).get(`${base}/${space.id}/integration`)).status).toBe(404);
    const installed = await owner.api.post(base, { space: space.id });
    expect(installed.status).toBe(201);
    expect((await owner.api.patch(`${base}/${space.id}`, { configuration: { board: 'b-1' } })).status).toBe(200);
    const res = await request(h.current.app).get(new URL(installed.body.urls.publicEndpoint).pathname);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ installationId, spaceConfiguration: { board: 'b-1' } });
    // Its content endpoint is the same one, and answers for this space installation as well.
    const read = await owner.api.get(`${base}/${space.id}`);
    expect(read.status).toBe(200);
    expect(read.body.urls.publicContentEndpoint).toBe(installed.body.urls.publicEndpoint);
    const content = await request(h.current.app).get(new URL(read.body.urls.publicContentEndpoint).pathname);
    expect(content.status).toBe(200);
    expect(content.body).toMatchObject({ installationId, spaceConfiguration: { board: 'b-1' } });
    // A site installation's too.
    const site = await owner.api.post(`/orgs/${owner.organizationId}/sites`, { title: 'Endpoint site' });
    expect(site.status).toBe(201);
    const onSite = await owner.api.post(`/integrations/${name}/installations/${installationId}/sites`, { siteId: site.body.id });
    expect(onSite.status).toBe(201);
    expect(onSite.body.urls.publicContentEndpoint).toBe(onSite.body.urls.publicEndpoint);
    const siteContent = await request(h.current.app).get(new URL(onSite.body.urls.publicContentEndpoint).pathname);
    expect(siteContent.status).toBe(200);
    expect(siteContent.body).toMatchObject({ method: 'GET', installationId, path: new URL(onSite.body.urls.publicEndpoint).pathname });
    expect((await request(h.current.app).get(`/integrations/${name}/installations/ins_unknown/integration`)).status).toBe(404);
    expect((await request(h.current.app).get(`/integrations/no-such-integration/integration`)).status).toBe(404);
  });

  it('hands a binary body to the script as its bytes, and sends the bytes a script answers', async () => {
    const binary = unique('binary');
    // The script answers the bytes it received, reversed, and says how it saw them.
    await publishAs(owner, binary, {
      script: `export default { async fetch(request) {
        const bytes = new Uint8Array(await request.arrayBuffer());
        const reversed = new Uint8Array(bytes.length);
        for (let i = 0; i < bytes.length; i++) reversed[i] = bytes[bytes.length - 1 - i];
        return new Response(reversed, { headers: { 'content-type': 'application/octet-stream', 'x-length': String(bytes.length), 'x-first': String(bytes[0]) } });
      } }`,
    });
    // A PNG signature and every byte value: not UTF-8.
    const sent = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(Array.from({ length: 256 }, (_, i) => i))]);
    const res = await request(h.current.app).post(`/integrations/${binary}/integration`).set('content-type', 'image/png').send(sent).buffer(true).parse(binaryParser);
    expect(res.status).toBe(200);
    expect(res.headers['x-length']).toBe(String(sent.length));
    expect(res.headers['x-first']).toBe('137');
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(Buffer.compare(res.body as Buffer, Buffer.from(sent).reverse())).toBe(0);

    // A literal Uint8Array answer, and text bodies read as bytes (UTF-8) still answered as text.
    const literal = unique('literal');
    await publishAs(owner, literal, {
      script: `export default { async fetch(request) {
        if (request.method === 'PUT') return new Response(new Uint8Array(await request.arrayBuffer()));
        return new Response(new Uint8Array([0, 255, 128, 10, 0xc3]));
      } }`,
    });
    const fixed = await request(h.current.app).get(`/integrations/${literal}/integration`).buffer(true).parse(binaryParser);
    expect(fixed.status).toBe(200);
    expect([...(fixed.body as Buffer)]).toEqual([0, 255, 128, 10, 0xc3]);
    const text = await request(h.current.app).put(`/integrations/${literal}/integration`).set('content-type', 'text/plain').send('héllo ✓').buffer(true).parse(binaryParser);
    expect(text.status).toBe(200);
    expect((text.body as Buffer).toString('utf8')).toBe('héllo ✓');
  });

  it('forwards requests to the development tunnel in development mode, signed, with the tunnel answer and the CSP', async () => {
    // The developer's tunnel: records what it receives and answers 201 with bytes.
    const received: { method: string; url: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];
    const tunnel = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(201, { 'content-type': 'application/octet-stream', 'x-from-tunnel': 'yes' }).end(Buffer.from([1, 2, 0xff]));
      });
    });
    await new Promise<void>((resolve) => tunnel.listen(0, '127.0.0.1', resolve));
    const tunnelUrl = `http://127.0.0.1:${(tunnel.address() as AddressInfo).port}/tunnel?k=1`;
    try {
      const dev = unique('devfetch');
      await publishAs(owner, dev, {
        visibility: 'public',
        script: 'export default { fetch() { return new Response("from the script") } }',
        secrets: { SIGNING_SECRET: 'dev-secret' },
        contentSecurityPolicy: "default-src 'none'",
      });
      const installed = await owner.api.post(`/integrations/${dev}/installations`, { organization: owner.organizationId });
      expect(installed.status).toBe(200);
      const endpoint = new URL(installed.body.urls.publicEndpoint).pathname;
      expect((await owner.api.put(`/integrations/${dev}/dev`, { tunnelUrl })).status).toBe(204);

      const sent = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xc3]);
      const res = await request(h.current.app)
        .post(`${endpoint}/hooks/x?q=2`)
        .set('content-type', 'image/png')
        .set('x-custom', 'c')
        .set('x-integration-event', 'installation_setup')
        .send(sent)
        .buffer(true)
        .parse(binaryParser);
      expect(res.status).toBe(201);
      expect([...(res.body as Buffer)]).toEqual([1, 2, 0xff]);
      expect(res.headers['x-from-tunnel']).toBe('yes');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'");
      expect(received).toHaveLength(1);
      const [got] = received;
      expect(got.method).toBe('POST');
      expect(got.url).toBe('/tunnel/hooks/x?k=1&q=2');
      expect(Buffer.compare(got.body, sent)).toBe(0);
      expect(got.headers['content-type']).toBe('image/png');
      expect(got.headers['x-custom']).toBe('c');
      // The request's own x-integration-* headers are dropped; the forwarding names the event id and the installation.
      expect(got.headers['x-integration-event']).toBeUndefined(); // as production hands the request to the script
      expect(got.headers['x-integration-event-id']).toMatch(/^evt_/);
      expect(got.headers['x-integration-installation-id']).toBe(installed.body.id);
      // Signed as event deliveries are: the HMAC of "<t>.<body bytes>" with the integration's secret.
      const signature = String(got.headers['x-integration-signature']);
      expect(verifySignature('dev-secret', got.body, signature, new Date())).toBe(true);
      expect(verifySignature('dev-secret', Buffer.from('other'), signature, new Date())).toBe(false);
      expect(verifySignature('another-secret', got.body, signature, new Date())).toBe(false);

      // A request of another organization's installation goes to the script (development mode without `all`)…
      const other = await h.current.newAdmin();
      const elsewhere = await other.api.post(`/integrations/${dev}/installations`, { organization: other.organizationId });
      expect(elsewhere.status).toBe(200);
      const scripted = await request(h.current.app).get(new URL(elsewhere.body.urls.publicEndpoint).pathname);
      expect(scripted.status).toBe(200);
      expect(scripted.text).toBe('from the script');
      expect(received).toHaveLength(1);
      // …and to the tunnel with `all`.
      expect((await owner.api.put(`/integrations/${dev}/dev`, { tunnelUrl, all: true })).status).toBe(204);
      const forwarded = await request(h.current.app).get(new URL(elsewhere.body.urls.publicEndpoint).pathname);
      expect(forwarded.status).toBe(201);
      expect(received).toHaveLength(2);
      expect(received[1]).toMatchObject({ method: 'GET', url: '/tunnel?k=1' });
      expect(received[1].headers['x-integration-installation-id']).toBe(elsewhere.body.id);

      // A tunnel that cannot be reached answers 502 with the reason.
      await new Promise((resolve) => tunnel.close(resolve));
      const down = await request(h.current.app).get(endpoint);
      expect(down.status).toBe(502);
      expect(down.body.error.message).toContain('development tunnel failed');
    } finally {
      if (tunnel.listening) await new Promise((resolve) => tunnel.close(resolve));
    }
  });

  it('runs the requests of two installations in one warm sandbox, each with its own configuration and token', async () => {
    const shared = unique('shared');
    await publishAs(owner, shared, {
      script: `let count = 0;
        export default { fetch(request, env) {
          count++;
          return Response.json({ count, installationId: env.installationId, configuration: env.configuration, token: env.apiTokens.installation, globals: Object.keys(globalThis).length });
        } }`,
    });
    // Installations in two organizations.
    const endpoints: string[] = [];
    for (const [who, admin] of [['a', owner], ['b', await h.current.newAdmin()]] as const) {
      const installed = await admin.api.post(`/integrations/${shared}/installations`, { organization: admin.organizationId });
      expect(installed.status).toBe(200);
      expect((await admin.api.patch(`/integrations/${shared}/installations/${installed.body.id}`, { configuration: { who } })).status).toBe(200);
      endpoints.push(installed.body.id);
    }
    const answers = [];
    for (const id of [endpoints[0], endpoints[1], endpoints[0], endpoints[1]]) {
      const res = await request(h.current.app).get(`/integrations/${shared}/installations/${id}/integration`);
      expect(res.status).toBe(200);
      answers.push(res.body);
    }
    // One sandbox served them in turn ...
    expect(answers.map((a) => a.count)).toEqual([answers[0].count, answers[0].count + 1, answers[0].count + 2, answers[0].count + 3]);
    // ... and each request saw its own installation, configuration and token, nothing of the other's.
    expect(answers.map((a) => [a.installationId, a.configuration.who])).toEqual([
      [endpoints[0], 'a'],
      [endpoints[1], 'b'],
      [endpoints[0], 'a'],
      [endpoints[1], 'b'],
    ]);
    expect(answers[0].token).toMatch(/^dwit_/);
    expect(answers[1].token).not.toBe(answers[0].token);
    expect(answers[2].token).toBe(answers[0].token);
    expect(new Set(answers.map((a) => a.globals)).size).toBe(1);
  });

  it('sees a change at the next request: a new publication, the owner, the installation (v2 environment)', async () => {
    // What the server keeps between requests (the script's text by hash; the integration, its owner and the
    // installation by their stamps) must not outlive a change of any of them.
    const kept = unique('kept');
    const v2 = (mark: string) => `export default { async fetch(request) {
      const form = await request.formData();
      const env = JSON.parse(form.get('environment'));
      return Response.json({ mark: '${mark}', title: env.integration.title, owner: env.integration.owner.title, configuration: env.installation.configuration, selection: env.installation.site_selection });
    } }`;
    await publishAs(owner, kept, { runtime: 'v2', script: v2('first'), title: 'Kept' });
    const installed = await owner.api.post(`/integrations/${kept}/installations`, { organization: owner.organizationId });
    expect(installed.status).toBe(200);
    const path = `/integrations/${kept}/installations/${installed.body.id}/integration`;
    const read = async () => {
      const res = await request(h.current.app).get(path);
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    const orgTitle = (await owner.api.get(`/orgs/${owner.organizationId}`)).body.title;
    expect(await read()).toEqual({ mark: 'first', title: 'Kept', owner: orgTitle, configuration: {}, selection: 'selected' });
    expect(await read()).toMatchObject({ mark: 'first' });
    await publishAs(owner, kept, { runtime: 'v2', script: v2('second'), title: 'Kept again' });
    expect(await read()).toMatchObject({ mark: 'second', title: 'Kept again' });
    expect((await owner.api.patch(`/integrations/${kept}/installations/${installed.body.id}`, { configuration: { plan: 'team' }, site_selection: 'all' })).status).toBe(200);
    expect(await read()).toMatchObject({ mark: 'second', configuration: { plan: 'team' }, selection: 'all' });
    expect((await owner.api.patch(`/orgs/${owner.organizationId}`, { title: 'Renamed owner' })).status).toBe(200);
    expect(await read()).toMatchObject({ owner: 'Renamed owner' });
    // The first script again (its hash known from before): run, not the one held last.
    await publishAs(owner, kept, { runtime: 'v2', script: v2('first'), title: 'Kept' });
    expect(await read()).toMatchObject({ mark: 'first', title: 'Kept' });
  });

  it('answers 502 with the reason when the script fails', async () => {
    const failing = unique('failing');
    await publishAs(owner, failing, { script: "export default { fetch() { throw new Error('broken') } }" });
    const res = await request(h.current.app).get(`/integrations/${failing}/integration`);
    expect(res.status).toBe(502);
    expect(res.body.error.message).toContain('Error: broken');
  });
});
