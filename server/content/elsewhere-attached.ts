// The spaces and users the link lists check (elsewhere-refs.ts `checkElsewhereLinks`), read in the statement
// of the space's grant (server/auth/attached-read.ts): the ids are those the Documents of the revisions
// listed refer to, found in the database by the same statement, so the list is one round trip. Every
// `{kind: 'space'}` and `{kind: 'user'}` object of those Documents is taken, wherever it sits (a node's
// `data.ref`, a table cell): more than the links hold, never fewer, except where a page's Document as read
// differs from the stored JSON (a page still stored as Markdown, a Document upgraded from an older shape);
// the checker looks up itself any id not looked up here.
import type { AttachedRead, embedded } from '../db/attached-select.js';
import type { ElsewhereLookup } from './elsewhere-refs.js';

/**
 * The references of the Documents of the revisions `ids` answers (of their page `$page` only, when not
 * null), each with whether it resolves as `known` (elsewhere-refs.ts) has it: a space of the grant's
 * organization not in the trash, a member of it. A page list is stored inline (rows written before
 * chunks) or in chunks; a page's Document inline (rows written before Documents were stored apart) or by hash.
 */
const sql = (ids: string, page: string) => `WITH revs AS (SELECT content FROM content_revisions WHERE id IN (${ids})),
    pages AS (
      SELECT p FROM revs CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(revs.content->'pages') = 'array' THEN revs.content->'pages' ELSE '[]' END) p
      UNION ALL
      SELECT p FROM content_documents c CROSS JOIN LATERAL jsonb_array_elements(c.document) p
        WHERE c.hash IN (SELECT jsonb_array_elements_text(revs.content->'pageChunks') FROM revs)
    ),
    listed AS (SELECT p FROM pages WHERE ${page} IS NULL OR p->>'id' = ${page}),
    docs AS (
      SELECT c.document AS doc FROM content_documents c WHERE c.hash IN (SELECT p->>'documentHash' FROM listed)
      UNION ALL
      SELECT p->'document' FROM listed WHERE p ? 'document'
    ),
    refs AS (
      SELECT DISTINCT ref->>'kind' AS kind, CASE ref->>'kind' WHEN 'space' THEN ref->>'space' ELSE ref->>'user' END AS id
      FROM docs CROSS JOIN LATERAL jsonb_path_query(docs.doc, 'strict $.** ? (@.kind == "space" || @.kind == "user")') ref
    )
  SELECT json_agg(json_build_array(refs.kind, refs.id, CASE refs.kind
      WHEN 'space' THEN EXISTS (SELECT 1 FROM spaces o WHERE o.id = refs.id AND o.organization_id = s.organization_id AND o.deleted_at IS NULL)
      ELSE EXISTS (SELECT 1 FROM users u JOIN members m ON m.user_id = u.id AND m.organization_id = s.organization_id WHERE u.id = refs.id) END)) AS elsewhere_refs
  FROM refs WHERE refs.id IS NOT NULL`;

/**
 * The spaces and users the Documents of the revisions `ids` (a select of revision ids, which may name the
 * grant's space row `s`) refer to, of their page `pageId` only when given, looked up.
 */
export function elsewhereRead(ids: ReturnType<typeof embedded>, pageId: string | undefined): AttachedRead {
  const n = ids.params.length;
  return {
    name: `elsewhere_${ids.hash}`,
    sql: (first) => sql(ids.sql(first), `$${first + n}::text`),
    params: [...ids.params, pageId ?? null],
  };
}

/** What the grant's statement looked up (elsewhereRead), or undefined when it did not. */
export function attachedElsewhere(attached: Record<string, unknown> | undefined): ElsewhereLookup | undefined {
  if (!attached || !('elsewhere_refs' in attached)) return undefined;
  const lookup = { looked: { spaces: new Set<string>(), users: new Set<string>() }, found: { spaces: new Set<string>(), users: new Set<string>() } };
  for (const [kind, id, known] of (attached.elsewhere_refs as [string, string, boolean][] | null) ?? []) {
    const side = kind === 'space' ? 'spaces' : 'users';
    lookup.looked[side].add(id);
    if (known) lookup.found[side].add(id);
  }
  return lookup satisfies ElsewhereLookup;
}
