/**
 * Builds the {@link DocumentView} from parse outputs: text blocks become lines (a multi-line
 * block is cut into horizontal bands for citations, paragraphs relined from their geometry),
 * key-value blocks and "Label: value" lines become fields, table blocks and column-aligned lines
 * become tables.
 */
import type { Block } from '../../parse/parse-output.ts';
import { plain } from './block-text.ts';
import type {
  DocumentField,
  DocumentLine,
  DocumentPage,
  DocumentRegion,
  DocumentTable,
  DocumentView,
  ParsedFile,
} from './document-view.ts';
import {
  balanceRowFields,
  besideFields,
  lineFields,
  summaryRowFields,
  tableFields,
} from './label-values.ts';
import { bestGeometry, blockLines, isLayoutText } from './layout-text.ts';
import { ocrLines } from './ocr-lines.ts';
import { type LineSegment, relinePage } from './reline-page.ts';
import {
  repairColumns,
  splitAtHeaders,
  tableFromCells,
  tableFromMarkdown,
  tablesFromLines,
} from './table-inference.ts';
import { boxOf, rect } from './view-geometry.ts';

const DEFAULT_WIDTH = 612;
const DEFAULT_HEIGHT = 792;

interface PageDraft {
  number: number;
  width: number;
  height: number;
  sheetIndex?: number;
  lines: DocumentLine[];
  fields: DocumentField[];
  tables: DocumentTable[];
  /** The lines holding a table block's rows, and the index of that table in `tables`. */
  tableLines: Map<DocumentLine, number>;
}

function addFile(
  parsed: ParsedFile,
  pages: Map<string, PageDraft & { fileId?: string }>,
  order: string[],
): void {
  const { output, fileId } = parsed;
  const pageSizes = new Map<number, { width: number; height: number }>();
  for (const p of output.metadata?.pages ?? []) {
    pageSizes.set(p.number, { width: p.originalPageWidth, height: p.originalPageHeight });
  }
  const draftFor = (
    number: number,
    width?: number,
    height?: number,
    sheetIndex?: number,
  ): PageDraft => {
    const key = `${fileId ?? ''}#${number}`;
    let draft = pages.get(key);
    if (!draft) {
      const size = pageSizes.get(number);
      draft = {
        number,
        width: width ?? size?.width ?? DEFAULT_WIDTH,
        height: height ?? size?.height ?? DEFAULT_HEIGHT,
        ...(sheetIndex === undefined ? {} : { sheetIndex }),
        ...(fileId === undefined ? {} : { fileId }),
        lines: [],
        fields: [],
        tables: [],
        tableLines: new Map(),
      };
      pages.set(key, draft);
      order.push(key);
    }
    return draft;
  };
  for (const chunk of output.chunks) {
    // Every page the chunk covers exists in the view, blank ones included (they separate documents).
    const { start, end } = chunk.metadata.pageRange;
    for (let n = start; n <= Math.min(end, start + 10_000); n++)
      draftFor(n, undefined, undefined, chunk.metadata.sheet?.index);
    const cellsByTable = new Map<string, Block[]>();
    for (const block of chunk.blocks) {
      if (block.type === 'table_cell' && block.parentBlockId) {
        const list = cellsByTable.get(block.parentBlockId) ?? [];
        list.push(block);
        cellsByTable.set(block.parentBlockId, list);
      }
    }
    const layout = chunk.blocks.length > 0 && chunk.type === 'page' && isLayoutText(chunk.content);
    if ((chunk.blocks.length === 0 || layout) && chunk.content.trim() !== '') {
      // Text without blocks (document chunking of plain text), or the spatial target's layout
      // text, which keeps every line and column gap that paragraph blocks lose: lines come from
      // the text, and their polygons from the block (or block line) that holds the same words.
      const draft = draftFor(chunk.metadata.pageRange.start);
      const geometry = layout ? blockLines(chunk.blocks) : [];
      for (const text of chunk.content.split('\n')) {
        const t = plain(text).trim();
        if (t === '') continue;
        const match = bestGeometry(t, geometry);
        draft.lines.push({
          fileId,
          page: draft.number,
          pageWidth: draft.width,
          pageHeight: draft.height,
          polygon: match?.polygon ?? [],
          ocrConfidence: match?.ocrConfidence ?? chunk.metadata.avgOcrConfidence,
          text: t,
          index: draft.lines.length,
          ...(layout ? { layout: true, column: Math.max(0, text.search(/\S/)) } : {}),
        });
      }
      continue;
    }
    for (const block of chunk.blocks) {
      const number = block.metadata.page?.number ?? chunk.metadata.pageRange.start;
      const draft = draftFor(
        number,
        block.metadata.page?.width,
        block.metadata.page?.height,
        block.metadata.sheet?.index,
      );
      const base: DocumentRegion = {
        fileId,
        page: number,
        pageWidth: draft.width,
        pageHeight: draft.height,
        polygon: block.polygon,
        ocrConfidence: block.metadata.avgOcrConfidence ?? null,
      };
      if (block.type === 'table_cell') continue;
      if (block.type === 'table') {
        const cells = cellsByTable.get(block.id);
        const found = cells ? tableFromCells(cells, base) : tableFromMarkdown(block.content, base);
        // A table the parser grouped from aligned rows of text (not drawn with rules) is read
        // from its rows like any other aligned lines: tables and fields come from the lines.
        if (found && !ruled(found) && found.header.some((c) => c.region.polygon.length > 0)) {
          for (const row of [found.header, ...found.rows]) {
            const line = rowLine(row, base, draft.lines.length);
            if (!line) continue;
            const { block: _block, ...free } = line;
            draft.lines.push(free);
          }
          continue;
        }
        for (const part of found ? splitAtHeaders(found) : []) {
          const table = repairColumns(part);
          draft.tables.push(table);
          for (const row of [part.header, ...part.rows]) {
            const line = rowLine(row, base, draft.lines.length);
            if (!line) continue;
            draft.lines.push(line);
            draft.tableLines.set(line, draft.tables.length - 1);
          }
        }
        continue;
      }
      if (block.type === 'key_value') {
        const details = block.details as { key?: string; value?: string };
        let label = details.key;
        let value = details.value;
        if (label === undefined || value === undefined) {
          const colon = block.content.indexOf(':');
          label = colon > 0 ? block.content.slice(0, colon).trim() : block.content.trim();
          value = colon > 0 ? block.content.slice(colon + 1).trim() : '';
        }
        draft.fields.push({ label, value, source: 'key_value', region: base, lineIndex: null });
        draft.lines.push({
          fileId: base.fileId,
          page: base.page,
          pageWidth: base.pageWidth,
          pageHeight: base.pageHeight,
          polygon: base.polygon,
          ocrConfidence: base.ocrConfidence,
          text: value === '' ? label : `${label}    ${value}`,
          index: draft.lines.length,
        });
        continue;
      }
      if (block.type === 'figure' || block.type === 'formula') continue;
      const scanned = ocrLines(block, base, draft.lines.length);
      if (scanned) {
        draft.lines.push(...scanned);
        continue;
      }
      const texts = block.content.split('\n').map(plain);
      const nonEmpty = texts.filter((t) => t.trim() !== '');
      const box = boxOf(block.polygon);
      let k = 0;
      for (const text of nonEmpty) {
        // One block may hold several lines: give each its own horizontal band of the block.
        const polygon =
          box && nonEmpty.length > 1
            ? rect(
                box.left,
                box.top + ((box.bottom - box.top) * k) / nonEmpty.length,
                box.right,
                box.top + ((box.bottom - box.top) * (k + 1)) / nonEmpty.length,
              )
            : block.polygon;
        draft.lines.push({
          fileId: base.fileId,
          page: base.page,
          pageWidth: base.pageWidth,
          pageHeight: base.pageHeight,
          polygon,
          ocrConfidence: base.ocrConfidence,
          text,
          index: draft.lines.length,
        });
        k++;
      }
    }
  }
}

