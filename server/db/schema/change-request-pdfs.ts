// Download links of change-request PDFs (getChangeRequestPDF). The URL carries a random token; only its
// SHA-256 is stored, so reading this table does not give working links. A link pins the revision it was
// issued for, and expires (see server/change-requests/pdf-links.ts).
import { boolean, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { changeRequests } from './change-requests.js';
import { createdAt } from './columns.js';
import { spaces } from './content.js';

export const changeRequestPdfs = pgTable(
  'change_request_pdfs',
  {
    tokenHash: text('token_hash').primaryKey(),
    spaceId: text('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    changeRequestId: text('change_request_id')
      .notNull()
      .references(() => changeRequests.id, { onDelete: 'cascade' }),
    revisionId: text('revision_id').notNull(),
    // The page the PDF starts at (all pages when null); `only`: that page alone.
    pageId: text('page_id'),
    only: boolean('only').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('change_request_pdfs_expires_idx').on(t.expiresAt)],
);
