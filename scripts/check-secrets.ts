// Run by `npm test` after vitest: proves that no secret reached a log or can reach a response.
// 1. Logs: every token the test run issued (recorded by test/support/suite-log.ts) and every integration
//    secret value the tests publish must appear in no log line of the run (test-results/logs/: the
//    debug-level logs of every in-process app and the output of every child server), and no log may hold
//    anything shaped like a token or a private key.
// 2. Responses: no response schema of the published document has a secret-like property.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const logsDir = path.join(root, 'test-results', 'logs');
const problems: string[] = [];

function logSecrets(): { tokens: Set<string>; logs: { name: string; text: string }[] } {
  if (!existsSync(logsDir)) {
    problems.push(`${logsDir} does not exist: run vitest first (the harness writes its logs there)`);
    return { tokens: new Set(), logs: [] };
  }
  const files = readdirSync(logsDir);
  const tokens = new Set(
    files
      .filter((f) => f.startsWith('tokens-'))
      .flatMap((f) => readFileSync(path.join(logsDir, f), 'utf8').split('\n'))
      .filter(Boolean),
  );
  const logs = files.filter((f) => f.endsWith('.log')).map((f) => ({ name: f, text: readFileSync(path.join(logsDir, f), 'utf8') }));
  return { tokens, logs };
}

/** The string values of the `secrets: { … }` objects the tests publish integrations with. */
function integrationSecretsOfTests(): string[] {
  const testDir = path.join(root, 'test');
  const values: string[] = [];
  for (const file of readdirSync(testDir).filter((f) => f.endsWith('.ts'))) {
    for (const [, body] of readFileSync(path.join(testDir, file), 'utf8').matchAll(/secrets:\s*\{([^}]*)\}/g)) {
      for (const [, single, double] of body.matchAll(/:\s*(?:'([^']{6,})'|"([^"]{6,})")/g)) values.push(single ?? double);
    }
  }
  return values;
}

const { tokens, logs } = logSecrets();
if (logs.length > 0 && tokens.size === 0) problems.push('no token was recorded: the harness no longer records the tokens it issues');
const secrets = [...tokens, ...integrationSecretsOfTests()];
const shapes: [string, RegExp][] = [
  ['a token', /dwi?t_[A-Za-z0-9_-]{20,}/],
  ['private key material', /-----BEGIN [A-Z ]*PRIVATE KEY-----/],
  ['an Authorization header', /"authorization"\s*:/i],
];
let lines = 0;
for (const { name, text } of logs) {
  for (const [i, line] of text.split('\n').entries()) {
    if (!line) continue;
    lines++;
    const leaked = secrets.find((s) => line.includes(s));
    if (leaked) problems.push(`${name}:${i + 1} contains a secret the tests used (${leaked.slice(0, 8)}…)`);
    for (const [what, shape] of shapes) if (shape.test(line)) problems.push(`${name}:${i + 1} contains ${what}`);
  }
}

// Responses: walk every response schema of the published document for secret-like property names.
// `certificate` (a SAML identity provider's X.509 certificate) is public material.
const SECRET_NAME = /secret|password|passphrase|private|api_?key|^token$|accessToken|credential/i;
const spec = JSON.parse(readFileSync(path.join(root, 'generated', 'openapi.json'), 'utf8'));
// The one secret an answer hands out on purpose: a visitor-auth site's signing key (`privateKey`), which
// its admins read (and rotate) through the publishing-auth operations to sign their visitors' JWTs, as in
// the public API. Only admins reach those operations; the key never appears in any other answer.
const PUBLISHING_AUTH = /^\S+ \/orgs\/\{organizationId\}\/sites\/\{siteId\}\/publishing\/auth(\/regenerate)? 200$/;
// And the token createIntegrationInstallationToken mints, for the admins of the integration's owner.
const INSTALLATION_TOKEN = 'POST /integrations/{integrationName}/installations/{installationId}/tokens 200';
// And a Document's `meta.token` (GitBook's JSONDocument field for a content token that reads the content a
// document references): the author's own data, stored and returned as written; the server mints none there.
const DOCUMENT_META = /\.meta$/;
const deliberate = (where: string, key: string) =>
  (key === 'privateKey' && PUBLISHING_AUTH.test(where)) || (key === 'token' && (where === INSTALLATION_TOKEN || DOCUMENT_META.test(where)));
function resolve(node: any): any {
  return node?.$ref ? resolve(node.$ref.split('/').slice(1).reduce((o: any, k: string) => o[k], spec)) : node;
}
function walk(node: any, where: string, seen: Set<any>): void {
  node = resolve(node);
  if (!node || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  for (const [key, value] of Object.entries(node.properties ?? {})) {
    if (SECRET_NAME.test(key) && !(value as any)?.writeOnly && !deliberate(where, key)) problems.push(`response ${where} has a secret-like property "${key}"`);
    walk(value, `${where}.${key}`, seen);
  }
  for (const k of ['items', 'additionalProperties']) if (typeof node[k] === 'object') walk(node[k], where, seen);
  for (const k of ['allOf', 'anyOf', 'oneOf']) for (const part of node[k] ?? []) walk(part, where, seen);
}
let responses = 0;
for (const [route, methods] of Object.entries<any>(spec.paths)) {
  for (const [method, operation] of Object.entries<any>(methods)) {
    for (const [status, response] of Object.entries<any>(operation?.responses ?? {})) {
      for (const media of Object.values<any>(resolve(response)?.content ?? {})) {
        responses++;
        walk(media.schema, `${method.toUpperCase()} ${route} ${status}`, new Set());
      }
    }
  }
}

if (problems.length > 0) {
  console.error(`Secrets check failed:\n${[...new Set(problems)].slice(0, 50).join('\n')}`);
  process.exit(1);
}
console.log(`Secrets check: ${tokens.size} tokens and ${secrets.length - tokens.size} integration secrets absent from ${lines} log lines in ${logs.length} files; no secret-like field in ${responses} response schemas.`);
