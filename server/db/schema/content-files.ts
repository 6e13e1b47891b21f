// The files of space content. A revision's snapshot lists its files (id, name, type, size); a space's
// content_files row says which bytes each file id has (by sha256), once per space and file id: revisions,
// change requests and merges of the space share it, a duplicated space gets its own row (not its own bytes),
// a transferred space keeps them (same space id).
//
// The bytes themselves are content-addressed blobs (server/blobs/): one `blobs` row per sha256, however many
// files of however many spaces have them, saying which backend holds them (the database's blob_chunks, a
// folder, S3). A file's row refers to its blob by a foreign key without cascade, so a blob cannot be
// deleted while any file refers to it: the collector (server/blobs/collect.job.ts) relies on that.
import { sql } from 'drizzle-orm';
import { bigint, check, customType, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, oneOf } from './columns.js';
import { spaces } from './content.js';

/** bytea: node-postgres gives a Buffer, PGlite a Uint8Array; both come out as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => value,
  fromDriver: (value) => Buffer.from(value),
});

export const blobBackends = ['database', 'folder', 's3'] as const;

export const blobs = pgTable(
  'blobs',
  {
    /** Lowercase hex sha256 of the bytes: the blob's name in every backend. */
    sha256: text('sha256').primaryKey(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** Which backend holds the bytes now (move-files changes it once the copy is verified). */
    backend: text('backend', { enum: blobBackends }).notNull(),
    /** Set once the backend has every byte; a row without it is a write in progress (or one that died). */
    storedAt: timestamp('stored_at', { withTimezone: true, mode: 'date' }),
    /** Last write or reference: the collector leaves a blob alone until its grace period after this. */
    touchedAt: timestamp('touched_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
    /**
     * The bytes' Git id (sha1 of `blob <size>\0` and the bytes), when a Git Sync import stored them and so saw
     * it: an export names the file by it without reading the bytes back to hash them (server/git-sync/files.ts).
     */
    gitOid: text('git_oid'),
  },
  (t) => [
    check('blobs_backend_check', sql.raw(`backend IN (${oneOf(blobBackends)})`)),
    check('blobs_sha256_check', sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
    check('blobs_git_oid_check', sql`${t.gitOid} ~ '^[0-9a-f]{40}$'`),
    index('blobs_touched_idx').on(t.touchedAt),
  ],
);

/** The bytes of blobs kept in the database, in chunks of 1 MiB (so a Range read loads only its chunks). */
export const blobChunks = pgTable(
  'blob_chunks',
  {
    sha256: text('sha256')
      .notNull()
      .references(() => blobs.sha256, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sha256, t.seq] })],
);

export const contentFiles = pgTable(
  'content_files',
  {
    spaceId: text('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    fileId: text('file_id').notNull(),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    // No cascade: a referenced blob cannot be deleted (the collector's guarantee).
    sha256: text('sha256')
      .notNull()
      .references(() => blobs.sha256),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.spaceId, t.fileId] }), index('content_files_sha256_idx').on(t.sha256)],
);

/** Secrets the server signs its links with (file downloads): made once, shared by every process. */
export const linkSigningKeys = pgTable('link_signing_keys', {
  name: text('name').primaryKey(),
  secret: text('secret').notNull(),
  createdAt: createdAt(),
});
