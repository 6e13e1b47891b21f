// The collector against a new reference at the same moment: whichever wins, no file ever refers to bytes
// that are gone. On PostgreSQL the two really overlap (the collector's delete waits on the row lock the
// new file row's foreign key takes); on PGlite they take turns, and the outcome must hold either way.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openBlob, putBlobBytes, sha256Of } from '../server/blobs/blobs.js';
import { collectBlob } from '../server/blobs/collect.job.js';
import { blobs, contentFiles } from '../server/db/schema/index.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

async function readAll(sha: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of await openBlob(h.current.db, sha)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('collecting a blob while a file comes to refer to it', () => {
  it('never deletes a blob a committed file row refers to; a reference that lost the race fails whole', async () => {
    const admin = await h.current.newAdmin();
    const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Race' })).body.id as string;
    const outcomes = { collected: 0, referenced: 0 };
    for (let round = 0; round < 8; round++) {
      const bytes = Buffer.from(`race round ${round} ${space}`);
      const sha = sha256Of(bytes);
      // Stored, then left unreferenced: a candidate for any collection with a cutoff after now.
      await putBlobBytes(h.current.db, bytes);
      const cutoff = new Date(Date.now() + 60_000);
      // The new reference: a file row in a transaction that holds on a little after writing it.
      const reference = h.current.db
        .transaction(async (tx) => {
          await tx.insert(contentFiles).values({ spaceId: space, fileId: `fil_race${round}`, name: 'race.txt', contentType: 'text/plain', size: bytes.length, sha256: sha, createdAt: new Date() });
          await new Promise((resolve) => setTimeout(resolve, 50));
        })
        .then(() => true, () => false);
      const collection = collectBlob(h.current.db, sha, cutoff);
      const [referenced, collected] = await Promise.all([reference, collection]);
      // Exactly one wins.
      expect(referenced !== collected, `round ${round}: referenced ${referenced}, collected ${collected}`).toBe(true);
      const rows = await h.current.db.select().from(blobs).where(eq(blobs.sha256, sha));
      const files = await h.current.db.select().from(contentFiles).where(eq(contentFiles.sha256, sha));
      if (referenced) {
        outcomes.referenced++;
        expect(rows).toHaveLength(1);
        expect(files).toHaveLength(1);
        expect((await readAll(sha)).equals(bytes)).toBe(true);
        // And once referenced, no later collection takes it, however old.
        expect(await collectBlob(h.current.db, sha, new Date(Date.now() + 365 * 86_400_000))).toBe(false);
        expect((await readAll(sha)).equals(bytes)).toBe(true);
      } else {
        outcomes.collected++;
        expect(rows).toHaveLength(0);
        expect(files).toHaveLength(0);
      }
    }
    expect(outcomes.collected + outcomes.referenced).toBe(8);
  });
});
