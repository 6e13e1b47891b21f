// Renders pages of a revision as a PDF with pdfkit: a title page for the change request, then each
// content page from a new PDF page, its Document (as mdast, markdown-document.ts documentToMdast) laid out
// as headings, paragraphs (bold, italic, code and links kept), lists, tables (a line per row), quotes,
// hints and code blocks. Links stay links: to a web address, or, for a page of the revision that is in the
// PDF, to that page's place in the PDF. Annotations are footnotes: the annotated text, then `[n]` linking to
// the note, and the page's notes after its content, as a printed page shows them. Every page is also an entry
// of the PDF outline (the bookmarks pane), nested as in the page tree.
//
// The PDF uses the standard PDF fonts (Helvetica, Courier), which cover Latin-1 and the Windows-1252
// punctuation only: other characters (CJK, emoji, …) print as `?`. Embedding a Unicode font would need
// one shipped with the server.
import PDFDocument from 'pdfkit';
import { documentToMdast } from '../content/markdown-document.js';
import type { MarkdownRefs } from '../content/markdown-refs.js';
import { pageDocument } from '../content/page-content.js';
import { RefResolver } from '../content/ref-resolver.js';
import type { RevisionContent, StoredPage } from '../content/revision-content.js';

interface MdNode {
  type: string;
  value?: string;
  depth?: number;
  ordered?: boolean;
  start?: number | null;
  url?: string;
  alt?: string;
  style?: string;
  identifier?: string;
  children?: MdNode[];
}

export interface PdfPage {
  page: StoredPage;
  /** Depth in the page tree (0 for a top-level page), for the outline. */
  depth: number;
}

export interface PdfCover {
  title: string;
  lines: string[];
}

type Font = 'Helvetica' | 'Helvetica-Bold' | 'Helvetica-Oblique' | 'Helvetica-BoldOblique' | 'Courier';
interface Run {
  text: string;
  font: Font;
  link?: string;
}

