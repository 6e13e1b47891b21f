// Includes that name nothing: a `reusable-content` block of the space (no `space` in its ref) whose
// reusable content the repository (or the content written) does not hold. They are kept as the
// reference they name, and reported as warnings naming the file, so a dangling include is seen.
import type { Document } from '../../content/markdown-document.js';
import { INCLUDES_DIR } from './layout.js';

/** The names of the space's reusable contents `document` includes that are not in `known`, in order, once each. */
export function danglingIncludes(document: Pick<Document, 'nodes'> | undefined, known: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (!value || typeof value !== 'object') return;
    const node = value as { type?: unknown; data?: { ref?: { kind?: string; reusableContent?: string; space?: string } } };
    const ref = node.type === 'reusable-content' ? node.data?.ref : undefined;
    if (ref?.kind === 'reusable-content' && ref.space === undefined && typeof ref.reusableContent === 'string' && !known.has(ref.reusableContent)) found.add(ref.reusableContent);
    for (const [key, child] of Object.entries(value)) if (key !== 'data' && child && typeof child === 'object') visit(child);
  };
  visit(document?.nodes ?? []);
  return [...found];
}

/** The warning of a dangling include in the file at `path`. */
export function danglingWarning(path: string, name: string): string {
  return `${path}: {% include "${name}" %} names no reusable content of the space (no file under ${INCLUDES_DIR}/): kept as a reference to "${name}"`;
}
