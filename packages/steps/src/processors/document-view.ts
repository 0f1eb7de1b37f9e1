/**
 * The normalized document view the processors work on: pages with lines, labelled fields and
 * tables, each carrying the geometry and OCR confidence needed for citations. It is built from
 * one or more {@link ParseRunOutput}s (one per file on package runs) and is the input of every
 * {@link Provider}.
 */
import type { Block, ParseRunOutput, Point } from '../parse/parse-output.ts';
import { type LineSegment, relinePage } from './reline-page.ts';

/** Where a piece of text sits: the file, the page and its polygon in points. */
export interface DocumentRegion {
  /** The file the text comes from (set on package runs and when the caller knows it). */
  readonly fileId?: string | undefined;
  /** 1-based page number within its file. */
  readonly page: number;
  readonly pageWidth: number;
  readonly pageHeight: number;
  /** Corner points; empty when the source format has no geometry. */
  readonly polygon: readonly Point[];
  /** 0..1, null when the source had no OCR word confidences. */
  readonly ocrConfidence: number | null;
}

/** One line of text. */
export interface DocumentLine extends DocumentRegion {
  readonly text: string;
  /** Position of the line in its page, 0-based. */
  readonly index: number;
  /** Pieces with their own polygons, when the line was merged from several blocks. */
  readonly segments?: readonly LineSegment[];
  /** The text keeps the page's column positions (spatial layout text): align by characters. */
  readonly layout?: boolean;
}

/** A labelled value: a key-value block, or a line such as "Invoice number: INV-001". */
export interface DocumentField {
  readonly label: string;
  readonly value: string;
  readonly source: 'key_value' | 'line';
  /** Where the value is. */
  readonly region: DocumentRegion;
  /** The line the label is on, when the field came from text (index into the page's lines). */
  readonly lineIndex: number | null;
}

/** A table cell. */
export interface DocumentCell {
  readonly text: string;
  readonly region: DocumentRegion;
}

/** A table: a header row and body rows (cells aligned by column). */
export interface DocumentTable {
  readonly page: number;
  readonly fileId?: string;
  readonly header: readonly DocumentCell[];
  readonly rows: readonly (readonly DocumentCell[])[];
}

/** One page of one file. */
export interface DocumentPage {
  /** 1-based page number within its file. */
  readonly number: number;
  readonly fileId?: string;
  readonly width: number;
  readonly height: number;
  /** The sheet of a spreadsheet page (0-based index). */
  readonly sheetIndex?: number;
  readonly lines: readonly DocumentLine[];
  readonly fields: readonly DocumentField[];
  readonly tables: readonly DocumentTable[];
  /** The page's lines joined with newlines. */
  readonly text: string;
}

/** A document as processors see it: its pages in order (file by file on package runs). */
export interface DocumentView {
  readonly pages: readonly DocumentPage[];
  /** The files the pages come from, in order; empty when unknown. */
  readonly fileIds: readonly string[];
}

/** A parse output and the file it belongs to. */
export interface ParsedFile {
  readonly output: ParseRunOutput;
  readonly fileId?: string;
}

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
}

