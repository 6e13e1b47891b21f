// Outbound HTTP (server/http/outbound.ts): user-given URLs may not reach loopback, private, link-local or
// metadata addresses unless ALLOW_PRIVATE_FETCH=true, checked on the address connected to (a name such as
// `localhost` resolving to 127.0.0.1 is refused too); every call has a deadline and a size cap.
// vitest.config.ts sets ALLOW_PRIVATE_FETCH=true for the other tests; this file turns it off.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress, outboundRequest, outboundSend, OutboundFailed, OutboundTimeout, OutboundTooLarge, PrivateAddressRefused } from '../server/http/outbound.js';
import { drainOpenAPIJobs, petstoreYaml } from './support/matrix/openapi.js';
import { useHarness } from './support/harness.js';

const h = useHarness();
let server: Server;
let port: number;
let hits = 0;
const limits = { timeoutMs: 2000, maxBytes: 1024 };

beforeAll(async () => {
  process.env.ALLOW_PRIVATE_FETCH = 'false';
  server = createServer((req, res) => {
    hits++;
    if (req.url === '/pets.yaml') return void res.writeHead(200).end(petstoreYaml);
    if (req.url === '/slow') return void setTimeout(() => res.writeHead(200).end('late'), 1000);
    if (req.url === '/moved') return void res.writeHead(307, { location: '/echo' }).end();
    if (req.url === '/echo') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      return void req.on('end', () => res.writeHead(200).end(`${req.method} ${Buffer.concat(chunks).toString()}`));
    }
    if (req.url === '/big') return void res.writeHead(200, { 'content-length': '4096' }).end('x'.repeat(4096));
    if (req.url === '/big-chunked') {
      res.writeHead(200);
      for (let i = 0; i < 8; i++) res.write('y'.repeat(512));
      return void res.end();
    }
    res.writeHead(200).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  process.env.ALLOW_PRIVATE_FETCH = 'true';
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('outbound address policy', () => {
  it('classifies loopback, private, link-local, metadata, CGNAT and mapped addresses as not public', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.100.100.200', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00:ec2::254', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::7f00:1', '::808:808', '224.0.0.1', 'not-an-ip']) {
      expect({ address, public: isPublicAddress(address) }).toEqual({ address, public: false });
    }
    for (const address of ['8.8.8.8', '93.184.215.14', '2606:4700:4700::1111']) {
      expect({ address, public: isPublicAddress(address) }).toEqual({ address, public: true });
    }
  });

  it('refuses a user-given URL to an IP literal or to a name resolving to loopback, without connecting', async () => {
    const before = hits;
    for (const url of [`http://127.0.0.1:${port}/`, `http://localhost:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`]) {
      const attempt = outboundRequest(url, limits, { origin: 'user' });
      await expect(attempt).rejects.toBeInstanceOf(PrivateAddressRefused);
      await expect(attempt).rejects.toThrow(/not a public address/);
    }
    expect(hits).toBe(before);
  });

  it('lets operator-configured URLs, and user-given ones with ALLOW_PRIVATE_FETCH=true, through', async () => {
    expect((await outboundRequest(`http://localhost:${port}/`, limits, { origin: 'operator' })).body.toString()).toBe('ok');
    process.env.ALLOW_PRIVATE_FETCH = 'true';
    try {
      expect((await outboundRequest(`http://localhost:${port}/`, limits, { origin: 'user' })).status).toBe(200);
    } finally {
      process.env.ALLOW_PRIVATE_FETCH = 'false';
    }
  });

  it('gives up past the deadline, and past the size cap whether declared or streamed', async () => {
    await expect(outboundRequest(`http://127.0.0.1:${port}/slow`, { timeoutMs: 200, maxBytes: 1024 }, { origin: 'operator' })).rejects.toBeInstanceOf(OutboundTimeout);
    for (const pathname of ['/big', '/big-chunked']) {
      const attempt = outboundRequest(`http://127.0.0.1:${port}${pathname}`, limits, { origin: 'operator' });
      await expect(attempt).rejects.toBeInstanceOf(OutboundFailed);
      await expect(attempt).rejects.toThrow(/larger than 1024 bytes/);
    }
  });

  it('sends bytes with undici request (a Git fetch), following a redirect only when asked, within the size cap', async () => {
    const text = async (body: AsyncIterable<Uint8Array>) => {
      const chunks: Uint8Array[] = [];
      for await (const chunk of body) chunks.push(chunk);
      return Buffer.concat(chunks).toString();
    };
    const send = (pathname: string, redirect?: 'follow') =>
      outboundSend(`http://127.0.0.1:${port}${pathname}`, limits, { method: 'POST', headers: {}, body: Buffer.from('want abc'), origin: 'operator', ...(redirect && { redirect }) });
    const followed = await send('/moved', 'follow');
    expect(followed.status).toBe(200);
    // A 307 sends the same method and body again.
    expect(await text(followed.body)).toBe('POST want abc');
    const answered = await send('/moved');
    expect(answered.status).toBe(307);
    expect(answered.headers.get('location')).toBe('/echo');
    await text(answered.body);
    await expect(send('/big')).rejects.toBeInstanceOf(OutboundTooLarge);
    const chunked = await send('/big-chunked');
    await expect(text(chunked.body)).rejects.toThrow(/larger than 1024 bytes/);
  });
});

describe('OpenAPI source URLs with ALLOW_PRIVATE_FETCH off', () => {
  it('records a FETCH_ERROR naming the refused address for localhost, and never reaches the local server', async () => {
    const admin = await h.current.newAdmin();
    const before = hits;
    for (const [slug, url] of [
      ['by-name', `http://localhost:${port}/pets.yaml`],
      ['by-address', `http://127.0.0.1:${port}/pets.yaml`],
      ['metadata', 'http://169.254.169.254/latest/meta-data/'],
    ]) {
      expect((await admin.api.post(`/orgs/${admin.organizationId}/openapi`, { slug, source: { url } })).status).toBe(201);
      await drainOpenAPIJobs(h.current);
      const spec = (await admin.api.get(`/orgs/${admin.organizationId}/openapi/${slug}`)).body;
      expect(spec).toMatchObject({ processingState: 'complete', lastProcessErrorCode: 'FETCH_ERROR' });
      expect(spec.lastProcessedErrors[0].message).toMatch(/is not a public address \(set ALLOW_PRIVATE_FETCH=true/);
      expect(spec.lastVersion).toBeUndefined();
    }
    expect(hits).toBe(before);
  });
});
