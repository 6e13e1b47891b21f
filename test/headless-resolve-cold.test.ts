// URL resolution by a process that holds nothing of what the URL leads to (issue 52, one round trip per read):
// the site, the page trees its path can lead to and the redirects that could match it come in the statement
// that finds the site (server/headless/resolution-along.ts), and the answer is the one given once they are held.
// Each URL is resolved after the site's spaces got new revisions this process forgot, so the site is read anew
// and no tree is held. On either storage.
import { decodeJwt } from 'jose';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createApp } from '../server/app.js';
import { forgetRevision } from '../server/content/revisions.store.js';
import { send } from './support/api.js';
import { PUBLIC_URL, useHarness, type Account } from './support/harness.js';
import { publish, spaceWithPages } from './published-support.js';
import { enableAdaptiveContent, mergeChanges, newSite, signVisitorToken, sitePath } from './sites-support.js';

const h = useHarness();

/**
 * A published adaptive site: Alpha at its root, a section API over Beta with a second site space Gamma (whose
 * page Secret is for beta users), a wildcard redirect to Gamma and one out of the site.
 */
async function sectionedSite(admin: Account) {
  const alpha = await spaceWithPages(admin, 'Alpha', [{ title: 'Intro', markdown: 'Alpha intro.' }, { title: 'Setup', markdown: 'Alpha setup.' }]);
  const beta = await spaceWithPages(admin, 'Beta', [{ title: 'Intro', markdown: 'Beta intro.' }]);
  const gamma = await spaceWithPages(admin, 'Gamma', [{ title: 'Intro', markdown: 'Gamma intro.' }]);
  await mergeChanges(admin, gamma, [{ operation: 'insert_page', title: 'Secret', document: { markdown: 'For beta users.' }, condition: 'visitor.claims.isBetaUser' }]);
  const site = await newSite(admin, { title: 'Docs', spaces: [alpha] });
  const section = await admin.api.post(`${sitePath(admin, site.id)}/sections`, { spaceId: beta, title: 'API' });
  expect(section.status, JSON.stringify(section.body)).toBe(200);
  const variant = await admin.api.post(`${sitePath(admin, site.id)}/site-spaces`, { spaceId: gamma, sectionId: section.body.id });
  expect(variant.status, JSON.stringify(variant.body)).toBe(200);
  await enableAdaptiveContent(admin, site.id);
  const redirects = `${sitePath(admin, site.id)}/redirects`;
  expect((await admin.api.post(redirects, { source: '/old/*', captureWildcard: true, destination: { kind: 'site-space', siteSpaceId: variant.body.id } })).status).toBe(201);
  expect((await admin.api.post(redirects, { source: '/gone', destination: { kind: 'external', url: 'https://example.com/gone' } })).status).toBe(201);
  const url: string = (await publish(admin, site.id)).urls.published;
  const key: string = (await admin.api.get(`${sitePath(admin, site.id)}/publishing/auth`)).body.privateKey;
  const sections = await admin.api.get(`${sitePath(admin, site.id)}/sections`);
  expect(sections.status).toBe(200);
  const api = (sections.body.items as { id: string; path: string; siteSpaces: { id: string; path: string }[] }[]).find((s) => s.id === section.body.id)!;
  const gammaPath = (api.siteSpaces.find((s) => s.id === variant.body.id) ?? variant.body).path as string;
  return { spaces: [alpha, beta, gamma], url, key, api: api.path, gamma: gammaPath };
}

describe('URL resolution with nothing held', () => {
  it('reads the site, the trees its path can lead to and the redirects that could match it in one statement, answering as when they are held', async () => {
    const admin = await h.current.newAdmin();
    const { spaces, url, key, api, gamma } = await sectionedSite(admin);
    const beta = await signVisitorToken({ isBetaUser: true }, key);
    const counted: number[] = [];
    const app = createApp({
      db: h.current.db,
      logger: pino({ level: 'silent' }),
      publicUrl: PUBLIC_URL,
      onStatements: (operationId, statements) => {
        if (operationId === 'getPublishedContentByUrl') counted.push(statements);
      },
    });
    const lookup = async (path: string, visitorAuthToken?: string) => {
      counted.length = 0;
      const res = await send(app, 'get', '/v1/urls/published', { token: admin.token, query: { url: `${url}${path}`, ...(visitorAuthToken && { visitorAuthToken }) } });
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(counted).toHaveLength(1);
      return { body: res.body as Record<string, unknown>, statements: counted[0] };
    };
    /** The answer without its token, and the token's claims without its times (a token is signed anew each second). */
    const comparable = (body: Record<string, unknown>) => {
      const { apiToken, ...rest } = body;
      if (typeof apiToken !== 'string') return rest;
      const { iat: _iat, exp: _exp, ...claims } = decodeJwt(apiToken);
      return { ...rest, claims };
    };

    let round = 0;
    const cases: [string, string?][] = [
      [''],
      [`/${api}`],
      [`/${api}/${gamma}`],
      [`/${api}/${gamma}/intro`],
      [`/${api}/${gamma}/secret`],
      [`/${api}/${gamma}/secret`, beta],
      [`/${api}/intro`],
      ['/old/some/where'],
      ['/gone'],
      ['/nowhere'],
    ];
    const answers: unknown[] = [];
    for (const [path, token] of cases) {
      // New revisions of every space, which this process then forgets: the site is read anew, and no tree is held.
      round++;
      for (const space of spaces) {
        await mergeChanges(admin, space, [{ operation: 'insert_page', title: `Filler ${round}`, document: { markdown: 'Filler.' } }]);
        const current = await admin.api.get(`/spaces/${space}/content`);
        expect(current.status).toBe(200);
        forgetRevision(current.body.id);
      }
      const cold = await lookup(path, token);
      expect(cold.statements, `${path}: statements with nothing held`).toBe(1);
      const held = await lookup(path, token);
      expect(held.statements, `${path}: statements with everything held`).toBeLessThanOrEqual(1);
      expect(comparable(cold.body), path).toEqual(comparable(held.body));
      answers.push(comparable(cold.body));
    }
    // What the paths lead to, so that the comparison above compares answers of every kind.
    expect(answers.map((a) => (a as { page?: string; redirect?: string; target?: string }).target ?? ((a as { page?: string }).page ? 'page' : 'site'))).toEqual([
      'page', 'page', 'page', 'page', 'site', 'page', 'page', 'content', 'external', 'site',
    ]);
  });
});
