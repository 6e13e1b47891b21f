// The objects an export makes in memory (server/git-sync/git-objects.ts) have the ids isomorphic-git gave
// the same blobs, trees and commits when it wrote them as loose objects: Git's order of a tree's entries
// (a folder sorted as if its name ended in `/`, names compared by their bytes), its modes, a commit's form.
import * as nodeFs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitObject, objectId, treeObject } from '../../server/git-sync/git-objects.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'git-objects-'));
  await git.init({ fs: nodeFs, dir });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('git objects', () => {
  it('gives a blob the id isomorphic-git gives it', async () => {
    for (const text of ['', '# Page\n\nText.\n', 'ü€😀\n']) {
      const bytes = Buffer.from(text);
      expect(objectId('blob', bytes)).toBe(await git.writeBlob({ fs: nodeFs, dir, blob: bytes }));
    }
  });

  it('writes a tree as isomorphic-git writes it: Git order, a folder as if ending in /, modes as Git writes them', async () => {
    const blob = await git.writeBlob({ fs: nodeFs, dir, blob: Buffer.from('x') });
    const sub = await git.writeTree({ fs: nodeFs, dir, tree: [{ mode: '100644', path: 'README.md', oid: blob, type: 'blob' }] });
    const names = ['a.md', 'a', 'a-b.md', 'a0.md', 'B.md', 'é.md', 'z.md', 'ab'];
    const entries = names.map((name, i) => (i % 3 === 1 ? { name, mode: '040000', oid: sub } : { name, mode: i % 3 === 2 ? '100755' : '100644', oid: blob }));
    const theirs = await git.writeTree({ fs: nodeFs, dir, tree: entries.map((e) => ({ mode: e.mode, path: e.name, oid: e.oid, type: (e.mode === '040000' ? 'tree' : 'blob') as 'blob' })) });
    expect(objectId('tree', treeObject(entries))).toBe(theirs);
    // The form read from a fetched tree (`40000`) and old Git's `100664` give the same tree.
    expect(objectId('tree', treeObject(entries.map((e) => ({ ...e, mode: e.mode === '040000' ? '40000' : e.mode === '100644' ? '100664' : e.mode }))))).toBe(theirs);
  });

  it('writes a commit as isomorphic-git wrote it, with and without a parent', async () => {
    const tree = await git.writeTree({ fs: nodeFs, dir, tree: [] });
    const person = { name: 'Dana Developer', email: 'dana@example.com', timestamp: 1_764_400_000 };
    const first = await git.writeCommit({ fs: nodeFs, dir, commit: { tree, parent: [], message: '\nExport\r\n\n', author: { ...person, timezoneOffset: 0 }, committer: { ...person, timezoneOffset: 0 } } });
    expect(objectId('commit', commitObject(tree, [], person, person, '\nExport\r\n\n'))).toBe(first);
    const second = await git.writeCommit({ fs: nodeFs, dir, commit: { tree, parent: [first], message: 'Update from GitBook (Docs)', author: { ...person, timezoneOffset: 0 }, committer: { ...person, timezoneOffset: 0 } } });
    expect(objectId('commit', commitObject(tree, [first], person, person, 'Update from GitBook (Docs)'))).toBe(second);
  });
});