/** A table row as a line: its cells side by side, each a segment with the cell's polygon. */
function rowLine(
  row: readonly DocumentTable['header'][number][],
  base: DocumentRegion,
  index: number,
): DocumentLine | undefined {
  let text = '';
  const segments: LineSegment[] = [];
  const boxes: { left: number; top: number; right: number; bottom: number }[] = [];
  for (const cell of row) {
    if (cell.text === '') continue;
    if (text !== '') text += '    ';
    segments.push({
      start: text.length,
      end: text.length + cell.text.length,
      polygon: cell.region.polygon,
    });
    text += cell.text;
    const b = boxOf(cell.region.polygon);
    if (b) boxes.push(b);
  }
  if (text === '') return undefined;
  const polygon =
    boxes.length > 0
      ? rect(
          Math.min(...boxes.map((b) => b.left)),
          Math.min(...boxes.map((b) => b.top)),
          Math.max(...boxes.map((b) => b.right)),
          Math.max(...boxes.map((b) => b.bottom)),
        )
      : base.polygon;
  return {
    fileId: base.fileId,
    page: base.page,
    pageWidth: base.pageWidth,
    pageHeight: base.pageHeight,
    polygon,
    ocrConfidence: base.ocrConfidence,
    text,
    index,
    ...(boxes.length === segments.length && segments.length > 1 ? { segments } : {}),
    block: 'table',
  };
}

/**
 * True for a table drawn with rules: in every column the cells share their left and right
 * edges, and neighbouring columns touch (cells are the grid's, not their text's extent).
 */
function ruled(table: DocumentTable): boolean {
  const rows = [table.header, ...table.rows];
  const width = Math.max(0, ...rows.map((r) => r.length));
  const edges: { left: number; right: number }[] = [];
  for (let c = 0; c < width; c++) {
    const boxes = rows.flatMap((r) => {
      const b = boxOf(r[c]?.region.polygon ?? []);
      return b ? [b] : [];
    });
    if (boxes.length < 2) continue;
    const first = boxes[0] as { left: number; right: number };
    if (
      !boxes.every((b) => Math.abs(b.left - first.left) < 1 && Math.abs(b.right - first.right) < 1)
    )
      return false;
    edges.push(first);
  }
  if (edges.length < 2) return false;
  let touching = 0;
  for (let c = 1; c < edges.length; c++)
    if (
      Math.abs((edges[c] as { left: number }).left - (edges[c - 1] as { right: number }).right) <
      1.5
    )
      touching++;
  return touching * 2 >= edges.length - 1;
}

