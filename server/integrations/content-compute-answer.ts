// What an integration's script must answer to a `content_compute_*` event, read: GitBook's
// ContentComputeDocumentEventResponse (`{ document }`, a JSONDocument) and ContentComputeRevisionEventResponse
// (`{ pages?, files? }`: InputPages and InputFiles). An answer that is not one is the script's fault, named
// with the first problems found (content-compute.ts turns it into a 503).
import { z } from 'zod';
import { ContentRef, Document } from '../../contract/document.js';
import type { InputPage } from '../revisions/computed-pages.js';

const computedSource = z.object({
  type: z.string().regex(/^(builtin:openapi|builtin:translation|integration:[^:]+:[^:]+)$/),
  props: z.record(z.string(), z.unknown()),
  // A resolved dependency's `value` is the script's business: the page keeps the reference.
  dependencies: z
    .record(z.string(), z.object({ ref: ContentRef }))
    .optional()
    .transform((d) => d ?? {}),
});

const pageBase = {
  id: z.string().regex(/^[a-zA-Z0-9]{1,40}$/).optional(),
  title: z.string().min(1).max(100_000),
  emoji: z.string().max(50).optional(),
  icon: z.string().max(50).optional(),
};
const slug = z.string().max(100).optional().transform((s) => (s === '' ? undefined : s));

const inputPage: z.ZodType<InputPage, unknown> = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.object({ ...pageBase, type: z.literal('document'), slug, description: z.string().max(300).optional(), computed: computedSource.optional(), pages: z.array(inputPage).max(1000).optional() }),
    z.object({ ...pageBase, type: z.literal('group'), slug, pages: z.array(inputPage).max(1000) }),
    z.object({ ...pageBase, type: z.literal('link'), target: ContentRef }),
    z.object({ ...pageBase, type: z.literal('computed'), computed: computedSource }),
  ]),
) as z.ZodType<InputPage, unknown>;

const inputFile = z.object({
  id: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/).optional(),
  name: z.string().min(1).max(300),
  contentType: z.string().min(1).max(200),
  downloadURL: z.url({ protocol: /^https?$/ }).max(4096),
  size: z.number().nonnegative(),
  dimensions: z.object({ width: z.number(), height: z.number() }).optional(),
});

const revisionAnswer = z.object({ pages: z.array(inputPage).max(5000).optional(), files: z.array(inputFile).max(5000).optional() });
const documentAnswer = z.object({ document: Document });

export type RevisionAnswer = { pages: InputPage[]; files: z.output<typeof inputFile>[] };

/** The first problems of a parse, each with its path (`pages.0.title: …`). */
function problems(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.map(String).join('.') || '(answer)'}: ${i.message}`)
    .join('; ');
}

// Deeper answers are refused before they are read (the schemas read recursively); a stored document may nest 64
// blocks (server/content/document-check.ts), each a few levels of JSON.
const MAX_DEPTH = 400;

/** Whether `value` nests objects and arrays deeper than MAX_DEPTH (walked without recursion). */
function tooDeep(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_DEPTH) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** The document of a `content_compute_document` answer, or why it is not one. */
export function readDocumentAnswer(output: unknown): { ok: true; value: z.output<typeof Document> } | { ok: false; reason: string } {
  if (tooDeep(output)) return { ok: false, reason: `JSON nested deeper than ${MAX_DEPTH} levels` };
  const read = documentAnswer.safeParse(output);
  return read.success ? { ok: true, value: read.data.document } : { ok: false, reason: `not a ContentComputeDocumentEventResponse ({ document }): ${problems(read.error)}` };
}

/** The pages and files of a `content_compute_revision` answer, or why it is not one. */
export function readRevisionAnswer(output: unknown): { ok: true; value: RevisionAnswer } | { ok: false; reason: string } {
  if (tooDeep(output)) return { ok: false, reason: `JSON nested deeper than ${MAX_DEPTH} levels` };
  const read = revisionAnswer.safeParse(output);
  if (!read.success) return { ok: false, reason: `not a ContentComputeRevisionEventResponse ({ pages, files }): ${problems(read.error)}` };
  return { ok: true, value: { pages: read.data.pages ?? [], files: read.data.files ?? [] } };
}
