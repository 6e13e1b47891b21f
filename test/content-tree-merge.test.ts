// Merge below the top level (server/content/merge-blocks.ts): two change requests that add different items
// to one list, edit different cells of one table, or change different children of one container merge;
// the same list item or cell changed on both sides is a 409 naming the page and the node's path, and the
// space keeps what it had.
import { describe, expect, it } from 'vitest';
import { useHarness, type Account } from './support/harness.js';

const h = useHarness();

async function openChangeRequest(admin: Account, spaceId: string): Promise<string> {
  const res = await admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'Edit' });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function write(admin: Account, spaceId: string, crId: string, changes: unknown[]) {
  const res = await admin.api.post(`/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, { changes });
  expect(res.status).toBe(200);
  return res.body as { changes: { page: { id: string } }[] };
}

async function spaceWithPage(admin: Account, markdown: string) {
  const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' });
  expect(space.status).toBe(201);
  const cr = await openChangeRequest(admin, space.body.id);
  const done = await write(admin, space.body.id, cr, [{ operation: 'insert_page', title: 'Guide', document: { markdown } }]);
  expect((await admin.api.post(`/spaces/${space.body.id}/change-requests/${cr}/merge`)).status).toBe(200);
  return { spaceId: space.body.id as string, pageId: done.changes[0].page.id };
}

async function markdownOf(admin: Account, spaceId: string, pageId: string): Promise<string> {
  const res = await admin.api.get(`/spaces/${spaceId}/content/page/${pageId}`, { format: 'markdown' });
  expect(res.status).toBe(200);
  return res.body.markdown;
}

/** Two change requests from the same base, each editing the page; the first merged. The second's merge answer. */
async function mergeBoth(admin: Account, spaceId: string, pageId: string, first: string, second: string) {
  const a = await openChangeRequest(admin, spaceId);
  const b = await openChangeRequest(admin, spaceId);
  await write(admin, spaceId, a, [{ operation: 'update_page', page: pageId, document: { markdown: first } }]);
  await write(admin, spaceId, b, [{ operation: 'update_page', page: pageId, document: { markdown: second } }]);
  expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${a}/merge`)).status).toBe(200);
  return admin.api.post(`/spaces/${spaceId}/change-requests/${b}/merge`);
}

const items = Array.from({ length: 30 }, (_, i) => `- Step ${i + 1} of the setup`);
const list = (lines: string[]) => `# Setup\n\n${lines.join('\n')}`;
const table = (rows: string[][]) => ['| Option | Default |', '| ------ | ------- |', ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');

describe('merge inside lists, tables and containers', () => {
  it('post …/merge merges two change requests that add different items to the same 30-item list', async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, pageId } = await spaceWithPage(admin, list(items));
    const first = [...items.slice(0, 5), '- An extra step from the first', ...items.slice(5)];
    const second = [...items.slice(0, 20), '- An extra step from the second', ...items.slice(20)];
    const merged = await mergeBoth(admin, spaceId, pageId, list(first), list(second));
    expect(merged.status).toBe(200);
    expect(await markdownOf(admin, spaceId, pageId)).toBe(list([...items.slice(0, 5), '- An extra step from the first', ...items.slice(5, 20), '- An extra step from the second', ...items.slice(20)]));
  });

  it('post …/merge merges edits of different items of one list, and refuses the same item edited on both sides (409 naming the page and the path)', async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, pageId } = await spaceWithPage(admin, list(items));
    const edited = (i: number, by: string) => items.map((line, n) => (n === i ? `${line}, edited by ${by}` : line));
    const ok = await mergeBoth(admin, spaceId, pageId, list(edited(2, 'the first')), list(edited(25, 'the second')));
    expect(ok.status).toBe(200);
    const now = await markdownOf(admin, spaceId, pageId);
    expect(now).toContain('- Step 3 of the setup, edited by the first');
    expect(now).toContain('- Step 26 of the setup, edited by the second');

    const current = now.split('\n').slice(2);
    const again = (by: string) => list(current.map((line, n) => (n === 10 ? `${line}, changed by ${by}` : line)));
    const refused = await mergeBoth(admin, spaceId, pageId, again('one'), again('another'));
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain(`page "Guide" (${pageId})`);
    // The list, its eleventh item, the item's paragraph.
    expect(refused.body.error.message).toContain('(at nodes[1].nodes[10].nodes[0])');
    expect(await markdownOf(admin, spaceId, pageId)).toContain('- Step 11 of the setup, changed by one');
  });

  it('post …/merge merges edits of different cells of one table and refuses the same cell edited on both sides', async () => {
    const admin = await h.current.newAdmin();
    const rows = [['timeout', '30 s'], ['retries', '3'], ['region', 'eu']];
    const { spaceId, pageId } = await spaceWithPage(admin, table(rows));
    const withCell = (r: number, c: number, value: string) => table(rows.map((row, i) => row.map((cell, j) => (i === r && j === c ? value : cell))));
    const ok = await mergeBoth(admin, spaceId, pageId, withCell(0, 1, '60 s'), withCell(2, 1, 'us'));
    expect(ok.status).toBe(200);
    const merged = await markdownOf(admin, spaceId, pageId);
    expect(merged).toMatch(/\| timeout +\| 60 s +\|/);
    expect(merged).toMatch(/\| region +\| us +\|/);

    // Same row, different cells: merged too.
    const base = [['timeout', '60 s'], ['retries', '3'], ['region', 'us']];
    const cell = (r: number, c: number, value: string) => table(base.map((row, i) => row.map((v, j) => (i === r && j === c ? value : v))));
    expect((await mergeBoth(admin, spaceId, pageId, cell(1, 0, 'attempts'), cell(1, 1, '5'))).status).toBe(200);
    expect(await markdownOf(admin, spaceId, pageId)).toMatch(/\| attempts +\| 5 +\|/);

    const final = [['timeout', '60 s'], ['attempts', '5'], ['region', 'us']];
    const same = (value: string) => table(final.map((row, i) => (i === 0 ? [row[0], value] : row)));
    const refused = await mergeBoth(admin, spaceId, pageId, same('90 s'), same('120 s'));
    expect(refused.status).toBe(409);
    // The table's cell of its first record (the header row is the columns' titles), second column: its fragment.
    expect(refused.body.error.message).toContain('(at nodes[0].fragments[row0-col1].nodes[0])');
  });

  it('post …/merge merges changes to different children of a hint and of tabs', async () => {
    const admin = await h.current.newAdmin();
    const page = (hintA: string, hintB: string, tabA: string, tabB: string) =>
      `{% hint style="info" %}\n${hintA}\n\n${hintB}\n{% endhint %}\n\n{% tabs %}\n{% tab title="npm" %}\n${tabA}\n{% endtab %}\n\n{% tab title="Yarn" %}\n${tabB}\n{% endtab %}\n{% endtabs %}`;
    const { spaceId, pageId } = await spaceWithPage(admin, page('Read the guide first.', 'Then install it.', 'Run npm install.', 'Run yarn add.'));
    const merged = await mergeBoth(
      admin,
      spaceId,
      pageId,
      page('Read the whole guide first.', 'Then install it.', 'Run npm install.', 'Run yarn add now.'),
      page('Read the guide first.', 'Then install it carefully.', 'Run npm install --save.', 'Run yarn add.'),
    );
    expect(merged.status).toBe(200);
    expect(await markdownOf(admin, spaceId, pageId)).toBe(page('Read the whole guide first.', 'Then install it carefully.', 'Run npm install --save.', 'Run yarn add now.'));
  });
});
