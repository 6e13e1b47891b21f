// `npm run mock` starts here: the mock runs from one prebuilt ES module bundle of mock/start.ts
// (scripts/source-bundle.mjs: loading the server's TypeScript module by module under tsx costs more than a
// second before anything can answer). Plain JavaScript, because it runs before any TypeScript loader;
// `tsx mock/start.ts` runs the same mock from source.
import { pathToFileURL } from 'node:url';
import { sourceBundle } from '../scripts/source-bundle.mjs';

await import(pathToFileURL(await sourceBundle('mock/start.ts', { name: 'mock' })).href);
