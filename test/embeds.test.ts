// What an embed shows (getEmbedByUrlInSpace) and how a published page shows it: a loopback server plays
// the providers (an oEmbed video, an oEmbed answer with a player from elsewhere, Open Graph and plain
// pages, and pages that cannot be embedded), counting the requests it gets so the cache is seen to work.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { embedOf, forgetEmbeds } from '../server/embeds/embeds.js';
import { open, publish, spaceWithPages } from './published-support.js';
import { newSite } from './sites-support.js';
import { useHarness, type Account } from './support/harness.js';

const h = useHarness();

let server: Server;
let origin: string;
const hits = new Map<string, number>();

const html = (head: string, body = '<p>Body.</p>') => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

const oembeds: Record<string, object> = {
  video: {
    type: 'video',
    version: '1.0',
    title: 'A talk about robots',
    provider_name: 'YouTube',
    thumbnail_url: 'https://i.ytimg.com/vi/abc/hqdefault.jpg',
    html: '<iframe src="https://www.youtube.com/embed/abc" width="560" height="315" onload="alert(1)" allowfullscreen></iframe><script>alert(2)</script>',
  },
  elsewhere: {
    type: 'rich',
    version: '1.0',
    title: 'Somebody\'s widget',
    provider_name: 'Widgets Inc',
    html: '<iframe src="https://widgets.example/frame"></iframe><a href="javascript:alert(1)">x</a>',
  },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    const page = (body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    switch (url.pathname) {
      case '/video':
      case '/elsewhere':
        return page(
          html(
            `<title>Not this title</title><link rel="alternate" type="application/json+oembed" href="/oembed?of=${url.pathname.slice(1)}"><link rel="icon" href="/favicon.png">`,
          ),
        );
      case '/oembed': {
        const answer = oembeds[url.searchParams.get('of') ?? ''];
        return answer ? res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)) : res.writeHead(404).end();
      }
      case '/article':
      case '/article-2':
        return page(
          html('<title>Fallback</title><meta property="og:title" content="Robots at home"><meta property="og:site_name" content="Acme Blog"><meta property="og:image" content="/cover.png">'),
        );
      case '/plain':
        return page(html('<title>\n  Just   a page\n</title>'));
      case '/huge':
        return page(html('<title>Huge</title>', 'x'.repeat(2 * 1024 * 1024)));
      case '/data.json':
        return res.writeHead(200, { 'content-type': 'application/json' }).end('{"title":"not html"}');
      default:
        return res.writeHead(404).end('no');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => forgetEmbeds());

