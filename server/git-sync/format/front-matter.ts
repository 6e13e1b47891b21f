// A page file's front matter: YAML between `---` lines at the top, holding what the page stores beside its
// content and Markdown cannot say (docs/git-sync.md lists the keys). Read and written with `yaml`; a key
// of the wrong type is refused with the file named; keys this server has no field for (GitBook's
// `layout`, `vars`, …) are not read.
import { parse, stringify } from 'yaml';
import type { StoredPage } from '../../content/revision-content.js';
import { RepositoryFormatError } from './types.js';

/** The page fields front matter carries. */
export type PageFrontMatter = Partial<Pick<StoredPage, 'title' | 'description' | 'icon' | 'emoji' | 'hidden' | 'noIndex' | 'noRobotsIndex' | 'condition' | 'slug'>>;

const stringKeys = ['title', 'description', 'icon', 'emoji', 'condition', 'slug'] as const;
const flagKeys = ['hidden', 'noIndex', 'noRobotsIndex'] as const;

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
  try {
    doc = parse(yamlText, { maxAliasCount: 10 });
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
  return { data, body };
}

/** The front matter block of `data` (with its closing line and a blank line), or '' when there is nothing to say. */
export function writeFrontMatter(data: PageFrontMatter): string {
  const out: Record<string, unknown> = {};
  for (const key of ['title', 'description', 'icon', 'emoji'] as const) if (data[key] !== undefined) out[key] = data[key];
  for (const key of flagKeys) if (data[key] === true) out[key] = true;
  for (const key of ['condition', 'slug'] as const) if (data[key] !== undefined) out[key] = data[key];
  if (Object.keys(out).length === 0) return '';
  return `---\n${stringify(out, { lineWidth: 0 })}---\n\n`;
}