/** Strips markdown decorations the parser adds to block content (headings, emphasis, bullets). */
function plain(text: string): string {
  return text
    .replace(/^\s{0,3}#{1,6}\s+/, '')
    .replace(/\*\*|__/g, '')
    .replace(/^\s*[-*•]\s+/, '')
    .replace(/\s+$/, '');
}

function boxOf(polygon: readonly Point[]) {
  if (polygon.length === 0) return null;
  let left = Number.POSITIVE_INFINITY;
  let top = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  let bottom = Number.NEGATIVE_INFINITY;
  for (const p of polygon) {
    left = Math.min(left, p.x);
    top = Math.min(top, p.y);
    right = Math.max(right, p.x);
    bottom = Math.max(bottom, p.y);
  }
  return { left, top, right, bottom };
}

function rect(left: number, top: number, right: number, bottom: number): Point[] {
  const r = (n: number) => Math.round(n * 100) / 100;
  return [
    { x: r(left), y: r(top) },
    { x: r(right), y: r(top) },
    { x: r(right), y: r(bottom) },
    { x: r(left), y: r(bottom) },
  ];
}

/** The polygon of characters `from..to` of a line whose polygon spans its whole text. */
export function slicePolygon(
  polygon: readonly Point[],
  textLength: number,
  from: number,
  to: number,
): readonly Point[] {
  const box = boxOf(polygon);
  if (!box || textLength <= 0) return polygon;
  const width = box.right - box.left;
  const a = box.left + (width * Math.max(0, from)) / textLength;
  const b = box.left + (width * Math.min(textLength, to)) / textLength;
  return rect(a, box.top, b, box.bottom);
}

/** The polygon of characters `from..to` of a line, through its segments when it has them. */
export function linePolygon(line: DocumentLine, from: number, to: number): readonly Point[] {
  const segment = line.segments?.find((s) => from >= s.start && to <= s.end);
  if (segment)
    return slicePolygon(
      segment.polygon,
      segment.end - segment.start,
      from - segment.start,
      to - segment.start,
    );
  return slicePolygon(line.polygon, line.text.length, from, to);
}

/** Splits a line into cells: on `|`, tabs, or runs of two or more spaces. */
export function splitCells(text: string): { text: string; start: number; end: number }[] {
  const cells: { text: string; start: number; end: number }[] = [];
  const separator = text.includes('|') ? /\|/g : text.includes('\t') ? /\t+/g : / {2,}/g;
  let start = 0;
  // A plain loop without inner closures: this runs for every line of every page.
  for (;;) {
    const match = separator.exec(text);
    const end = match ? match.index : text.length;
    const raw = text.slice(start, end);
    const value = raw.trim();
    if (value !== '') {
      const lead = raw.length - raw.trimStart().length;
      cells.push({ text: value, start: start + lead, end: start + lead + value.length });
    }
    if (!match) break;
    start = match.index + match[0].length;
  }
  return cells;
}

const INNER_LABEL = / (?=[A-Z][A-Za-z.#/&'-]*(?: [a-z#][A-Za-z.#/&'-]*){0,3}: )/g;

const LABEL_SHAPE = /^[\p{L}][\p{L}\p{N} .#/&()'-]{0,48}$/u;

/** Label/value pairs on a line: "Label: value" per cell, or a two-cell "Label   value" line. */
function linePairs(
  text: string,
): { label: string; value: string; valueStart: number; valueEnd: number }[] {
  const pairs: { label: string; value: string; valueStart: number; valueEnd: number }[] = [];
  const cells = splitCells(text);
  // A layout parser may join "Invoice #: 1    Date: 2" with one space: cut before inner labels.
  const pieces = cells.flatMap((cell) => {
    const out: { text: string; start: number; end: number }[] = [];
    let from = 0;
    for (const m of cell.text.matchAll(INNER_LABEL)) {
      if (m.index <= from || !cell.text.slice(0, m.index).includes(':')) continue;
      out.push({
        text: cell.text.slice(from, m.index),
        start: cell.start + from,
        end: cell.start + m.index,
      });
      from = m.index + 1;
    }
    out.push({ text: cell.text.slice(from), start: cell.start + from, end: cell.end });
    return out;
  });
  for (const cell of pieces) {
    const colon = cell.text.indexOf(':');
    if (colon <= 0) continue;
    const label = cell.text.slice(0, colon).trim();
    if (!LABEL_SHAPE.test(label)) continue;
    const rest = cell.text.slice(colon + 1);
    const value = rest.trim();
    const valueStart = cell.start + colon + 1 + (rest.length - rest.trimStart().length);
    pairs.push({ label, value, valueStart, valueEnd: valueStart + value.length });
  }
  const [first, second] = cells;
  if (pairs.length === 0 && cells.length === 2 && first && second && LABEL_SHAPE.test(first.text)) {
    if (/\d/.test(second.text) || second.text.length > 0) {
      pairs.push({
        label: first.text,
        value: second.text,
        valueStart: second.start,
        valueEnd: second.end,
      });
    }
  }
  return pairs;
}

const TOTAL_LINE = /^\s*(sub\s*-?\s*total|total|tax|vat|balance|amount due|grand total)\b/i;

interface PositionedWord {
  readonly text: string;
  readonly x0: number;
  readonly x1: number;
  readonly line: DocumentLine;
  readonly start: number;
  readonly end: number;
}

/** The words of a line with their x extents (from segments, the line polygon, or offsets). */
function positionedWords(line: DocumentLine): PositionedWord[] {
  const pieces = line.segments ?? [
    { start: 0, end: line.text.length, polygon: line.layout ? [] : line.polygon },
  ];
  const words: PositionedWord[] = [];
  for (const piece of pieces) {
    const box = boxOf(piece.polygon);
    const length = Math.max(1, piece.end - piece.start);
    const text = line.text.slice(piece.start, piece.end);
    for (const m of text.matchAll(/\S+/g)) {
      const a = m.index;
      const b = a + m[0].length;
      const x0 = box ? box.left + ((box.right - box.left) * a) / length : piece.start + a;
      const x1 = box ? box.left + ((box.right - box.left) * b) / length : piece.start + b;
      words.push({ text: m[0], x0, x1, line, start: piece.start + a, end: piece.start + b });
    }
  }
  return words;
}

/**
 * A table from lines whose columns line up: column separators are the x ranges that no word of
 * any line covers (whitespace rivers); each line's words are then dealt to the columns.
 */
function alignedTable(
  lines: readonly DocumentLine[],
  fileId: string | undefined,
): DocumentTable | null {
  const byLine = lines.map(positionedWords);
  // Columns come from the data rows: headers are shorter and more often joined ("Quantity Rate").
  const all = (byLine.length > 1 ? byLine.slice(1) : byLine).flat().sort((a, b) => a.x0 - b.x0);
  const first = all[0];
  if (!first) return null;
  const spaces = all.map((w) => (w.x1 - w.x0) / Math.max(1, w.text.length));
  const charWidth = spaces.sort((a, b) => a - b)[Math.floor(spaces.length / 2)] ?? 1;
  const columns: { x0: number; x1: number }[] = [{ x0: first.x0, x1: first.x1 }];
  for (const w of all) {
    const current = columns[columns.length - 1];
    if (!current) break;
    // A gap of more than about one space between covered ranges starts a new column.
    if (w.x0 > current.x1 + 1.5 * charWidth) columns.push({ x0: w.x0, x1: w.x1 });
    else current.x1 = Math.max(current.x1, w.x1);
  }
  // A column under two header words that a layout parser merged in the rows ("10/20/2023 ATM
  // withdrawal" under "Date" and "Description"): the rows' first word goes to the first.
  const headerWords = byLine[0] ?? [];
  const split: { x0: number; x1: number; lead?: boolean }[] = [];
  for (const column of columns) {
    const heads = headerWords.filter((w) => w.x0 >= column.x0 - 0.5 && w.x1 <= column.x1 + 0.5);
    const gapAt = heads.findIndex(
      (w, n) => n > 0 && w.x0 - (heads[n - 1]?.x1 ?? w.x0) > 1.5 * charWidth,
    );
    const second = heads[gapAt];
    if (gapAt > 0 && second) {
      split.push(
        { x0: column.x0, x1: second.x0 - 0.01, lead: true },
        { x0: second.x0, x1: column.x1 },
      );
    } else split.push(column);
  }
  if (split.length < 2) return null;
  const rows = byLine.map((words, n) => {
    const line = lines[n] as DocumentLine;
    const placed = new Map<PositionedWord, number>();
    const center = (w: PositionedWord) => (w.x0 + w.x1) / 2;
    for (const w of words) {
      // The nearest column (distance 0 inside it).
      let c = 0;
      let best = Number.POSITIVE_INFINITY;
      split.forEach((col, k) => {
        const d = Math.max(col.x0 - center(w), center(w) - col.x1, 0);
        if (d < best) [best, c] = [d, k];
      });
      placed.set(w, c);
    }
    split.forEach((column, c) => {
      // In a merged pair, only the first word of a data row belongs to the leading column.
      if (!column.lead || n === 0) return;
      const pair = words.filter((w) => placed.get(w) === c || placed.get(w) === c + 1);
      const [lead, ...rest] = pair;
      if (lead && /\d/.test(lead.text)) {
        placed.set(lead, c);
        for (const w of rest) placed.set(w, c + 1);
      }
    });
    return split.map((_, c) => {
      const inside = words.filter((w) => placed.get(w) === c);
      const start = inside[0]?.start ?? 0;
      const end = inside[inside.length - 1]?.end ?? 0;
      return {
        text: inside.map((w) => w.text).join(' '),
        region: regionOf(line, inside.length > 0 ? linePolygon(line, start, end) : []),
      };
    });
  });
  const [header, ...body] = rows;
  if (!header || body.length === 0 || header.filter((c) => c.text !== '').length < 2) return null;
  const headerLine = lines[0] as DocumentLine;
  return { page: headerLine.page, ...(fileId === undefined ? {} : { fileId }), header, rows: body };
}

/** Finds tables in consecutive lines: a header of ≥ 2 cells followed by rows of as many cells. */
function tablesFromLines(
  lines: readonly DocumentLine[],
  fileId: string | undefined,
): DocumentTable[] {
  const tables: DocumentTable[] = [];
  const cellsOf = (line: DocumentLine): DocumentCell[] =>
    splitCells(line.text).map((c) => ({
      text: c.text,
      region: regionOf(line, linePolygon(line, c.start, c.end)),
    }));
  let i = 0;
  while (i < lines.length) {
    const headerLine = lines[i];
    if (!headerLine) break;
    const header = cellsOf(headerLine);
    const headerIsText = header.every((c) => !/\d/.test(c.text) || /^[A-Za-z]/.test(c.text));
    if (header.length < 2 || !headerIsText || header.some((c) => c.text.includes(':'))) {
      i++;
      continue;
    }
    const rows: DocumentCell[][] = [];
    let j = i + 1;
    while (j < lines.length) {
      const line = lines[j];
      if (!line) break;
      const cells = cellsOf(line);
      if (cells.length !== header.length) break;
      rows.push(cells);
      j++;
    }
    // Merged or split cells (a layout parser's runs) break the equal-count rule: align by x.
    let k = i + 1;
    while (k < lines.length) {
      const line = lines[k];
      if (
        !line ||
        splitCells(line.text).length < 2 ||
        line.text.includes(':') ||
        TOTAL_LINE.test(line.text)
      )
        break;
      k++;
    }
    const aligned = k > j ? alignedTable(lines.slice(i, k), fileId) : null;
    if (aligned) {
      tables.push(aligned);
      i = k;
    } else if (rows.length > 0) {
      tables.push({
        page: headerLine.page,
        ...(fileId === undefined ? {} : { fileId }),
        header,
        rows,
      });
      i = j;
    } else {
      i++;
    }
  }
  return tables;
}

/** A region of `r` with another polygon (a literal, not a spread: this runs per table cell). */
function regionOf(r: DocumentRegion, polygon: readonly Point[] = r.polygon): DocumentRegion {
  return {
    fileId: r.fileId,
    page: r.page,
    pageWidth: r.pageWidth,
    pageHeight: r.pageHeight,
    polygon,
    ocrConfidence: r.ocrConfidence,
  };
}

/** A table built from a table block's cell children. */
function tableFromCells(
  cells: readonly Block[],
  region: Omit<DocumentRegion, 'polygon' | 'ocrConfidence'>,
): DocumentTable | null {
  const grid: DocumentCell[][] = [];
  for (const cell of cells) {
    const details = cell.details as { rowIndex?: number; columnIndex?: number };
    const row = details.rowIndex ?? 0;
    const column = details.columnIndex ?? 0;
    const rowCells = grid[row] ?? [];
    grid[row] = rowCells;
    rowCells[column] = {
      text: plain(cell.content).trim(),
      region: {
        ...region,
        polygon: cell.polygon,
        ocrConfidence: cell.metadata.avgOcrConfidence ?? null,
      },
    };
  }
  const dense = grid.filter((r) => r !== undefined);
  const [header, ...rows] = dense;
  if (!header || rows.length === 0) return null;
  const fill = (row: DocumentCell[]): DocumentCell[] =>
    Array.from(
      { length: header.length },
      (_, k) => row[k] ?? { text: '', region: { ...region, polygon: [], ocrConfidence: null } },
    );
  return {
    page: region.page,
    ...(region.fileId === undefined ? {} : { fileId: region.fileId }),
    header: fill(header),
    rows: rows.map(fill),
  };
}

/** A table from markdown table content (`| a | b |` lines) when the block has no cell children. */
function tableFromMarkdown(content: string, base: DocumentRegion): DocumentTable | null {
  const rows = content
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('|') && !/^\|[\s:|-]+\|$/.test(l))
    .map((l) =>
      l
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => ({ text: plain(c.trim()), region: base })),
    );
  const [header, ...body] = rows;
  if (!header || body.length === 0) return null;
  return {
    page: base.page,
    ...(base.fileId === undefined ? {} : { fileId: base.fileId }),
    header,
    rows: body,
  };
}

interface GeometryLine {
  readonly key: string;
  readonly words: ReadonlySet<string>;
  readonly polygon: readonly Point[];
  readonly ocrConfidence: number | null;
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** The lines of a chunk's blocks, relined from their geometry, for matching layout text to. */
function blockLines(blocks: readonly Block[]): GeometryLine[] {
  const raw = blocks
    .filter((b) => b.type === 'text' && b.polygon.length > 0)
    .map((b, index) => ({
      text: plain(b.content),
      polygon: b.polygon,
      ocrConfidence: b.metadata.avgOcrConfidence ?? null,
      index,
    }));
  return relinePage(raw, (base, text, polygon) => ({ ...base, text, polygon })).map((l) => ({
    key: collapse(l.text),
    words: new Set(collapse(l.text).split(' ')),
    polygon: l.polygon,
    ocrConfidence: l.ocrConfidence,
  }));
}

/** The geometry line with the same words as `text` (exactly, else the largest overlap). */
function bestGeometry(text: string, lines: readonly GeometryLine[]): GeometryLine | undefined {
  if (lines.length === 0) return undefined;
  const key = collapse(text);
  const exact = lines.find((l) => l.key === key);
  if (exact) return exact;
  const words = key.split(' ');
  let best: GeometryLine | undefined;
  let score = 0;
  for (const line of lines) {
    let common = 0;
    for (const w of words) if (line.words.has(w)) common++;
    const s = common / Math.max(words.length, line.words.size);
    if (s > score) [best, score] = [line, s];
  }
  return score >= 0.5 ? best : undefined;
}

/** True for the layout-preserving text of the `spatial` target (column gaps, kept indentation). */
function isLayoutText(content: string): boolean {
  const lines = content.split('\n').filter((l) => l.trim() !== '');
  if (lines.length < 3) return false;
  const gapped = lines.filter((l) => /\S {3,}\S/.test(l)).length;
  const indented = lines.filter((l) => /^ {4,}\S/.test(l)).length;
  return gapped >= 2 || indented >= lines.length * 0.6;
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
          ...(layout ? { layout: true } : {}),
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
        const table = cells ? tableFromCells(cells, base) : tableFromMarkdown(block.content, base);
        if (table) draft.tables.push(table);
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
        continue;
      }
      if (block.type === 'figure' || block.type === 'formula') continue;
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

/** Derives fields and text tables from a page's lines. */
function finishPage(draft: PageDraft & { fileId?: string }): DocumentPage {
  const relined = relinePage(draft.lines, (base, text, polygon, segments) => ({
    ...base,
    text,
    polygon,
    ...(segments ? { segments } : {}),
  }));
  // Relining usually changes nothing; only renumber lines when it did.
  draft.lines = relined.every((line, index) => line.index === index)
    ? relined
    : relined.map((line, index) => ({ ...line, index }));
  const fields = [...draft.fields];
  draft.lines.forEach((line, index) => {
    for (const pair of linePairs(line.text)) {
      let value = pair.value;
      let region: DocumentRegion = regionOf(
        line,
        linePolygon(line, pair.valueStart, pair.valueEnd),
      );
      if (value === '') {
        // "Bill to:" with the value on the next line.
        const next = draft.lines[index + 1];
        if (!next || linePairs(next.text).length > 0) continue;
        value = splitCells(next.text)[0]?.text ?? next.text.trim();
        region = regionOf(next);
      }
      fields.push({ label: pair.label, value, source: 'line', region, lineIndex: index });
    }
  });
  const tables = [...draft.tables, ...tablesFromLines(draft.lines, draft.fileId)];
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
