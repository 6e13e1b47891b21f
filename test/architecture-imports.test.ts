// The one rule of imports between areas (docs/architecture.md): the core areas, which write and read a
// workspace's content, import none of the platform areas; they tell them what happened through the domain
// events (server/events/), which the platform areas subscribe to where the app is composed. Read statically
// from the source: every `from '…'` and `import('…')` of every file under a core area, resolved to the
// area it points at.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const server = resolve(import.meta.dirname, '../server');

/** The areas that write or read a workspace's content and tree. */
const core = ['content', 'change-requests', 'collections', 'spaces', 'revisions', 'comments', 'git-sync'];
/** The areas that act on what the core areas do: integrations, access grants, single sign-on, API specs, search. */
const platform = ['integrations', 'permissions', 'sso', 'openapi', 'search'];

/**
 * Imports the rule does not hold yet, each with why; an entry that no longer imports fails the last test,
 * so the list only shrinks.
 */
const excepted: Record<string, string> = {};

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return /\.(ts|mts|js|mjs)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The relative specifiers a file imports, type-only ones and dynamic ones included. */
function importsOf(source: string): string[] {
  const found = [...source.matchAll(/\bfrom\s+['"](\.[^'"]+)['"]/g), ...source.matchAll(/\bimport\s*\(\s*['"](\.[^'"]+)['"]\s*\)/g), ...source.matchAll(/^\s*import\s+['"](\.[^'"]+)['"]/gm)];
  return found.map((m) => m[1]!);
}

/** The area under server/ a specifier in `file` points at (its first directory), or undefined outside one. */
function areaOf(file: string, specifier: string): string | undefined {
  const target = relative(server, resolve(dirname(file), specifier));
  const parts = target.split(sep);
  return parts.length > 1 && parts[0] !== '..' ? parts[0] : undefined;
}

/** `area/file -> target area` for each import of one of `targets` by a file of `areas`. */
function importsReaching(areas: string[], targets: string[]): string[] {
  return areas.flatMap((area) =>
    filesUnder(join(server, area)).flatMap((file) =>
      importsOf(readFileSync(file, 'utf8'))
        .map((specifier) => areaOf(file, specifier))
        .filter((target): target is string => target !== undefined && targets.includes(target))
        .map((target) => `${relative(server, file).split(sep).join('/')} -> ${target}`),
    ),
  );
}

const platformImports = (areas: string[]) => importsReaching(areas, platform);

describe('imports between areas', () => {
  it('reads imports as written (a check of the reader itself)', () => {
    const file = join(server, 'spaces', 'x.ts');
    const source = "import { a } from '../integrations/a.js';\nimport type { B } from \"../permissions/b.js\";\nconst c = await import('../sso/c.js');\nimport '../openapi/d.js';\nimport { e } from './e.js';\nimport { f } from '../search/f.js';";
    expect(importsOf(source).map((s) => areaOf(file, s)).sort()).toEqual(['integrations', 'openapi', 'permissions', 'search', 'spaces', 'sso']);
  });

  it('every listed area exists', () => {
    for (const area of [...core, ...platform, 'events', 'headless', 'published']) expect(statSync(join(server, area)).isDirectory(), area).toBe(true);
  });

  it('no core area imports a platform area', () => {
    const found = [...new Set(platformImports(core))];
    expect(found.filter((edge) => !(edge in excepted))).toEqual([]);
  });

  it('no core area imports the readers above it (headless reads, the published site)', () => {
    expect(importsReaching(core, ['headless', 'published'])).toEqual([]);
  });

  it('the domain events floor imports no area', () => {
    const areas = filesUnder(join(server, 'events')).flatMap((file) =>
      importsOf(readFileSync(file, 'utf8'))
        .map((specifier) => areaOf(file, specifier))
        .filter((target) => target !== undefined && !['events', 'db'].includes(target)),
    );
    expect(areas).toEqual([]);
  });

  it('every excepted import is still there', () => {
    const found = new Set(platformImports(core));
    expect(Object.keys(excepted).filter((edge) => !found.has(edge))).toEqual([]);
  });
});
