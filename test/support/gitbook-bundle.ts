// Builds an integration script the way @gitbook/cli does (packages/cli/src/build.ts): one ES module
// bundled by esbuild for a neutral platform with the `worker`/`browser` conditions and `MODE` defined,
// here from source text (the test's integration) resolved against this project's node_modules, where
// @gitbook/runtime and @gitbook/api are devDependencies.
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The bundled script of `source` (TypeScript importing @gitbook/runtime; `tsx` for ContentKit's JSX), as `gitbook publish` would send it. */
export async function bundleIntegration(source: string, mode: 'production' | 'development' = 'production', loader: 'ts' | 'tsx' = 'ts'): Promise<string> {
  const built = await esbuild.build({
    stdin: { contents: source, resolveDir: projectRoot, loader, sourcefile: `integration.${loader}` },
    platform: 'neutral',
    bundle: true,
    format: 'esm',
    target: 'es2020',
    minify: mode === 'production',
    write: false,
    mainFields: ['worker', 'browser', 'module', 'jsnext', 'main'],
    conditions: ['worker', 'browser', 'import', 'production'],
    define: { 'process.env.NODE_ENV': JSON.stringify(mode), MODE: JSON.stringify(mode) },
    external: ['node:*', 'cloudflare:*'],
    jsx: 'automatic',
    jsxImportSource: '@gitbook/runtime',
    logLevel: 'silent',
  });
  return built.outputFiles[0].text;
}
