// GitBook's own published document (@gitbook/api's spec/openapi.json), read once for every test that compares
// with it (gitbook-spec.ts: operations; gitbook-document.ts: the Document; gitbook-schemas.ts: events and
// ContentKit), with the three corrections below and no other. Each is a schema no value GitBook itself sends can
// satisfy, read the one way under which GitBook's own data validates.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

export const gitbookSpec: Json = JSON.parse(readFileSync(require.resolve('@gitbook/api/spec/openapi.json'), 'utf8'));
const schemas = gitbookSpec.components.schemas as Json;

// 1. PlainObject lists its properties without `type: object`, so any string, number or boolean value in one (a
// ContentKit component's `props: { content: 'graph TD' }`) matches two branches of its `oneOf` (PlainObject and
// string) and could never validate; its intent is an object.
schemas.PlainObject = { type: 'object', ...schemas.PlainObject };

// 2. DocumentInlineButton's `data` is `allOf: [{ label, kind, … }, oneOf: [{ ref }, { action }]]` with each
// `oneOf` branch closed (`additionalProperties: false`): the branch sees `label` and `kind`, which it does not
// list, so no button with its required label validates. The branches are opened: a button has its label and
// kind, and exactly one of `ref` or `action`.
const buttonData = schemas.DocumentInlineButton.properties.data.allOf[1].oneOf as Json[];
for (const branch of buttonData) delete branch.additionalProperties;
// 3. DocumentTableRecord's values are `oneOf: [number, string, boolean, string[], ContentRef, DocumentTableImageRecord]`,
// and DocumentTableImageRecord is itself `oneOf: [ContentRefFile, ContentRefURL, { ref, … }]`: a reference to a
// URL or a file (a card's target link, a card's cover image) matches both ContentRef and the image record, so no
// table whose cell links to a URL or holds an image could validate. The values are read as `anyOf`: each still
// has to be one of those shapes.
const recordValues = schemas.DocumentTableRecord.properties.values.additionalProperties as Json;
recordValues.anyOf = recordValues.oneOf;
delete recordValues.oneOf;