async function spaceOf(admin: Account): Promise<string> {
  const res = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Embeds' });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function embed(admin: Account, spaceId: string, url: string) {
  const res = await admin.api.get(`/spaces/${spaceId}/embed`, { url });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('getEmbedByUrlInSpace', () => {
  it('uses the provider\'s oEmbed answer, its HTML sanitized and shown only for an allowed player', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await spaceOf(admin);
    const video = await embed(admin, spaceId, `${origin}/video`);
    expect(video).toMatchObject({ type: 'rich', title: 'A talk about robots', site: 'YouTube', icon: `${origin}/favicon.png` });
    expect(video.html).toContain('<iframe src="https://www.youtube.com/embed/abc"');
    expect(video.html).toContain('loading="lazy"');
    expect(video.html).not.toMatch(/onload|script|alert/);

    // A player from a provider not on the allow-list: a link card with what oEmbed says.
    const elsewhere = await embed(admin, spaceId, `${origin}/elsewhere`);
    expect(elsewhere).toEqual({ type: 'link', title: 'Somebody\'s widget', site: 'Widgets Inc', icon: `${origin}/favicon.png` });
  });

  it('falls back to Open Graph and the page\'s title; a page it cannot read is a link titled with its URL', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await spaceOf(admin);
    expect(await embed(admin, spaceId, `${origin}/article`)).toEqual({ type: 'link', title: 'Robots at home', site: 'Acme Blog', icon: `${origin}/cover.png` });
    expect(await embed(admin, spaceId, `${origin}/plain#section`)).toEqual({ type: 'link', title: 'Just a page', site: '127.0.0.1' });
    for (const path of ['/huge', '/data.json', '/missing']) {
      expect(await embed(admin, spaceId, `${origin}${path}`)).toEqual({ type: 'link', title: `${origin}${path}`, site: '127.0.0.1' });
    }
  });

  it('logs why a page could not be read, once per fetch, to the asker\'s logger', async () => {
    const warnings: { fields: object; message: string }[] = [];
    const log = { warn: (fields: object, message: string) => warnings.push({ fields, message }) };
    expect(await embedOf(`${origin}/missing`, log)).toEqual({ type: 'link', title: `${origin}/missing`, site: '127.0.0.1' });
    expect(await embedOf(`${origin}/data.json`, log)).toEqual({ type: 'link', title: `${origin}/data.json`, site: '127.0.0.1' });
    expect(await embedOf(`${origin}/missing`, log)).toEqual({ type: 'link', title: `${origin}/missing`, site: '127.0.0.1' }); // kept: not fetched, not logged again
    expect(warnings).toEqual([
      { fields: { url: `${origin}/missing`, reason: `${origin}/missing answered 404` }, message: 'embed: the page could not be read; shown as a link' },
      { fields: { url: `${origin}/data.json`, reason: expect.stringMatching(/is not an HTML page \(application\/json/) }, message: 'embed: the page could not be read; shown as a link' },
    ]);
  });

  it('keeps answers: asking again, or many at once, fetches the page once', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await spaceOf(admin);
    const before = hits.get('/plain') ?? 0;
    const answers = await Promise.all([1, 2, 3].map(() => embed(admin, spaceId, `${origin}/plain`)));
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    await embed(admin, spaceId, `${origin}/plain`);
    expect(hits.get('/plain')).toBe(before + 1);
  });

  it('goes through the outbound guard: a private address is not fetched without ALLOW_PRIVATE_FETCH', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await spaceOf(admin);
    const before = hits.get('/article-2') ?? 0;
    process.env.ALLOW_PRIVATE_FETCH = 'false';
    try {
      expect(await embed(admin, spaceId, `${origin}/article-2`)).toEqual({ type: 'link', title: `${origin}/article-2`, site: '127.0.0.1' });
    } finally {
      process.env.ALLOW_PRIVATE_FETCH = 'true';
    }
    expect(hits.get('/article-2') ?? 0).toBe(before);
  });

  it('refuses what is not an http(s) URL, naming the field (400); a space the caller cannot read is not found', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await spaceOf(admin);
    for (const url of ['ftp://example.com/file', 'not a url', 'javascript:alert(1)', 'http://user:secret@example.com/']) {
      const res = await admin.api.get(`/spaces/${spaceId}/embed`, { url });
      expect(res.status, url).toBe(400);
      expect(res.body.error.message).toContain('query.url');
    }
    expect((await admin.api.get(`/spaces/${spaceId}/embed`)).status).toBe(400);
    const outsider = await h.current.newAdmin();
    expect((await outsider.api.get(`/spaces/${spaceId}/embed`, { url: `${origin}/plain` })).status).toBe(404);
  });
});

describe('embed blocks on a published page', () => {
  it('show a card (title, provider, icon), the player only for an allowed provider, from the cache when known', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await spaceWithPages(admin, 'Media', [
      { title: 'Media', markdown: `Watch:\n\n{% embed url="${origin}/video" %}\n\n{% embed url="${origin}/article" %}\n\n{% embed url="${origin}/elsewhere" %}\n\n{% embed url="${origin}/missing" %}` },
    ]);
    // The video is known before the page is read (an editor's preview asked for it); the others are not.
    await embed(admin, spaceId, `${origin}/video`);
    const videoHits = hits.get('/oembed') ?? 0;
    const articleHits = hits.get('/article') ?? 0;

    const site = await newSite(admin, { title: 'Media site', spaces: [spaceId] });
    const published = await publish(admin, site.id);
    const res = await open(h.current, published.urls.published);
    expect(res.status).toBe(200);
    const page = res.text;

    // The player of the allowed provider, under its card.
    expect(page).toContain(
      '<div class="embed"><iframe src="https://www.youtube.com/embed/abc" title="A talk about robots" loading="lazy" allowfullscreen sandbox="allow-scripts allow-same-origin allow-popups allow-presentation" referrerpolicy="strict-origin-when-cross-origin">',
    );
    expect(page).toContain('<strong>A talk about robots</strong><span class="card-kind">YouTube</span>');
    // Open Graph: a link card with its image; the unknown provider's player is not shown, its card is.
    expect(page).toContain(`<a class="link-card" href="${origin}/article"><img src="${origin}/cover.png" alt="" loading="lazy"><strong>Robots at home</strong><span class="card-kind">Acme Blog</span></a>`);
    expect(page).toContain('<strong>Somebody\'s widget</strong>');
    expect(page).not.toContain('widgets.example');
    expect(page).not.toMatch(/onload|<script>alert/);
    // A page that cannot be read: its card titled with the URL.
    expect(page).toContain(`<strong>${origin}/missing</strong>`);

    // The known embed cost no request; the unknown one was fetched once, for the first rendering.
    expect(hits.get('/oembed')).toBe(videoHits + 1); // the `elsewhere` oEmbed answer only
    expect(hits.get('/article')).toBe(articleHits + 1);
    // The embeds are now known: the API answers them without fetching.
    await embed(admin, spaceId, `${origin}/article`);
    expect(hits.get('/article')).toBe(articleHits + 1);
  });
});
