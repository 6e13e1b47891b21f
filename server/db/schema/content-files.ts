// The bytes of the files of space content. A revision's snapshot lists its files (id, name, type, size);
// their bytes live here, once per space and file id: revisions, change requests and merges of the space
// share them, a duplicated space gets its own copy, a transferred space keeps them (same space id).
import { customType, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { spaces } from './content.js';

/** bytea: node-postgres gives a Buffer, PGlite a Uint8Array; both come out as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => value,
  fromDriver: (value) => Buffer.from(value),
});

export const contentFiles = pgTable(
  'content_files',
  {
    spaceId: text('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    fileId: text('file_id').notNull(),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    bytes: bytea('bytes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.spaceId, t.fileId] })],
);

/** Secrets the server signs its links with (file downloads): made once, shared by every process. */
export const linkSigningKeys = pgTable('link_signing_keys', {
  name: text('name').primaryKey(),
  secret: text('secret').notNull(),
  createdAt: createdAt(),
});
