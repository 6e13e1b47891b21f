// The `integration` blocks of a published page (a Mermaid diagram, a Figma frame…): each is rendered by its
// integration's component (`ui_render`, server/integrations/ui-render.ts) with the installation that covers the
// page's space, and its ContentKit tree shown as HTML (contentkit-html.ts). The page's Markdown renderer knows
// nothing of them: each block is swapped for a marker paragraph before the page is rendered, and the marker's
// HTML for the block's afterwards. A marker carries a token drawn at start, so no content can forge one. A block
// whose integration is not installed on the space shows nothing; one that fails to render says so.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client.js';
import type { Block, Document } from '../content/markdown-document.js';
import { contentKitHtml } from '../integrations/contentkit-html.js';
import { renderComponent } from '../integrations/ui-render.js';
import { installationOnSpace } from '../integrations/ui-render.store.js';
import { WEBFRAME_HOST_PATH } from '../integrations/webframe-host.js';
import type { SiteScript } from '../sites/site-scripts.js';
import type { Urls } from '../urls.js';
import { escapeHtml } from './page-html.js';

const MARKER = `contentkit-${randomUUID().replaceAll('-', '')}`;

/** What the page's render gave (its HTML, and what else it tells of the page), with its webframes' origins. */
export type PageWithBlocks<Page extends { html: string }> = Page & {
  /** Origins the page's webframes load from: its policy's frame-src. */
  frameOrigins: string[];
};

interface IntegrationBlock {
  integration: string;
  block: string;
  props: Record<string, unknown>;
  action?: Record<string, unknown>;
}

/** The document with each `integration` block replaced by a marker paragraph, and the blocks in marker order. */
function markBlocks(document: Document): { marked: Document; blocks: IntegrationBlock[] } {
  const blocks: IntegrationBlock[] = [];
  const mark = (nodes: Block[]): Block[] =>
    nodes.map((node) => {
      if (node.object === 'block' && node.type === 'integration') {
        const data = (node.data ?? {}) as Record<string, unknown>;
        blocks.push({
          integration: String(data.integration ?? ''),
          block: String(data.block ?? ''),
          props: data.props && typeof data.props === 'object' ? (data.props as Record<string, unknown>) : {},
          ...(typeof data.action === 'object' && data.action !== null ? { action: data.action as Record<string, unknown> } : {}),
        });
        return { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: `${MARKER}-${blocks.length - 1}`, marks: [] }] }] } as unknown as Block;
      }
      const children = (node as { nodes?: unknown }).nodes;
      return Array.isArray(children) && children.some((c) => (c as { object?: string }).object === 'block') ? ({ ...node, nodes: mark(children as Block[]) } as Block) : node;
    });
  return { marked: { ...document, nodes: mark(document.nodes) }, blocks };
}

/** The HTML of one block: its component's tree, nothing when not installed, a note when it fails. */
async function blockHtml(db: Db, spaceId: string, block: IntegrationBlock): Promise<{ html: string; frameOrigins: string[] }> {
  const installationId = block.integration ? await installationOnSpace(db, block.integration, spaceId) : undefined;
  if (!installationId) return { html: '', frameOrigins: [] };
  const rendered = await renderComponent(db, block.integration, { installationId, spaceId }, {
    componentId: block.block,
    props: block.props,
    context: { type: 'document', spaceId, editable: false, theme: 'light' },
    ...(block.action && { action: block.action }),
  });
  if (!rendered.ok || rendered.output.type !== 'element') {
    return { html: `<div class="contentkit contentkit-unavailable"><p>This block of ${escapeHtml(block.integration)} could not be shown.</p></div>`, frameOrigins: [] };
  }
  return contentKitHtml(rendered.output.element, rendered.output.state);
}

/** The page's HTML (`render` of its document) with its integration blocks rendered by their integrations. */
export async function renderWithIntegrationBlocks<Page extends { html: string }>(
  db: Db,
  spaceId: string,
  document: Document,
  render: (document: Document) => Promise<Page>,
): Promise<PageWithBlocks<Page>> {
  const { marked, blocks } = markBlocks(document);
  if (blocks.length === 0) return { ...(await render(document)), frameOrigins: [] };
  const [page, parts] = await Promise.all([render(marked), Promise.all(blocks.map((b) => blockHtml(db, spaceId, b)))]);
  const html = page.html.replace(new RegExp(`<p>${MARKER}-(\\d+)</p>`, 'g'), (_, i: string) => parts[Number(i)]?.html ?? '');
  return { ...page, html, frameOrigins: [...new Set(parts.flatMap((p) => p.frameOrigins))] };
}

/** The webframe host script of a page whose webframes load from `origins`, with the frame-src they need; none without. */
export function webframeScripts(origins: string[], urls: Urls): SiteScript[] {
  if (origins.length === 0) return [];
  return [{ script: urls.root(WEBFRAME_HOST_PATH), contentSecurityPolicy: `frame-src ${origins.join(' ')}`, cookies: false }];
}
