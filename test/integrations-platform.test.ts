// The Web platform integration scripts find in the sandbox (server/runtime/prelude*.mjs): each global
// checked against what Node's own implementation gives, and the limits holding for the new parts
// (timers within the deadline, waitUntil after the answer within the same limits).
import { createHash, createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, ScriptRuntime, type ScriptRequest } from '../server/runtime/script-runtime.js';

const post: ScriptRequest = { method: 'POST', url: 'https://api.test.example/integrations/x/integration', headers: [['content-type', 'text/plain']], body: 'hello' };

describe('the platform inside the sandbox', () => {
  const runtime = new ScriptRuntime({ ...DEFAULT_LIMITS, cpuMs: 1_000, wallMs: 3_000 }, { threads: 1 });
  let upstream: Server;
  let upstreamUrl = '';
  beforeAll(async () => {
    // Echoes what it is sent; /slow answers after 500 ms.
    upstream = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ type: req.headers['content-type'] ?? null, body: Buffer.concat(chunks).toString('latin1') }));
        if (req.url === '/slow') setTimeout(answer, 500);
        else answer();
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await runtime.close();
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });

  /** Runs `body` as the inside of an async fetch(request, env, ctx) and returns what it answers as JSON. */
  async function evaluate(body: string, request: ScriptRequest = post) {
    const answer = await runtime.invoke({ key: `p-${Math.random()}`, script: `export default { async fetch(request, env, ctx) { ${body} } }`, request, env: {} });
    return { ...answer, json: () => JSON.parse(answer.body) };
  }

  it('crypto.subtle signs and verifies HMAC and digests SHA as Node does, refuses what workerd lacks; getRandomValues and randomUUID', async () => {
    const { json } = await evaluate(`
      const enc = new TextEncoder();
      const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');
      const key = await crypto.subtle.importKey('raw', enc.encode('key'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
      const signature = await crypto.subtle.sign('HMAC', key, enc.encode('message'));
      const jwk = await crypto.subtle.importKey('jwk', { kty: 'oct', k: 'a2V5' }, { name: 'HMAC', hash: { name: 'SHA-512' } }, true, ['sign']);
      const generated = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, true, ['sign']);
      const digests = {};
      for (const name of ['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512']) digests[name] = hex(await crypto.subtle.digest(name, enc.encode('abc')));
      let refused = '';
      // Node has Ed448; workerd does not, so neither does the sandbox.
      try { await crypto.subtle.generateKey({ name: 'Ed448' }, false, ['sign', 'verify']); } catch (e) { refused = e.name; }
      const bytes = crypto.getRandomValues(new Uint8Array(32));
      return Response.json({
        hmac: hex(signature),
        verified: await crypto.subtle.verify('HMAC', key, signature, enc.encode('message')),
        forged: await crypto.subtle.verify('HMAC', key, signature, enc.encode('other')),
        sha512: hex(await crypto.subtle.sign('HMAC', jwk, enc.encode('message'))),
        exported: hex(await crypto.subtle.exportKey('raw', generated)).length,
        digests, refused,
        random: bytes.some((b) => b !== 0),
        uuid: crypto.randomUUID(),
      });
    `);
    const got = json();
    expect(got.hmac).toBe(createHmac('sha256', 'key').update('message').digest('hex'));
    expect(got).toMatchObject({ verified: true, forged: false, refused: 'NotSupportedError', random: true, exported: 128 });
    expect(got.sha512).toBe(createHmac('sha512', 'key').update('message').digest('hex'));
    for (const [name, node] of [['SHA-1', 'sha1'], ['SHA-256', 'sha256'], ['SHA-384', 'sha384'], ['SHA-512', 'sha512']]) {
      expect(got.digests[name]).toBe(createHash(node).update('abc').digest('hex'));
    }
    expect(got.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('FormData goes out as multipart and comes back through Request.formData(); Blob, File, atob/btoa, TextDecoder', async () => {
    const { json } = await evaluate(`
      const form = new FormData();
      form.append('event', JSON.stringify({ type: 'x' }));
      form.append('file', new File([new Uint8Array([0, 255, 1])], 'a.bin', { type: 'application/octet-stream' }));
      form.set('name', 'first');
      const sent = await fetch('${'${UPSTREAM}'}/echo', { method: 'POST', body: form });
      const echoed = await sent.json();
      const back = await new Request('https://x.invalid/', { method: 'POST', body: form }).formData();
      const file = back.get('file');
      const urlencoded = await new Response(new URLSearchParams({ a: '1 2', b: 'é' })).formData();
      return Response.json({
        multipart: echoed.type.startsWith('multipart/form-data; boundary='),
        hasParts: echoed.body.includes('name="event"') && echoed.body.includes('filename="a.bin"'),
        event: back.get('event'), name: back.get('name'),
        file: [file.name, file.type, file.size, [...new Uint8Array(await file.arrayBuffer())]],
        urlencoded: [urlencoded.get('a'), urlencoded.get('b')],
        blob: await new Blob(['ab', new Uint8Array([99])]).text(),
        base64: [btoa('hi\\u00ff'), atob('aGn/')],
        decoded: new TextDecoder().decode(new Uint8Array([0xef, 0xbb, 0xbf, 0xc3, 0xa9])),
      });
    `.replaceAll('${UPSTREAM}', upstreamUrl));
    expect(json()).toEqual({
      multipart: true,
      hasParts: true,
      event: '{"type":"x"}',
      name: 'first',
      file: ['a.bin', 'application/octet-stream', 3, [0, 255, 1]],
      urlencoded: ['1 2', 'é'],
      blob: 'abc',
      base64: ['aGn/', 'hi\u00ff'],
      decoded: 'é',
    });
  });

  it('a multipart body sent as text (as every v2 event is) gives the parts Node gives, files and non-ASCII text included', async () => {
    const boundary = '----bench-boundary';
    const text =
      `--${boundary}\r\nContent-Disposition: form-data; name="event"\r\n\r\n{"type":"fetch","note":"é ✓ 𝄞"}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="fetch-body"; filename="blob"\r\nContent-Type: text/plain\r\n\r\nline 1\r\nline 2 ü\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="empty"\r\n\r\n\r\n` +
      `--${boundary}--\r\n`;
    const contentType = `multipart/form-data; boundary=${boundary}`;
    const request: ScriptRequest = { method: 'POST', url: 'https://api.test.example/v1', headers: [['content-type', contentType]], body: text };
    const { json } = await evaluate(`
      const form = await request.formData();
      const file = form.get('fetch-body');
      return Response.json({ event: form.get('event'), file: [file.name, file.type, file.size, await file.text()], empty: form.get('empty'), names: [...form.keys()] });
    `, request);
    const node = await new Request('https://x.invalid/', { method: 'POST', headers: { 'content-type': contentType }, body: text }).formData();
    const nodeFile = node.get('fetch-body') as File;
    expect(json()).toEqual({
      event: node.get('event'),
      file: [nodeFile.name, nodeFile.type, nodeFile.size, await nodeFile.text()],
      empty: node.get('empty'),
      names: [...node.keys()],
    });
    expect(json().event).toBe('{"type":"fetch","note":"é ✓ 𝄞"}');
    // Not a form: refused as the bytes' parser refuses it.
    const broken = await runtime.invoke({ key: 'p-broken', script: 'export default { async fetch(r) { try { await r.formData(); return new Response("parsed"); } catch (e) { return new Response(e.name + ": " + e.message); } } }', request: { ...request, body: `--${boundary}\r\nno end` }, env: {} });
    expect(broken.body).toBe('TypeError: Could not parse the body as multipart/form-data');
  });

  it('URL setters and searchParams, Headers, streamed bodies, structuredClone, queueMicrotask and timers', async () => {
    const { json, headers } = await evaluate(`
      const url = new URL('https://a.example/p?x=1');
      url.searchParams.set('y', 'two words');
      url.pathname = '/q';
      url.hash = 'h';
      const headers = new Headers({ 'X-A': '1' });
      headers.append('set-cookie', 'a=1');
      headers.append('set-cookie', 'b=2');
      const stream = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode('str')); c.enqueue('eam'); c.close(); } });
      const streamed = await new Response(stream).text();
      const chunks = [];
      for await (const chunk of new Response('abc').body) chunks.push(chunk.length);
      const original = { d: new Date(0), m: new Map([[1, { x: 1 }]]), a: [1, 2] };
      const copy = structuredClone(original);
      const order = [];
      queueMicrotask(() => order.push('micro'));
      await new Promise((resolve) => setTimeout(() => { order.push('timeout'); resolve(); }, 20));
      let ticks = 0;
      await new Promise((resolve) => { const id = setInterval(() => { if (++ticks === 3) { clearInterval(id); resolve(); } }, 5); });
      const cancelled = setTimeout(() => order.push('never'), 1);
      clearTimeout(cancelled);
      await new Promise((resolve) => setTimeout(resolve, 10));
      return new Response(JSON.stringify({
        url: url.href, params: [...url.searchParams.keys()], cookies: headers.getSetCookie(),
        streamed, chunks, clone: [copy.d instanceof Date, copy.m.get(1).x, copy.a !== original.a, copy.m !== original.m],
        order, ticks,
      }), { headers: [['content-type', 'application/json'], ['set-cookie', 'a=1'], ['set-cookie', 'b=2']] });
    `);
    expect(json()).toEqual({
      url: 'https://a.example/q?x=1&y=two+words#h',
      params: ['x', 'y'],
      cookies: ['a=1', 'b=2'],
      streamed: 'stream',
      chunks: [3],
      clone: [true, 1, true, true],
      order: ['micro', 'timeout'],
      ticks: 3,
    });
    expect(headers.filter(([k]) => k === 'set-cookie').map(([, v]) => v)).toEqual(['a=1', 'b=2']);
  });

  it('AbortController and AbortSignal.timeout end a fetch; the request arrives as bytes, text or JSON', async () => {
    const { json } = await evaluate(`
      const controller = new AbortController();
      const aborted = fetch('${'${UPSTREAM}'}/slow', { signal: controller.signal }).then(() => 'answered', (e) => e.name);
      controller.abort();
      const timedOut = await fetch('${'${UPSTREAM}'}/slow', { signal: AbortSignal.timeout(50) }).then(() => 'answered', (e) => e.name);
      return Response.json({ aborted: await aborted, timedOut, body: [...new Uint8Array(await request.arrayBuffer())].length, used: request.bodyUsed });
    `.replaceAll('${UPSTREAM}', upstreamUrl));
    expect(json()).toEqual({ aborted: 'AbortError', timedOut: 'TimeoutError', body: 5, used: true });
  });

  it('console lines go to the log; an error logs as V8 writes it (name and message first)', async () => {
    const answer = await evaluate(`
      class ApiError extends Error { constructor(m) { super(m); this.name = 'ApiError'; } }
      console.log('plain', { a: 1 });
      console.warn(new ApiError('refused'));
      console.error(new TypeError('bad').stack.split('\\n')[0]);
      return new Response('ok');
    `);
    expect(answer.logs.map((l) => [l.level, l.message.split('\n')[0]])).toEqual([
      ['info', 'plain {"a":1}'],
      ['warn', 'ApiError: refused'],
      ['error', 'TypeError: bad'],
    ]);
  });

  it('answers first, then finishes the work handed to waitUntil within the same limits', async () => {
    const answer = await evaluate(`
      ctx.waitUntil(new Promise((resolve) => setTimeout(() => { console.log('after the answer'); resolve(); }, 100)));
      console.log('answering');
      return new Response('early');
    `);
    expect(answer.body).toBe('early');
    expect(answer.settled).toBeDefined();
    const settled = await answer.settled!;
    expect(settled.error).toBeUndefined();
    expect(settled.logs.map((l) => l.message)).toEqual(['answering', 'after the answer']);

    // Work past the deadline is stopped, and the reason is what settles it.
    const endless = await evaluate(`
      ctx.waitUntil(new Promise(() => setInterval(() => {}, 50)));
      return new Response('early');
    `);
    expect(endless.body).toBe('early');
    expect((await endless.settled!).error).toContain('did not finish within 3000 ms');
    // And a spinning loop after the answer still meets the CPU limit.
    const spinning = await evaluate(`
      ctx.waitUntil(new Promise((resolve) => setTimeout(resolve, 10)).then(() => { for (;;) {} }));
      return new Response('early');
    `);
    expect(spinning.body).toBe('early');
    expect((await spinning.settled!).error).toContain('ms of CPU time');
  }, 20_000);

  it('a timer that keeps the handler waiting past the deadline fails the invocation', async () => {
    await expect(evaluate('await new Promise((resolve) => setTimeout(resolve, 60_000)); return new Response("late");')).rejects.toThrow('did not finish within 3000 ms');
  });
});

// The deadline is a limit only if it holds whatever the machine does: with the sandbox thread kept busy by
// another script, and with the server's own event loop held up, nothing is answered after it.
describe('the deadline under load', () => {
  const limits = { ...DEFAULT_LIMITS, cpuMs: 4_000, wallMs: 1_500 };
  const script = (body: string) => `export default { async fetch(request) { ${body} } }`;
  const get: ScriptRequest = { method: 'GET', url: 'https://x.example/', headers: [], body: '' };

  it('a script waiting on a timer fails at its deadline while another script holds the only sandbox thread', async () => {
    const runtime = new ScriptRuntime(limits, { threads: 1 });
    try {
      const waiting = runtime.invoke({ key: 'waits', script: script('await new Promise((resolve) => setTimeout(resolve, 60_000)); return new Response("late");'), request: get, env: {} });
      const outcome = waiting.then((r) => `answered ${r.status} ${r.body}`, (e: Error) => e.message);
      // Starves the thread: 3 s of guest code, twice the deadline, within the CPU limit.
      const spinning = runtime.invoke({ key: 'spins', script: script('const end = Date.now() + 3_000; while (Date.now() < end) {} return new Response("spun");'), request: get, env: {} });
      const spun = spinning.then((r) => `answered ${r.status} ${r.body}`, (e: Error) => e.message);
      expect(await outcome).toBe('The script did not finish within 1500 ms');
      // The spinning script ran past its own deadline too: it is not answered either.
      expect(await spun).toBe('The script did not finish within 1500 ms');
      // The thread serves the next invocation, once the spinning script's slice is over (it is stopped there).
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const next = await runtime.invoke({ key: 'waits', script: script('return new Response("fine");'), request: get, env: {} });
      expect(next.body).toBe('fine');
    } finally {
      await runtime.close();
    }
  }, 20_000);

  it("an answer the server's event loop reads only after the deadline is not used", async () => {
    const runtime = new ScriptRuntime(limits, { threads: 1 });
    try {
      // Warm: the thread is started, so that the invocation below is sent at once.
      expect((await runtime.invoke({ key: 'held', script: script('return new Response("warm");'), request: get, env: {} })).body).toBe('warm');
      const invoked = runtime.invoke({ key: 'held', script: script('await new Promise((resolve) => setTimeout(resolve, 200)); return new Response("in time in the sandbox");'), request: get, env: {} });
      const outcome = invoked.then((r) => `answered ${r.body}`, (e: Error) => e.message);
      // Holds this thread (the server's event loop) for longer than the deadline: the sandbox answers at
      // 200 ms, but the answer is read after the deadline has passed.
      await new Promise((resolve) => setTimeout(resolve, 20));
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2_000);
      expect(await outcome).toBe('The script did not finish within 1500 ms');
    } finally {
      await runtime.close();
    }
  }, 20_000);
});
