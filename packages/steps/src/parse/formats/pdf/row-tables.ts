import { unionBoxes } from '../../boxes.ts';
import type { DraftBlock } from '../../draft-document.ts';
import { markdownTable } from '../markdown-table.ts';
import type { LinePiece, TextLine } from './text-lines.ts';

/** Rows further apart than this many text sizes belong to different tables. */
const MAX_ROW_GAP = 3;

/** A number, an amount, a date or a percentage. */
const VALUE = /^[-+(]?\p{Sc}?\s?\d[\d.,:/\s'-]*[%)]?\s?(?:\p{Sc}|[A-Z]{3})?$/u;

/**
 * Column spans of rows: the pieces' horizontal extents merged where they overlap; each gap left
 * between them separates two columns.
 */
function columnSpans(rows: readonly TextLine[]): { left: number; right: number }[] {
  const extents = rows
    .flatMap((row) => row.cells.map((cell) => ({ left: cell.box.left, right: cell.box.right })))
    .sort((a, b) => a.left - b.left);
  const spans: { left: number; right: number }[] = [];
  for (const extent of extents) {
    const last = spans[spans.length - 1];
    if (last && extent.left <= last.right + 1) last.right = Math.max(last.right, extent.right);
    else spans.push({ ...extent });
  }
  return spans;
}

function columnOf(spans: readonly { left: number; right: number }[], cell: LinePiece): number {
  const centre = (cell.box.left + cell.box.right) / 2;
  const index = spans.findIndex((span) => centre >= span.left - 1 && centre <= span.right + 1);
  return Math.max(0, index);
}

/** A table from rows of separated pieces: a grid of the pieces by column span. */
function rowTable(rows: readonly TextLine[]): DraftBlock {
  const spans = columnSpans(rows);
  const grid = rows.map(() => spans.map(() => [] as string[]));
  rows.forEach((row, r) => {
    for (const cell of row.cells) grid[r]?.[columnOf(spans, cell)]?.push(cell.text);
  });
  const texts = grid.map((row) => row.map((parts) => parts.join(' ')));
  const children: DraftBlock[] = [];
  texts.forEach((row, r) => {
    const line = rows[r];
    row.forEach((text, c) => {
      const span = spans[c];
      children.push({
        type: 'table_cell',
        content: text,
        markdown: '',
        details: { type: 'table_cell_details', rowIndex: r, columnIndex: c },
        ...(line && span
          ? {
              boundingBox: {
                left: span.left,
                right: span.right,
                top: line.box.top,
                bottom: line.box.bottom,
              },
            }
          : {}),
      });
    });
  });
  const markdown = markdownTable(texts);
  const box = unionBoxes(rows.map((row) => row.box));
  return {
    type: 'table',
    content: markdown,
    markdown,
    details: { type: 'table_details', rowCount: rows.length, columnCount: spans.length },
    ...(box ? { boundingBox: box } : {}),
    children,
  };
}

/** A label and its value set apart on one line: `Subtotal      $34,128.71`. */
function keyValue(row: TextLine): DraftBlock {
  const [key, ...rest] = row.cells;
  const value = rest.map((cell) => cell.text).join(' ');
  return {
    type: 'key_value',
    content: row.text,
    markdown: row.text,
    details: { type: 'key_value_details', key: key?.text ?? '', value },
    boundingBox: row.box,
  };
}

/**
 * Two-piece rows read as a table rather than as labels and values when there are three or more
 * of them under a header: the first row holds no value and most of the others do.
 */
function twoColumnTable(rows: readonly TextLine[]): boolean {
  const [header, ...body] = rows;
  if (!header || body.length < 2) return false;
  if (header.cells.some((cell) => VALUE.test(cell.text))) return false;
  const withValue = body.filter((row) => row.cells.some((cell) => VALUE.test(cell.text))).length;
  return withValue >= body.length / 2;
}

function near(a: TextLine, b: TextLine): boolean {
  const size = Math.max(a.size, b.size);
  return b.box.top - a.box.bottom <= size * MAX_ROW_GAP && b.baseline > a.baseline;
}

/** A run of rows of separated pieces. */
export interface RowGroup {
  readonly kind: 'rows';
  readonly rows: readonly TextLine[];
}

/**
 * Groups lines in reading order: consecutive rows of separated pieces (a gap of more than
 * 2.5 text sizes inside the line) close to each other form one group; other lines stay alone.
 */
export function groupRows<T>(
  items: readonly T[],
  lineOf: (item: T) => TextLine | undefined,
): (T | RowGroup)[] {
  const out: (T | RowGroup)[] = [];
  let rows: TextLine[] = [];
  const flush = () => {
    if (rows.length > 0) out.push({ kind: 'rows', rows });
    rows = [];
  };
  for (const item of items) {
    const line = lineOf(item);
    if (!line || line.cells.length < 2) {
      flush();
      out.push(item);
      continue;
    }
    const last = rows[rows.length - 1];
    if (last && !near(last, line)) flush();
    rows.push(line);
  }
  flush();
  return out;
}

/**
 * The blocks of a group of rows of separated pieces, aligned in columns: a table from the first
 * to the last row of three or more pieces (two-piece rows before or after it are labels and
 * values: totals under a table are fields, not items), or of two-piece rows under a header;
 * other two-piece rows are key-value blocks (`keyValues`, the interface's blockOptions.keyValue) or
 * text lines, as is a lone row of three or more pieces.
 */
export function rowBlocks(
  rows: readonly TextLine[],
  keyValues: boolean,
  line: (row: TextLine) => DraftBlock,
): DraftBlock[] {
  const single = (row: TextLine) =>
    keyValues && row.cells.length === 2 ? keyValue(row) : line(row);
  const first = rows.findIndex((row) => row.cells.length >= 3);
  if (first < 0) return twoColumnTable(rows) ? [rowTable(rows)] : rows.map(single);
  let last = first;
  rows.forEach((row, i) => {
    if (row.cells.length >= 3) last = i;
  });
  const core = rows.slice(first, last + 1);
  return [
    ...rows.slice(0, first).map(single),
    ...gridRuns(core).flatMap((run) => (run.length >= 2 ? [rowTable(run)] : run.map(line))),
    ...rows.slice(last + 1).map(single),
  ];
}

/** True when no row puts two of its pieces into one column of the rows' column spans. */
function oneCellPerColumn(rows: readonly TextLine[]): boolean {
  const spans = columnSpans(rows);
  return rows.every((row) => {
    const columns = row.cells.map((cell) => columnOf(spans, cell));
    return new Set(columns).size === columns.length;
  });
}

/**
 * Cuts rows into runs that each form one grid: blocks of different column structures one under
 * the other (three address columns over a four-column items table) merge their column spans, and
 * a row of the second would put several pieces in one column. A row that would do so, and has
 * more pieces than the row above (a new structure; a row with fewer has two columns glued into
 * one piece, "10 Cable ties" under "#" and "Item"), starts a new run. A lone row is no block of its own: a header whose body glued two of its columns into one
 * piece stays with its body (the document view splits such pieces).
 */
function gridRuns(rows: readonly TextLine[]): TextLine[][] {
  const runs: TextLine[][] = [];
  let run: TextLine[] = [];
  for (const row of rows) {
    const previous = run[run.length - 1];
    if (previous && row.cells.length > previous.cells.length && !oneCellPerColumn([...run, row])) {
      runs.push(run);
      run = [];
    }
    run.push(row);
  }
  if (run.length > 0) runs.push(run);
  const merged: TextLine[][] = [];
  let carry: TextLine[] = [];
  for (const r of runs) {
    if (r.length === 1) carry.push(...r);
    else {
      merged.push([...carry, ...r]);
      carry = [];
    }
  }
  if (carry.length > 0) {
    const last = merged[merged.length - 1];
    if (last) last.push(...carry);
    else merged.push(carry);
  }
  return merged;
}
