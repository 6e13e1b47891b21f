// Document ids (docs/headless-reads.md). A revision never changes, so the content of a page (or of a
// reusable content) in a revision is one immutable document; its id is the revision and the owner's id,
// written as one opaque token. Reading it back needs no index: the revision is read and the owner found in
// it. The same page in a later revision has another id, as a renderer caching documents by id needs.
const prefix = 'doc_';

/** The id of the document of `ownerId` (a page or a reusable content) in `revisionId`. */
export function documentIdOf(revisionId: string, ownerId: string): string {
  return prefix + Buffer.from(`${revisionId}:${ownerId}`, 'utf8').toString('base64url');
}

/** The revision and owner a document id names; undefined for anything that is not one. */
export function parseDocumentId(documentId: string): { revisionId: string; ownerId: string } | undefined {
  if (!documentId.startsWith(prefix)) return undefined;
  const body = documentId.slice(prefix.length);
  if (!/^[A-Za-z0-9_-]+$/.test(body)) return undefined;
  const decoded = Buffer.from(body, 'base64url').toString('utf8');
  const at = decoded.indexOf(':');
  if (at <= 0 || at === decoded.length - 1) return undefined;
  const revisionId = decoded.slice(0, at);
  const ownerId = decoded.slice(at + 1);
  // Only what documentIdOf writes: the token must be exactly its encoding (no second spelling of one id).
  return documentIdOf(revisionId, ownerId) === documentId ? { revisionId, ownerId } : undefined;
}
