// `.gitbook/tags.yaml`, GitBook's page tags: a list of `{ tag, label, icon, color }`, the tags a page's
// front matter `tags` names (`- beta`, or `- tag: beta` with `primary: true`). This server shows no tags:
// the file is checked, kept as its text in the space's content (RevisionContent.tagsFile) and written
// back as it was; a page naming a tag the file does not define is reported in the read's warnings.
import { parse } from 'yaml';
import { formatLimits } from './limits.js';
import { RepositoryFormatError } from './types.js';

export const TAGS_FILE = '.gitbook/tags.yaml';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function yamlOf(text: string, path: string): unknown {
  try {
    return parse(text, { maxAliasCount: 10 });
  } catch (error) {
    throw new RepositoryFormatError(path, `is not valid YAML (${(error as Error).message.split('\n')[0]})`);
  }
}

/** The text of the tags file (kept byte for byte: a byte order mark too) and the tags it defines. */
export function readTags(bytes: Uint8Array, path: string): { text: string; tags: Set<string> } {
  if (bytes.length > formatLimits.maxConfigBytes) throw new RepositoryFormatError(path, `is larger than ${formatLimits.maxConfigBytes} bytes`);
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new RepositoryFormatError(path, 'is not UTF-8 text');
  }
  const doc = yamlOf(text.replace(/^\uFEFF/, ''), path) ?? [];
  if (!Array.isArray(doc)) throw new RepositoryFormatError(path, 'must be a list of tags (tag, label, icon, color)');
  const tags = new Set<string>();
  doc.forEach((entry, i) => {
    if (!isRecord(entry) || typeof entry.tag !== 'string' || entry.tag === '') throw new RepositoryFormatError(path, `entry ${i + 1} must have a tag (its name)`);
    for (const key of ['label', 'icon', 'color'] as const) {
      if (entry[key] !== undefined && typeof entry[key] !== 'string') throw new RepositoryFormatError(path, `tag ${entry.tag}: ${key} must be text`);
    }
    tags.add(entry.tag);
  });
  return { text, tags };
}

/** The tags a page's kept front matter (StoredPage.frontMatter) names; none when it says none it can name. */
export function pageTags(frontMatter: string | undefined): string[] {
  if (frontMatter === undefined) return [];
  let doc: unknown;
  try {
    doc = parse(frontMatter, { maxAliasCount: 10 });
  } catch {
    return [];
  }
  if (!isRecord(doc) || !Array.isArray(doc.tags)) return [];
  return doc.tags.flatMap((t: unknown) => (typeof t === 'string' ? [t] : isRecord(t) && typeof t.tag === 'string' ? [t.tag] : []));
}

/** A warning for each tag a page names that the repository's tags file does not define. */
export function undefinedTagWarnings(pagePath: string, frontMatter: string | undefined, defined: Set<string>, tagsPath: string): string[] {
  return pageTags(frontMatter)
    .filter((t) => !defined.has(t))
    .map((t) => `${pagePath}: tag "${t}" is not defined in ${tagsPath}`);
}
