// A page file's front matter: YAML between `---` lines at the top, holding what the page stores beside its
// content and Markdown cannot say (docs/git-sync.md lists the keys). Read and written with `yaml`; a key
// of the wrong type is refused with the file named. The keys this server has no field for (GitBook's
// `layout`, `cover`, `coverY`, `tags`, `metadata`, `name`, `vars`, …) are kept on the page as the YAML they
// were (`frontMatter`: their nodes, comments and styles, written by `yaml`) and written back after the
// page's own keys.
import { Document, isMap, isScalar, parseDocument, stringify, YAMLMap, type Pair } from 'yaml';
import type { StoredPage } from '../../content/revision-content.js';
import { RepositoryFormatError } from './types.js';

/** The page fields front matter carries. */
export type PageFrontMatter = Partial<Pick<StoredPage, 'title' | 'description' | 'icon' | 'emoji' | 'hidden' | 'noIndex' | 'noRobotsIndex' | 'condition' | 'slug' | 'frontMatter'>>;

const stringKeys = ['title', 'description', 'icon', 'emoji', 'condition', 'slug'] as const;
const flagKeys = ['hidden', 'noIndex', 'noRobotsIndex'] as const;
const pageKeys: ReadonlySet<string> = new Set([...stringKeys, ...flagKeys]);

/** The YAML of the pairs of `map` whose key is none of the page's: undefined when there are none. */
function otherKeys(map: YAMLMap, record: Record<string, unknown>): string | undefined {
  const pairs = map.items.filter((p: Pair) => !(isScalar(p.key) && pageKeys.has(String(p.key.value))));
  if (pairs.length === 0) return undefined;
  const others = new YAMLMap();
  others.items = pairs;
  const doc = new Document();
  doc.contents = others;
  try {
    return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
  } catch {
    // An alias whose anchor is on one of the page's keys has nothing to name once apart: its value is written instead.
    const keys = pairs.map((p) => String(isScalar(p.key) ? p.key.value : p.key));
    return stringify(Object.fromEntries(keys.map((k) => [k, record[k]])), { lineWidth: 0, flowCollectionPadding: false });
  }
}

const opening = /^---[ \t]*\r?\n/;

/** The front matter of a file's text and the text after it. */
export function readFrontMatter(text: string, path: string): { data: PageFrontMatter; body: string } {
  if (!opening.test(text)) return { data: {}, body: text };
  const rest = text.slice(text.match(opening)![0].length);
  let offset = 0;
  let yamlText: string | undefined;
  let body = '';
  for (const line of rest.split('\n')) {
    if (/^---[ \t]*\r?$/.test(line)) {
      yamlText = rest.slice(0, offset);
      body = rest.slice(offset + line.length + 1).replace(/^\r?\n/, '');
      break;
    }
    offset += line.length + 1;
  }
  if (yamlText === undefined) throw new RepositoryFormatError(path, 'front matter opened with --- is never closed');
  let doc: unknown;
  const parsed = parseDocument(yamlText);
  try {
    if (parsed.errors.length > 0) throw parsed.errors[0];
    doc = parsed.toJS({ maxAliasCount: 10 });
  } catch (error) {
    throw new RepositoryFormatError(path, `front matter is not valid YAML (${(error as Error).message.split('\n')[0]})`);
  }
  if (doc === null || doc === undefined) return { data: {}, body };
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new RepositoryFormatError(path, 'front matter must be a mapping of keys');
  const record = doc as Record<string, unknown>;
  const data: PageFrontMatter = {};
  for (const key of stringKeys) {
    const v = record[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string' && typeof v !== 'number') throw new RepositoryFormatError(path, `front matter ${key} must be text`);
    data[key] = String(v);
  }
  for (const key of flagKeys) {
    const v = record[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'boolean') throw new RepositoryFormatError(path, `front matter ${key} must be true or false`);
    data[key] = v;
  }
  const others = isMap(parsed.contents) ? otherKeys(parsed.contents, record) : undefined;
  if (others !== undefined) data.frontMatter = others;
  return { data, body };
}

/** The front matter block of `data` (with its closing line and a blank line), or '' when there is nothing to say. */
export function writeFrontMatter(data: PageFrontMatter): string {
  const out: Record<string, unknown> = {};
  for (const key of ['title', 'description', 'icon', 'emoji'] as const) if (data[key] !== undefined) out[key] = data[key];
  for (const key of flagKeys) if (data[key] === true) out[key] = true;
  for (const key of ['condition', 'slug'] as const) if (data[key] !== undefined) out[key] = data[key];
  const own = Object.keys(out).length === 0 ? '' : stringify(out, { lineWidth: 0 });
  const others = data.frontMatter ?? '';
  if (own === '' && others === '') return '';
  return `---\n${own}${others}${others.endsWith('\n') || others === '' ? '' : '\n'}---\n\n`;
}
