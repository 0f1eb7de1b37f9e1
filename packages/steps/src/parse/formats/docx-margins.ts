import { type Attributes, OfficePackage, relationships } from './office-package.ts';

/**
 * The headers and footers of a DOCX, which mammoth (body only) leaves out: a letterhead set in
 * the page header is most of what says who sent a document. The header the first page shows
 * (the first section's first-page header when it has a distinct first page, else its default
 * one) reads before the body; the headers of later pages (a running letterhead, an even-page
 * header) and the footers after it, a part whose text repeats an earlier one's left out. Each part
 * is read as HTML (paragraphs, tables, text boxes). Decision 0044 says why there.
 */
export interface DocxMargins {
  /** HTML of the first page's header, to be read before the body. */
  readonly before: string;
  /** HTML of the other headers and of the footers, to be read after the body. */
  readonly after: string;
}

const RELATION = /\/(header|footer)$/;

/** Escapes text for HTML. */
function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * HTML of one header or footer part: `<p>` per paragraph and per part of one that tabs set apart
 * (a break as `<br>`, a bold run in `<strong>`), `<table>` per table; a text box's paragraphs
 * follow the paragraph that anchors them.
 * Field codes and deleted text are not text; of markup-compatibility alternatives only the first
 * choice is read (the fallback repeats it).
 */
function partHtml(book: OfficePackage, path: string): string {
  const entry = book.entry(path);
  if (!entry) return '';
  // Every open paragraph's HTML; closed ones go to the innermost open container.
  const paragraphs: string[] = [];
  const containers: string[] = [''];
  let skip = 0;
  // The text of the open `w:t` (htmlparser2 hands it over in pieces, split at entities).
  let text: string | undefined;
  let bold = false;
  // Open runs: a `w:tab` inside one is a tab; outside, in `w:tabs`, it defines a tab stop.
  let runs = 0;
  const add = (html: string) => {
    const last = containers.length - 1;
    containers[last] = `${containers[last] ?? ''}${html}`;
  };
  const ignored = new Set(['instrText', 'delText', 'Fallback']);
  book.read(entry, {
    open(name: string, a: Attributes) {
      if (ignored.has(name)) skip++;
      if (skip > 0) return;
      if (name === 'p') paragraphs.push('');
      else if (name === 'r') {
        bold = false;
        runs++;
      } else if (name === 'b') bold = !/^(0|false|off)$/.test(a['w:val'] ?? '');
      else if (name === 't') text = '';
      else if (name === 'tab' && runs > 0 && paragraphs.length > 0)
        paragraphs.push(`${paragraphs.pop()}\t`);
      else if ((name === 'br' || name === 'cr') && paragraphs.length > 0) {
        paragraphs.push(`${paragraphs.pop()}<br>`);
      } else if (name === 'tbl' || name === 'tr' || name === 'tc' || name === 'txbxContent') {
        containers.push('');
      }
    },
    text(piece: string) {
      if (skip === 0 && text !== undefined) text += piece;
    },
    close(name: string) {
      if (ignored.has(name)) {
        skip--;
        return;
      }
      if (skip > 0) return;
      if (name === 't') {
        const html = escapeHtml(text ?? '');
        text = undefined;
        if (html !== '' && paragraphs.length > 0) {
          paragraphs.push(`${paragraphs.pop()}${bold ? `<strong>${html}</strong>` : html}`);
        }
      } else if (name === 'r') runs--;
      else if (name === 'p') {
        // Runs split by formatting changes read as one emphasis. The parts a tab sets apart (a
        // name at the left stop, "INVOICE" at the right one) are paragraphs of their own.
        const html = (paragraphs.pop() ?? '').replace(/<\/strong><strong>/g, '');
        for (const part of html.split('\t'))
          if (part.replace(/<br>/g, '').trim() !== '') add(`<p>${part}</p>`);
      } else if (name === 'tbl') add(`<table>${containers.pop()}</table>`);
      else if (name === 'tr') add(`<tr>${containers.pop()}</tr>`);
      else if (name === 'tc') add(`<td>${containers.pop()}</td>`);
      else if (name === 'txbxContent') add(containers.pop() ?? '');
    },
  });
  return containers.join('');
}

/** Text of some HTML, for telling repeated headers apart. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The first section's header references (`w:headerReference`, by type) and whether it has a
 * distinct first page (`w:titlePg`): the first `w:sectPr` of the document, in the last paragraph
 * of the first section or at the end of the body.
 */
function firstSection(
  book: OfficePackage,
  path: string,
): {
  headers: Map<string, string>;
  titlePage: boolean;
} {
  const headers = new Map<string, string>();
  let titlePage = false;
  let state: 'before' | 'in' | 'after' = 'before';
  const entry = book.entry(path);
  if (!entry) return { headers, titlePage };
  book.read(entry, {
    open(name: string, a: Attributes) {
      if (name === 'sectPr' && state === 'before') state = 'in';
      if (state !== 'in') return;
      if (name === 'headerReference' && a['r:id']) headers.set(a['w:type'] ?? 'default', a['r:id']);
      else if (name === 'titlePg') titlePage = !/^(0|false|off)$/.test(a['w:val'] ?? '');
    },
    close(name: string) {
      if (name === 'sectPr' && state === 'in') state = 'after';
    },
  });
  return { headers, titlePage };
}

/** Reads the headers and footers of a DOCX (empty strings when it has none). */
export function readDocxMargins(bytes: Uint8Array): DocxMargins {
  const book = new OfficePackage(bytes);
  const main = [...relationships(book, '').values()].find((r) =>
    r.type.endsWith('/officeDocument'),
  );
  if (!main) return { before: '', after: '' };
  const rels = relationships(book, main.target);
  const parts = { header: [] as string[], footer: [] as string[] };
  for (const relation of rels.values()) {
    const kind = RELATION.exec(relation.type)?.[1] as 'header' | 'footer' | undefined;
    if (kind) parts[kind].push(relation.target);
  }
  const section = firstSection(book, main.target);
  const firstId = section.headers.get(section.titlePage ? 'first' : 'default');
  const first = firstId ? rels.get(firstId)?.target : undefined;
  const seen = new Set<string>();
  const html = (paths: readonly string[]) => {
    let out = '';
    // header1.xml, header2.xml, … in their numbers' order (Word numbers them as it writes them).
    const number = (p: string) => Number(/(\d+)\.xml$/.exec(p)?.[1] ?? 0);
    for (const path of [...paths].sort((a, b) => number(a) - number(b))) {
      const part = partHtml(book, path);
      const text = textOf(part);
      if (text === '' || seen.has(text)) continue;
      seen.add(text);
      out += part;
    }
    return out;
  };
  const before = first ? html([first]) : '';
  const after = html(parts.header.filter((p) => p !== first)) + html(parts.footer);
  return { before, after };
}
