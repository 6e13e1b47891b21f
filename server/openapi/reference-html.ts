// The rendered reference of a public OpenAPI specification: its title, version and description, then every
// operation grouped by tag (method, path, summary, description, parameters). Everything is escaped text:
// a specification is untrusted input, and nothing of it is read as HTML.
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const str = (value: unknown) => (typeof value === 'string' ? value : '');
const obj = (value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

interface Operation {
  method: string;
  path: string;
  summary: string;
  description: string;
  parameters: { name: string; where: string; required: boolean }[];
}

function operationsOf(document: Record<string, unknown>): Map<string, Operation[]> {
  const byTag = new Map<string, Operation[]>();
  for (const [path, item] of Object.entries(obj(document.paths))) {
    for (const method of METHODS) {
      const op = obj(obj(item)[method]);
      if (!Object.keys(op).length) continue;
      const parameters = (Array.isArray(op.parameters) ? op.parameters : []).map((p) => ({ name: str(obj(p).name), where: str(obj(p).in), required: obj(p).required === true }));
      const tag = Array.isArray(op.tags) && typeof op.tags[0] === 'string' ? op.tags[0] : 'Operations';
      byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, summary: str(op.summary), description: str(op.description), parameters }]);
    }
  }
  return byTag;
}

/** The HTML page of the reference; `documentUrl` is where the document itself is downloaded. */
export function referenceHtml(document: Record<string, unknown>, documentUrl: string): string {
  const info = obj(document.info);
  const title = str(info.title) || 'API reference';
  const sections = [...operationsOf(document)].map(
    ([tag, ops]) =>
      `<section><h2>${escapeHtml(tag)}</h2>${ops
        .map(
          (op) => `<article class="op"><h3><span class="method ${op.method}">${op.method.toUpperCase()}</span> <code>${escapeHtml(op.path)}</code></h3>${
            op.summary ? `<p><strong>${escapeHtml(op.summary)}</strong></p>` : ''
          }${op.description ? `<p>${escapeHtml(op.description)}</p>` : ''}${
            op.parameters.length
              ? `<ul>${op.parameters.map((p) => `<li><code>${escapeHtml(p.name)}</code> (${escapeHtml(p.where)}${p.required ? ', required' : ''})</li>`).join('')}</ul>`
              : ''
          }</article>`,
        )
        .join('')}</section>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font:16px/1.6 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}code{font-family:ui-monospace,Menlo,monospace}
.op{border:1px solid #e3e5e8;border-radius:6px;padding:.5rem 1rem;margin:1rem 0}.method{font-size:.8rem;padding:.1rem .4rem;border-radius:4px;background:#eef2ff}</style></head>
<body><header><h1>${escapeHtml(title)}</h1>${str(info.version) ? `<p>Version ${escapeHtml(str(info.version))}</p>` : ''}${
    str(info.description) ? `<p>${escapeHtml(str(info.description))}</p>` : ''
  }<p><a href="${escapeHtml(documentUrl)}">Download the specification (JSON)</a></p></header>
${sections.join('\n') || '<p>This specification has no operations.</p>'}</body></html>`;
}