// Windows-1252 beyond Latin-1: what the standard fonts' WinAnsiEncoding can print.
const winAnsiExtras = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** The text with every character the standard fonts cannot print replaced by `?`. */
export function printable(text: string): string {
  let out = '';
  // Markdown keeps Windows line ends (\r\n) in its text and code: a line end is printed as one.
  for (const ch of text.replace(/\r\n?/g, '\n').replace(/\t/g, '    ').normalize('NFC')) {
    const code = ch.codePointAt(0)!;
    out += (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || ch === '\n' || winAnsiExtras.has(ch) ? ch : '?';
  }
  return out;
}

const headingSizes = [20, 16, 14, 12, 11, 11];

function runsOf(nodes: MdNode[] = [], font: Font = 'Helvetica', link?: string): Run[] {
  return nodes.flatMap((node): Run[] => {
    switch (node.type) {
      case 'text':
        return [{ text: node.value ?? '', font, link }];
      case 'inlineCode':
        return [{ text: node.value ?? '', font: 'Courier', link }];
      case 'strong':
        return runsOf(node.children, font.includes('Oblique') ? 'Helvetica-BoldOblique' : 'Helvetica-Bold', link);
      case 'emphasis':
        return runsOf(node.children, font.includes('Bold') ? 'Helvetica-BoldOblique' : 'Helvetica-Oblique', link);
      case 'link':
        // Web addresses and pages of this PDF are clickable; anything else has no place a PDF reader can open.
        return runsOf(node.children, font, /^(https?:\/\/|mailto:)/.test(node.url ?? '') || node.url?.startsWith(PAGE_LINK) ? node.url : link);
      case 'image':
        return [{ text: `[image: ${node.alt || node.url}]`, font: 'Helvetica-Oblique' }];
      case 'break':
        return [{ text: '\n', font }];
      case 'footnoteReference':
        return [{ text: `[${node.identifier}]`, font, link: `${NOTE_LINK}${node.identifier}` }];
      default:
        return node.children ? runsOf(node.children, font, link) : node.value ? [{ text: node.value, font, link }] : [];
    }
  });
}

class Writer {
  /** The page being written, whose notes the footnote references link to. */
  pageId = '';

  constructor(private readonly doc: PDFKit.PDFDocument) {}

  noteDestination(identifier: string): string {
    return `note-${this.pageId}-${identifier}`;
  }

  /** A page's notes after its content: a short rule, then each note's number and its blocks. */
  notes(definitions: MdNode[]): void {
    const { doc } = this;
    if (definitions.length === 0) return;
    doc.moveDown(0.5);
    const y = doc.y;
    doc.moveTo(doc.page.margins.left, y).lineTo(doc.page.margins.left + 120, y).strokeColor('#999999').stroke();
    doc.moveDown(0.5);
    for (const note of definitions) {
      doc.addNamedDestination(this.noteDestination(note.identifier ?? ''));
      const [first, ...rest] = note.children ?? [];
      const number: Run = { text: `[${note.identifier}] `, font: 'Helvetica-Bold' };
      if (first?.type === 'paragraph') this.runs([number, ...runsOf(first.children)], { size: 9.5, color: '#333333' });
      else {
        this.runs([number], { size: 9.5, color: '#333333' });
        if (first) this.block(first, 12);
      }
      for (const child of rest) this.block(child, 12);
    }
  }

  runs(runs: Run[], options: { size: number; indent?: number; color?: string }): void {
    const { doc } = this;
    const visible = runs.filter((r) => r.text !== '');
    if (visible.length === 0) return;
    doc.fontSize(options.size).fillColor(options.color ?? 'black');
    visible.forEach((run, i) => {
      const last = i === visible.length - 1;
      doc.font(run.font).text(printable(run.text), {
        continued: !last,
        // Every line of a wrapped list item or quote stays under its first (pdfkit indents the first alone).
        indent: i === 0 ? options.indent ?? 0 : 0,
        indentAllLines: true,
        ...(run.link?.startsWith(PAGE_LINK) ? { goTo: run.link.slice(PAGE_LINK.length) } : run.link?.startsWith(NOTE_LINK) ? { goTo: this.noteDestination(run.link.slice(NOTE_LINK.length)) } : { link: run.link ?? null }),
        underline: run.link !== undefined,
      });
    });
    doc.moveDown(0.5);
  }

  block(node: MdNode, indent: number): void {
    const { doc } = this;
    switch (node.type) {
      case 'heading':
        doc.moveDown(0.3);
        this.runs(runsOf(node.children, 'Helvetica-Bold'), { size: headingSizes[(node.depth ?? 1) - 1], indent });
        return;
      case 'paragraph':
        this.runs(runsOf(node.children), { size: 11, indent });
        return;
      case 'code':
        doc.font('Courier').fontSize(9.5).fillColor('#333333').text(printable(node.value ?? ''), { indent: indent + 12, indentAllLines: true });
        doc.moveDown(0.5);
        return;
      case 'blockquote':
        for (const child of node.children ?? []) {
          if (child.type === 'paragraph') this.runs(runsOf(child.children, 'Helvetica-Oblique'), { size: 11, indent: indent + 18, color: '#555555' });
          else this.block(child, indent + 18);
        }
        return;
      case 'hint':
        // A hint: its style as a label (Info, Warning, …), its blocks indented under it.
        this.runs([{ text: `${(node.style ?? 'info').charAt(0).toUpperCase()}${(node.style ?? 'info').slice(1)}`, font: 'Helvetica-Bold' }], { size: 11, indent: indent + 18, color: '#555555' });
        for (const child of node.children ?? []) this.block(child, indent + 18);
        return;
      case 'list':
        (node.children ?? []).forEach((item, i) => {
          const marker = node.ordered ? `${(node.start ?? 1) + i}. ` : '• ';
          const [first, ...rest] = item.children ?? [];
          if (first?.type === 'paragraph') this.runs([{ text: marker, font: 'Helvetica' }, ...runsOf(first.children)], { size: 11, indent: indent + 12 });
          else if (first) this.block(first, indent + 12);
          for (const child of rest) this.block(child, indent + 24);
        });
        return;
      case 'thematicBreak': {
        const y = doc.y + 4;
        doc.moveTo(doc.page.margins.left, y).lineTo(doc.page.width - doc.page.margins.right, y).strokeColor('#cccccc').stroke();
        doc.moveDown(1);
        return;
      }
      case 'table':
        // A line per row, its cells apart; the header row in bold.
        (node.children ?? []).forEach((row, r) => {
          const cells = (row.children ?? []).map((cell) => runsOf(cell.children, r === 0 ? 'Helvetica-Bold' : 'Helvetica'));
          this.runs(cells.flatMap((runs, i) => (i === 0 ? runs : [{ text: '    ', font: 'Helvetica' as const }, ...runs])), { size: 10, indent });
        });
        return;
      case 'html':
        return; // raw HTML has no PDF form
      default:
        if (node.value) this.runs([{ text: node.value, font: 'Helvetica' }], { size: 11, indent });
        for (const child of node.children ?? []) this.block(child, indent);
    }
  }
}

/** Link targets of pages of the PDF: their named destination, after this prefix. */
const PAGE_LINK = 'pdf-page:';
/** Link targets of the notes of the page being written: the note's number, after this prefix. */
const NOTE_LINK = 'pdf-note:';

/** References as the PDF writes them: web addresses as they are, pages of the PDF as their destination. */
function pdfRefs(resolver: RefResolver, page: StoredPage, inPdf: Set<string>): MarkdownRefs {
  const markdown = resolver.markdownRefs(page);
  return {
    write: (ref) => {
      const resolved = resolver.resolve(ref, page);
      if (resolved.kind === 'page' && inPdf.has(resolved.page.id)) return `${PAGE_LINK}page-${resolved.page.id}`;
      return resolved.kind === 'external' ? resolved.url : '';
    },
    read: markdown.read,
    label: markdown.label,
  };
}

/** The blocks of a page, without a leading heading that only repeats the page title, and its notes (its annotations' bodies). */
function blocksOf(page: StoredPage, refs: MarkdownRefs): { blocks: MdNode[]; notes: MdNode[] } {
  const all = (documentToMdast(pageDocument(page), refs, { notes: true }) as MdNode).children ?? [];
  const notes = all.filter((node) => node.type === 'footnoteDefinition');
  const blocks = all.filter((node) => node.type !== 'footnoteDefinition');
  const [first] = blocks;
  const headingText = first?.type === 'heading' ? runsOf(first.children).map((r) => r.text).join('').trim() : undefined;
  return { blocks: headingText === page.title.trim() ? blocks.slice(1) : blocks, notes };
}

/** A PDF of the cover and the pages, in the given order. */
export function renderPdf(cover: PdfCover, pages: PdfPage[], content: RevisionContent): Promise<Buffer> {
  const resolver = new RefResolver(content);
  const inPdf = new Set(pages.map((p) => p.page.id));
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: printable(cover.title), Creator: 'Documentation Workspace API' } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const writer = new Writer(doc);

  doc.font('Helvetica-Bold').fontSize(24).text(printable(cover.title));
  doc.moveDown(0.5);
  for (const line of cover.lines) doc.font('Helvetica').fontSize(11).fillColor('#555555').text(printable(line));
  if (pages.length === 0) doc.moveDown(1).fillColor('black').text('This change request has no pages.');

  const parents: PDFKit.PDFOutline[] = [doc.outline];
  for (const { page, depth } of pages) {
    doc.addPage();
    doc.addNamedDestination(`page-${page.id}`);
    const parent = parents[Math.min(depth, parents.length - 1)];
    parents[depth + 1] = parent.addItem(printable(page.title));
    parents.length = depth + 2;
    doc.font('Helvetica-Bold').fontSize(22).fillColor('black').text(printable(page.title));
    if (page.description) doc.font('Helvetica-Oblique').fontSize(12).fillColor('#555555').text(printable(page.description));
    doc.moveDown(0.8);
    const { blocks, notes } = blocksOf(page, pdfRefs(resolver, page, inPdf));
    writer.pageId = page.id;
    for (const block of blocks) writer.block(block, 0);
    writer.notes(notes);
  }
  doc.end();
  return done;
}
