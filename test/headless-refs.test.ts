// Links to spaces and mentions of users on the published site, and the link checker agreeing with it: a
// space links to its URL on this site, else on a site publishing it, else to its app URL; a user mention is
// their name; what resolves to nothing is text, never a dead link, and the checker reports it broken.
import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';
import { hrefs, open, publish, spaceWithPages } from './published-support.js';
import { newSite, sitePath } from './sites-support.js';

const h = useHarness();

const text = (t: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] });
const link = (ref: object, words: string) => ({ object: 'inline', type: 'link', data: { ref }, nodes: [text(words)] });
const mention = (ref: object) => ({ object: 'inline', type: 'mention', isVoid: true, data: { ref } });

describe('spaces and users referred to from a published page', () => {
  it('render as links that work and names; the link checker reports what leads nowhere', async () => {
    const admin = await h.current.newAdmin();
    const me = await admin.api.get('/user');
    expect(me.status).toBe(200);
    const name: string = me.body.displayName;
    const sister = await spaceWithPages(admin, 'Sister', [{ title: 'Start', markdown: 'Sister start.' }]);
    const other = await spaceWithPages(admin, 'Other', [{ title: 'Start', markdown: 'Other start.' }]);
    const draft = await spaceWithPages(admin, 'Draft', [{ title: 'Start', markdown: 'Draft start.' }]);
    const stranger = await h.current.newAdmin();
    const strangersSpace = await spaceWithPages(stranger, 'Elsewhere', [{ title: 'Start', markdown: 'Not ours.' }]);

    const guides = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Guides' });
    expect(guides.status).toBe(201);
    const cr = await admin.api.post(`/spaces/${guides.body.id}/change-requests`);
    expect(cr.status).toBe(201);
    const document = {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'paragraph',
          nodes: [
            text('See '),
            link({ kind: 'space', space: sister }, 'the sister space'),
            text(', '),
            link({ kind: 'space', space: other }, 'the other site'),
            text(', '),
            link({ kind: 'space', space: draft }, 'the draft space'),
            text(', '),
            link({ kind: 'space', space: strangersSpace }, 'a stranger'),
            text(' and '),
            link({ kind: 'space', space: 'spc_01NOTHINGHERE0000000000' }, 'nothing'),
            text('. Ask '),
            mention({ kind: 'user', user: admin.userId }),
            text(' or '),
            mention({ kind: 'user', user: stranger.userId }),
            text('.'),
          ],
        },
      ],
    };
    const written = await admin.api.post(`/spaces/${guides.body.id}/change-requests/${cr.body.id}/content`, {
      changes: [{ operation: 'insert_page', title: 'Home', slug: 'home', document: { document } }],
    });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    expect((await admin.api.post(`/spaces/${guides.body.id}/change-requests/${cr.body.id}/merge`)).status).toBe(200);

    const site = await newSite(admin, { title: 'Docs', spaces: [guides.body.id, sister] });
    const url: string = (await publish(admin, site.id)).urls.published;
    const otherSite = await newSite(admin, { title: 'Other docs', spaces: [other] });
    const otherUrl: string = (await publish(admin, otherSite.id)).urls.published;
    const siteSpaces = (await admin.api.get(`${sitePath(admin, site.id)}/site-spaces`)).body.items as { id: string; path: string; space: { id: string } }[];
    const guidesPath = siteSpaces.find((s) => s.space.id === guides.body.id)!.path;
    const sisterPath = siteSpaces.find((s) => s.space.id === sister)!.path;

    const page = await open(h.current, `${url}/${guidesPath}/home`);
    expect(page.status).toBe(200);
    const links = hrefs(page.text);
    const base = new URL(url).pathname;
    // The sister space on this site; the other space on its own site; the draft space at its app URL.
    expect(links).toContain(`${base}/${sisterPath}`);
    expect(links.some((l) => l.startsWith(otherUrl))).toBe(true);
    expect(links.some((l) => l.endsWith(`/s/${draft}`))).toBe(true);
    expect(page.text).toMatch(/<a href="[^"]*">the sister space<\/a>/);
    // A user mention is their name; what resolves to nothing (another organization's space and user, no space) is text.
    const chip = (who: string) => `<span class="mention mention-user"><span aria-hidden="true" class="mention-kind">@</span><span>${who}</span></span>`;
    expect(page.text).toContain(`Ask ${chip(name)} or ${chip('unknown user')}.`);
    expect(page.text).toContain('a stranger');
    expect(page.text).not.toMatch(/<a[^>]*>a stranger<\/a>/);
    expect(page.text).not.toMatch(/<a[^>]*>nothing<\/a>/);
    expect(links).not.toContain('');
    expect(page.text).not.toContain(stranger.userId);
    expect(page.text).not.toContain(admin.userId);

    // The sister link leads to a page the site serves, the other site's too.
    expect([200, 302]).toContain((await open(h.current, `${url}/${sisterPath}`)).status);
    expect([200, 302]).toContain((await open(h.current, links.find((l) => l.startsWith(otherUrl))!)).status);

    // The link checker agrees: what the site shows as a link is ok, what it shows as text is broken.
    const checked = await admin.api.get(`/spaces/${guides.body.id}/links`);
    expect(checked.status).toBe(200);
    const statusOf = (target: object) => checked.body.items.find((i: { targetReference: object }) => JSON.stringify(i.targetReference) === JSON.stringify(target))?.status;
    expect(statusOf({ kind: 'space', space: sister })).toBe('ok');
    expect(statusOf({ kind: 'space', space: other })).toBe('ok');
    expect(statusOf({ kind: 'space', space: draft })).toBe('ok');
    expect(statusOf({ kind: 'space', space: strangersSpace })).toBe('broken');
    expect(statusOf({ kind: 'space', space: 'spc_01NOTHINGHERE0000000000' })).toBe('broken');
    expect(statusOf({ kind: 'user', user: admin.userId })).toBe('ok');
    expect(statusOf({ kind: 'user', user: stranger.userId })).toBe('broken');
    expect(checked.body.stats.broken.total).toBe(3);

    // An open change request naming the stranger's space: counted broken in the change requests, as the site would show it.
    const pending = await admin.api.post(`/spaces/${guides.body.id}/change-requests`);
    expect(pending.status).toBe(201);
    const home = (await admin.api.get(`/spaces/${guides.body.id}/content/pages`)).body.pages[0].id;
    const edit = await admin.api.post(`/spaces/${guides.body.id}/change-requests/${pending.body.id}/content`, {
      changes: [{ operation: 'update_page', page: home, document: { document: { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [link({ kind: 'space', space: strangersSpace }, 'x'), link({ kind: 'space', space: sister }, 'y')] }] } } }],
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    const withOpen = await admin.api.get(`/spaces/${guides.body.id}/links`);
    expect(withOpen.status).toBe(200);
    expect(withOpen.body.stats.broken.changeRequest).toBe(1);
    const pageLinks = await admin.api.get(`/spaces/${guides.body.id}/content/page/${home}/links`);
    expect(pageLinks.status).toBe(200);
    expect(pageLinks.body.stats.broken).toEqual({ total: 3, changeRequest: 1 });
    const inRequest = await admin.api.get(`/spaces/${guides.body.id}/change-requests/${pending.body.id}/content/page/${home}/links`);
    expect(inRequest.status).toBe(200);
    expect(inRequest.body.stats.broken.total).toBe(1);
  });
});