/** Derives fields and text tables from a page's lines. */
function finishPage(draft: PageDraft & { fileId?: string }): DocumentPage {
  const relined = relinePage(draft.lines, (base, text, polygon, segments) => {
    // A line merged from several blocks is no table block's row of its own.
    const { block: _block, ...rest } = base;
    return { ...rest, text, polygon, ...(segments ? { segments } : {}) };
  });
  // A table block whose rows share their lines with other text is the part of a wider table
  // that a layout parser cut off (the description column on its own): its rows, merged with
  // the rest, are left to table inference.
  const kept = new Set(relined);
  const partial = new Set<number>();
  for (const [line, table] of draft.tableLines) if (!kept.has(line)) partial.add(table);
  draft.lines = relined.map((line, index) => {
    const table = draft.tableLines.get(line);
    if (table !== undefined && partial.has(table)) {
      const { block: _block, ...rest } = line;
      return { ...rest, index };
    }
    return line.index === index ? line : { ...line, index };
  });
  const blockTables = draft.tables.filter((_, i) => !partial.has(i));
  const { fields: found, headers } = lineFields(draft.lines);
  // Where the lines show a row of labels over a row of values, a key-value reading of either row
  // (label → the next label) is wrong.
  const bands = [...headers].flatMap((i) => {
    const b = boxOf(draft.lines[i]?.polygon ?? []);
    return b ? [b] : [];
  });
  const inHeader = (f: DocumentField) => {
    const b = boxOf(f.region.polygon);
    if (!b) return false;
    const y = (b.top + b.bottom) / 2;
    return bands.some(
      (h) => y >= h.top && y <= h.bottom && b.left >= h.left - 1 && b.right <= h.right + 1,
    );
  };
  const lineTables = tablesFromLines(draft.lines, draft.fileId);
  const summaries = lineTables.flatMap(summaryRowFields);
  // A row of labels over a row of values is no label beside its value ("Opening Balance" →
  // "Ending Balance") once the labels have taken the values under them.
  const summaryLabels = new Set(summaries.map((f) => f.label));
  const besideLabels = new Set(
    found.filter((f) => f.source === 'line' || f.source === 'row').map((f) => f.label),
  );
  const fields = [
    ...draft.fields.filter((f) => f.source !== 'key_value' || !inHeader(f)),
    ...blockTables.flatMap(tableFields),
    ...summaries,
    // A label whose value its own line gives ("Vendor    Acme Tools Ltd") keeps that value.
    ...lineTables.flatMap(besideFields).filter((f) => !besideLabels.has(f.label)),
    ...[...blockTables, ...lineTables].flatMap(balanceRowFields),
    ...found.filter((f) => !(summaryLabels.has(f.label) && summaryLabels.has(f.value))),
  ];
  const tables = [...blockTables, ...lineTables];
  return {
    number: draft.number,
    ...(draft.fileId === undefined ? {} : { fileId: draft.fileId }),
    width: draft.width,
    height: draft.height,
    ...(draft.sheetIndex === undefined ? {} : { sheetIndex: draft.sheetIndex }),
    lines: draft.lines,
    fields,
    tables,
    text: draft.lines.map((l) => l.text).join('\n'),
  };
}

/**
 * Builds the {@link DocumentView} of one or more parse outputs. Text blocks become lines (a
 * multi-line block is cut into horizontal bands for citations), key-value blocks and
 * "Label: value" lines become fields, table blocks and column-aligned lines become tables.
 */
export function buildDocumentView(files: readonly ParsedFile[]): DocumentView {
  const pages = new Map<string, PageDraft & { fileId?: string }>();
  const order: string[] = [];
  for (const file of files) addFile(file, pages, order);
  const result: DocumentPage[] = [];
  for (const file of files) {
    const prefix = `${file.fileId ?? ''}#`;
    const keys = order.filter((k) => k.startsWith(prefix));
    keys.sort((a, b) => Number(a.slice(prefix.length)) - Number(b.slice(prefix.length)));
    for (const key of keys) {
      const draft = pages.get(key);
      if (draft) result.push(finishPage(draft));
      pages.delete(key);
    }
  }
  const fileIds = files.flatMap((f) => (f.fileId === undefined ? [] : [f.fileId]));
  return { pages: result, fileIds };
}

/** The view restricted to some pages (per file numbering), renumbered from 1 when asked. */
export function selectPages(
  view: DocumentView,
  keep: (page: DocumentPage) => boolean,
): DocumentView {
  return { pages: view.pages.filter(keep), fileIds: view.fileIds };
}

/** The whole text of a view, page by page. */
export function viewText(view: DocumentView): string {
  return view.pages.map((p) => p.text).join('\n\n');
}
