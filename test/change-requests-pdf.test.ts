import { inflateSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { changeRequestPdfs } from '../server/db/schema/index.js';
import type { Account } from './support/harness.js';
import { PUBLIC_URL, useHarness } from './support/harness.js';

const h = useHarness();

/**
 * The text a PDF shows, read back from its (Flate-compressed) content streams: pdfkit writes each line
 * as a `[<hex> kerning <hex> …] TJ` array in WinAnsi, so joining the hex strings of an array gives the line.
 */
function pdfText(pdf: Buffer): string {
  const lines: string[] = [];
  const raw = pdf.toString('latin1');
  for (const match of raw.matchAll(/stream\r?\n([\s\S]*?)endstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(match[1], 'latin1')).toString('latin1');
    } catch {
      continue; // not a compressed content stream (fonts, metadata)
    }
    for (const array of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      lines.push([...array[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((hex) => Buffer.from(hex[1], 'hex').toString('latin1')).join(''));
    }
  }
  return lines.join('\n');
}

/** The outline (bookmarks) of a PDF as nested titles, following its /First and /Next references. */
function outline(pdf: Buffer): unknown[] {
  const raw = pdf.toString('latin1');
  const objects = new Map([...raw.matchAll(/(\d+) 0 obj\s*<<([\s\S]*?)>>\s*endobj/g)].map((m) => [m[1], m[2]]));
  const ref = (dict: string | undefined, key: string) => dict && new RegExp(`/${key} (\\d+) 0 R`).exec(dict)?.[1];
  const walk = (first: string | undefined): unknown[] => {
    const items: unknown[] = [];
    for (let id = first; id; id = ref(objects.get(id), 'Next')) {
      const dict = objects.get(id);
      const title = /\/Title \(([^)]*)\)/.exec(dict ?? '')?.[1];
      const children = walk(ref(dict, 'First'));
      items.push(children.length ? [title, children] : title);
    }
    return items;
  };
  const catalog = [...objects.values()].find((d) => /\/Type \/Catalog/.test(d));
  return walk(ref(objects.get(ref(catalog, 'Outlines') ?? ''), 'First'));
}

async function download(url: string) {
  expect(url.startsWith(`${PUBLIC_URL}/v1/pdf/`)).toBe(true);
  const res = await request(h.current.app).get(url.slice(PUBLIC_URL.length)).buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
  return { status: res.status, headers: res.headers, body: res.body as Buffer };
}

async function changeRequestWithPages(admin: Account) {
  const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Handbook' })).body;
  const cr = (await admin.api.post(`/spaces/${space.id}/change-requests`, { subject: 'Onboarding' })).body;
  const res = await admin.api.post(`/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
    changes: [
      {
        operation: 'insert_page',
        ref: 'intro',
        title: 'Introduction',
        document: { markdown: '# Introduction\n\nWelcome to the **handbook**. See [the site](https://example.com).\n\n- first point\n- second point\n' },
      },
      { operation: 'insert_page', into: 'intro', title: 'First week', document: { markdown: 'Meet the team.\n\n```sh\nmake setup\n```' } },
      { operation: 'insert_page', title: 'Holidays', document: { markdown: '## Booking\n\n1. Ask your lead\n2. Book it\n\nRead [the introduction](intro) first.\n\n| Days | Notice |\n|---|---|\n| 1-3 | a week |' } },
    ],
  });
  const [intro, firstWeek, holidays] = res.body.changes.map((c: { page: { id: string } }) => c.page.id);
  return { space, cr, pages: { intro, firstWeek, holidays }, base: `/spaces/${space.id}/change-requests/${cr.id}/pdf` };
}

describe('getChangeRequestPDF', () => {
  it('get /spaces/{spaceId}/change-requests/{changeRequestId}/pdf answers a link to a real PDF of all the pages, opened without a token', async () => {
    const admin = await h.current.newAdmin();
    const { base } = await changeRequestWithPages(admin);
    const res = await admin.api.get(base);
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(/\/v1\/pdf\/[^/]+\/crq_[^/]+\.pdf\?token=[A-Za-z0-9_-]{43}$/);

    const pdf = await download(res.body.url);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['referrer-policy']).toBe('no-referrer');
    expect(pdf.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.body.subarray(-6).toString('latin1')).toContain('%%EOF');
    // A title page, then one PDF page per content page.
    expect(pdf.body.toString('latin1').match(/\/Type \/Page\b/g)).toHaveLength(4);
    const text = pdfText(pdf.body);
    for (const expected of ['Change request #1: Onboarding', 'Space: Handbook', 'Introduction', 'handbook', 'first point', 'First week', 'make setup', 'Holidays', 'Ask your lead']) {
      expect(text).toContain(expected);
    }
    // Tables print their cells (not Markdown's pipes); links stay links: to the web, and to a page of the PDF.
    expect(text).toContain('Notice');
    expect(text).toContain('a week');
    expect(text).not.toContain('|');
    const raw = pdf.body.toString('latin1');
    expect(raw).toContain('/URI (https://example.com)');
    expect(raw).toMatch(/\/Dest \(page-pag_[0-9A-Z]+\)|\/D \(page-pag_[0-9A-Z]+\)/);
    // The page tree is the outline, in reading order.
    expect(outline(pdf.body)).toEqual([['Introduction', ['First week']], 'Holidays']);
    // Rendered once per link: the next download is the same file, to its generation time.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await download(res.body.url)).body.equals(pdf.body)).toBe(true);
  });

  it('get /spaces/{spaceId}/change-requests/{changeRequestId}/pdf with page and only=true renders that page alone; page alone starts there', async () => {
    const admin = await h.current.newAdmin();
    const { base, pages } = await changeRequestWithPages(admin);
    const only = await download((await admin.api.get(base, { page: pages.firstWeek, only: 'true' })).body.url);
    expect(only.status).toBe(200);
    expect(pdfText(only.body)).toContain('First week');
    expect(pdfText(only.body)).not.toContain('Holidays');
    expect(pdfText(only.body)).not.toContain('Introduction');

    const from = await download((await admin.api.get(base, { page: pages.firstWeek })).body.url);
    expect(outline(from.body)).toEqual(['First week', 'Holidays']);
  });

  it('get /spaces/{spaceId}/change-requests/{changeRequestId}/pdf pins the content of the moment the link was made, by number too', async () => {
    const admin = await h.current.newAdmin();
    const { space, cr, base } = await changeRequestWithPages(admin);
    const url = (await admin.api.get(`/spaces/${space.id}/change-requests/${cr.number}/pdf`)).body.url;
    await admin.api.post(`/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
      changes: [{ operation: 'insert_page', title: 'Expenses', document: { markdown: 'Keep receipts.' } }],
    });
    expect(pdfText((await download(url)).body)).not.toContain('Expenses');
    expect(pdfText((await download((await admin.api.get(base)).body.url)).body)).toContain('Expenses');
  });

  it('a tampered PDF link answers 404 and an expired one 410', async () => {
    const admin = await h.current.newAdmin();
    const { base } = await changeRequestWithPages(admin);
    const url = new URL((await admin.api.get(base)).body.url);
    const token = url.searchParams.get('token')!;
    const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const at = (path: string, t: string) => `${PUBLIC_URL}${path}?token=${t}`;
    expect((await download(at(url.pathname, flipped))).status).toBe(404);
    expect((await download(at(url.pathname, ''))).status).toBe(404);
    // The token of this change request does not open another one's path.
    const other = await changeRequestWithPages(admin);
    const otherPath = new URL((await admin.api.get(other.base)).body.url).pathname;
    expect((await download(at(otherPath, token))).status).toBe(404);
    expect((await download(url.toString())).status).toBe(200);

    h.current.advanceClock(61 * 60 * 1000);
    const expired = await download(url.toString());
    expect(expired.status).toBe(410);
    expect(JSON.parse(expired.body.toString()).error.code).toBe(410);
    // A link expired for more than a day is forgotten when the next one is issued: then unknown (404).
    h.current.advanceClock(24 * 60 * 60 * 1000);
    expect((await download(url.toString())).status).toBe(410);
    expect((await admin.api.get(base)).status).toBe(200);
    expect((await download(url.toString())).status).toBe(404);
  });

  it('get /spaces/{spaceId}/change-requests/{changeRequestId}/pdf answers 404 for an unknown change request or page, 400 for only without page', async () => {
    const admin = await h.current.newAdmin();
    const { space, base } = await changeRequestWithPages(admin);
    expect((await admin.api.get(`/spaces/${space.id}/change-requests/crq_missing/pdf`)).status).toBe(404);
    const page = await admin.api.get(base, { page: 'pag_missing' });
    expect(page.status).toBe(404);
    expect(page.body.error.message).toContain('query.page');
    const only = await admin.api.get(base, { only: 'true' });
    expect(only.status).toBe(400);
    expect(only.body.error.message).toContain('page');
  });

  it('get /spaces/{spaceId}/change-requests/{changeRequestId}/pdf stores no link for a caller it refuses, nor for a missing change request or page', async () => {
    const admin = await h.current.newAdmin();
    const { space, cr, pages, base } = await changeRequestWithPages(admin);
    const stored = async () => (await h.current.db.select().from(changeRequestPdfs).where(eq(changeRequestPdfs.spaceId, space.id))).length;
    const stranger = await h.current.newAdmin();
    expect((await stranger.api.get(base)).status).toBe(404);
    expect((await stranger.api.get(base, { page: pages.intro })).status).toBe(404);
    // A guest of the organization has no role on the space: not found either.
    const guest = await h.current.newMember(admin.organizationId, null);
    expect((await guest.api.get(base)).status).toBe(404);
    expect((await admin.api.get(`/spaces/${space.id}/change-requests/crq_missing/pdf`)).status).toBe(404);
    expect((await admin.api.get(base, { page: 'pag_missing' })).status).toBe(404);
    expect(await stored()).toBe(0);
    // A reader of the space gets a link (by the change request's number too), and each is stored.
    const reader = await h.current.newMember(admin.organizationId, 'read');
    expect((await reader.api.get(base)).status).toBe(200);
    expect((await reader.api.get(`/spaces/${space.id}/change-requests/${cr.number}/pdf`, { page: pages.holidays, only: 'true' })).status).toBe(200);
    expect(await stored()).toBe(2);
    // Once the space is deleted, nobody gets one.
    expect((await admin.api.delete(`/spaces/${space.id}`)).status).toBe(204);
    expect((await admin.api.get(base)).status).toBe(404);
    expect(await stored()).toBe(2);
  });

  it('get /spaces/{spaceId}/change-requests/{changeRequestId}/pdf prints annotations as footnotes: [n] after the text, linking to the note after the page', async () => {
    const admin = await h.current.newAdmin();
    const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Glossary' })).body;
    const cr = (await admin.api.post(`/spaces/${space.id}/change-requests`, { subject: 'Terms' })).body;
    const written = await admin.api.post(`/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
      changes: [
        {
          operation: 'insert_page',
          title: 'Terms',
          document: { markdown: 'A space[^1] holds pages; a site[^2] publishes them.\n\n[^1]: A set of **pages** with one history.\n\n[^2]: Published at its own address.\n    \n    - with its own theme\n' },
        },
      ],
    });
    expect(written.status).toBe(200);
    const pageId = written.body.changes[0].page.id;
    const document = await admin.api.get(`/spaces/${space.id}/change-requests/${cr.id}/content/page/${pageId}`, { format: 'document' });
    expect(document.status).toBe(200);
    expect(JSON.stringify(document.body.document)).toContain('"annotation"');

    const res = await admin.api.get(`/spaces/${space.id}/change-requests/${cr.id}/pdf`);
    expect(res.status).toBe(200);
    const pdf = await download(res.body.url);
    expect(pdf.status).toBe(200);
    // pdfText gives each run of text its own line: the page's text is their concatenation.
    const text = pdfText(pdf.body).replace(/\n/g, '');
    expect(text).toContain('A space[1]');
    expect(text).toContain('a site[2]');
    // The notes follow the page's content, numbered, their marks and lists kept.
    expect(text.indexOf('[1] A set')).toBeGreaterThan(text.indexOf('publishes them.'));
    expect(text).toContain('[1] A set of pages with one history.');
    expect(text).toContain('[2] Published at its own address.');
    expect(text.indexOf('with its own theme')).toBeGreaterThan(text.indexOf('[2] Published'));
    expect(text).not.toContain('[^');
    // Each reference is a link to its note's place in the PDF.
    const raw = pdf.body.toString('latin1');
    for (const n of [1, 2]) expect(raw).toContain(`(note-${pageId}-${n})`);
  });

  it('a PDF link stops working when its space is deleted', async () => {
    const admin = await h.current.newAdmin();
    const { space, base } = await changeRequestWithPages(admin);
    const url = (await admin.api.get(base)).body.url;
    expect((await admin.api.delete(`/spaces/${space.id}`)).status).toBe(204);
    expect((await download(url)).status).toBe(404);
  });
});
