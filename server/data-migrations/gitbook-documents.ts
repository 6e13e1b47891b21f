// Every stored Document rewritten into GitBook's Document JSON (issue 47) by the read path's own upgrade
// (server/content/document-upgrade.ts, idempotent): the readers already upgrade what they read, so a
// Document reads the same before and after its row is rewritten, and the migration can run beside a server
// of the release before. What it changes is what is stored: exports, dumps, merges of old revisions and
// anything reading the database directly see GitBook's format, and reads no longer rewrite old Documents.
//
// Where Documents are stored (a table added later with a Document column belongs here):
// - content_documents: page Documents by hash (and chunks of revisions' page lists, which hold none but
//   are checked for pages stored with their Document inline). A Document is rewritten under the hash of its
//   old JSON: the hash names it, nothing checks it against the JSON (docs/content.md, "How revisions are
//   stored"), and the revisions naming it stay as they are;
// - content_revisions.content: reusable contents' Documents, and the pages of rows written before Documents
//   were stored apart (pages whose content is legacy Markdown are read as Documents and are left as they are);
//   change requests' and translations' contents are revisions too;
// - change_requests.description, comments.document, comment_replies.document,
//   agent_instructions.instructions, translations.instructions.
// Templates are Markdown in the code (server/content/templates.ts): the pages they make are Documents
// written in the new format.
import { upgradeDocument } from '../content/document-upgrade.js';
import type { Document } from '../content/markdown-document.js';
import type { DataMigration } from './runner.js';

const isDocument = (value: unknown): value is Document =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Array.isArray((value as { nodes?: unknown }).nodes);

/** A Document in GitBook's shapes; undefined (row left as it is) when the value is none. */
export function upgradeStoredDocument(value: unknown): Document | undefined {
  return isDocument(value) ? upgradeDocument(value) : undefined;
}

/** Records (pages, reusable contents) with their Documents upgraded; the same array when none changed. */
function upgradeRecords<R extends { document?: unknown }>(records: R[]): R[] {
  let changed = false;
  const out = records.map((record) => {
    if (!isDocument(record?.document)) return record;
    const document = upgradeDocument(record.document);
    if (document === record.document) return record;
    changed = true;
    return { ...record, document };
  });
  return changed ? out : records;
}

/** A content_documents value: a page Document, or a chunk of a revision's page list. */
function upgradeContentDocument(value: unknown): unknown {
  if (Array.isArray(value)) return upgradeRecords(value as { document?: unknown }[]);
  return upgradeStoredDocument(value);
}

/** A content_revisions.content value: its reusable contents and inline pages upgraded. */
function upgradeRevisionContent(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  const content = value as { pages?: { document?: unknown }[]; reusableContents?: { document?: unknown }[] };
  const pages = Array.isArray(content.pages) ? upgradeRecords(content.pages) : content.pages;
  const reusableContents = Array.isArray(content.reusableContents) ? upgradeRecords(content.reusableContents) : content.reusableContents;
  if (pages === content.pages && reusableContents === content.reusableContents) return undefined;
  return { ...content, ...(pages && { pages }), ...(reusableContents && { reusableContents }) };
}

export const gitbookDocumentsMigration: DataMigration = {
  name: '2026-11-gitbook-documents',
  steps: [
    { table: 'content_documents', key: 'hash', column: 'document', rewrite: upgradeContentDocument },
    { table: 'content_revisions', key: 'id', column: 'content', rewrite: upgradeRevisionContent },
    { table: 'change_requests', key: 'id', column: 'description', rewrite: upgradeStoredDocument },
    { table: 'comments', key: 'id', column: 'document', rewrite: upgradeStoredDocument },
    { table: 'comment_replies', key: 'id', column: 'document', rewrite: upgradeStoredDocument },
    { table: 'agent_instructions', key: 'organization_id', column: 'instructions', rewrite: upgradeStoredDocument },
    { table: 'translations', key: 'id', column: 'instructions', rewrite: upgradeStoredDocument },
  ],
};
