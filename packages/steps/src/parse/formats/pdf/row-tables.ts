import { unionBoxes } from '../../boxes.ts';
import type { DraftBlock } from '../../draft-document.ts';
import type { BoundingBox } from '../../parse-output.ts';
import { markdownTable } from '../markdown-table.ts';
import { VALUE, wrappedBeside } from './reading-order.ts';
import { joinRow, type LinePiece, pieceOf, type TextLine } from './text-lines.ts';

/** How far below a row's baseline (text sizes) the second line of a top-aligned cell sits. */
const CONTINUATION_DROP = 1.6;

/** Rows further apart than this many text sizes belong to different tables. */
const MAX_ROW_GAP = 3;

/**
 * Column spans of rows: the pieces' horizontal extents, left to right, merged into the span
 * before them where they overlap it by more than half their own width. A cell that reaches a
 * point or two into the next column (a long description under the next column's wider header,
 * Calc's clipped text) leaves two columns; cells of one column, left-, right- or centre-aligned,
 * overlap each other by most of the narrower one. Two pieces of one row are never one column: a
 * long cell of another row reaching over both (a party's name under a row of four labels, in a
 * grid that changes from four columns to two) ends its span where the next piece starts. A lone
 * currency sign or code set apart from its figure (an accounting format) is no piece of its own.
 */
function columnSpans(rows: readonly TextLine[]): { left: number; right: number }[] {
  const extents = rows
    .flatMap((row, r) =>
      row.cells.map((cell) => ({
        left: cell.box.left,
        right: cell.box.right,
        row: CURRENCY_ONLY.test(cell.text) ? -1 : r,
      })),
    )
    .sort((a, b) => a.left - b.left);
  const spans: { left: number; right: number; rows: Set<number> }[] = [];
  for (const extent of extents) {
    const last = spans[spans.length - 1];
    const overlap = last ? Math.min(last.right, extent.right) - extent.left : 0;
    const joins =
      last && (overlap > (extent.right - extent.left) / 2 || extent.left <= last.left + 1);
    if (last && joins && !(extent.row >= 0 && last.rows.has(extent.row))) {
      last.right = Math.max(last.right, extent.right);
      last.rows.add(extent.row);
      continue;
    }
    if (last && joins) last.right = Math.max(last.left, Math.min(last.right, extent.left - 0.5));
    spans.push({ left: extent.left, right: extent.right, rows: new Set([extent.row]) });
  }
  return spans.map(({ left, right }) => ({ left, right }));
}

/** A currency sign or code alone. */
const CURRENCY_ONLY = /^(?:\p{Sc}|[A-Z]{3}|[A-Z]{1,2}\$)$/u;

/**
 * A gap inside a piece narrower than this many text sizes is a word space (about 0.3, justified
 * ones a little more), never a column edge.
 */
const MIN_CELL_GAP = 0.5;

/** Edges of two cells closer than this (points) line up. */
const ALIGNED = 1.5;

/**
 * Rows with the pieces that hold two cells cut apart: a piece whose runs leave a gap wider than a
 * word space (pdf.js starts a new text item where the glyphs jump) is cut there when the gap
 * lines up with a column edge of two or more other rows: a cell of theirs ends where the run
 * before the gap ends, or starts where the run after it starts, and nothing of that row covers
 * the gap. Columns set closer than a word gap (LibreOffice Calc's `Unit Price  Quantity` header
 * over right-aligned figures) read as one piece until the other rows show where the cells are; a
 * word gap inside a description lines up with no other row's edges.
 */
function splitGluedCells(rows: readonly TextLine[]): TextLine[] {
  const edges = rows.map((row) => row.cells.map((cell) => cell.box));
  const gapIsColumnEdge = (r: number, leftEdge: number, rightEdge: number): boolean => {
    let support = 0;
    for (let other = 0; other < edges.length && support < 2; other++) {
      const boxes = edges[other];
      if (other === r || !boxes) continue;
      if (boxes.some((b) => b.left < rightEdge - 1 && b.right > leftEdge + 1)) continue;
      const aligned = boxes.some(
        (b) => Math.abs(b.right - leftEdge) <= ALIGNED || Math.abs(b.left - rightEdge) <= ALIGNED,
      );
      if (aligned) support++;
    }
    return support >= 2;
  };
  return rows.map((row, r) => {
    let changed = false;
    const cells: LinePiece[] = [];
    for (const cell of row.cells) {
      const runs = cell.runs;
      if (!runs || runs.length < 2) {
        cells.push(cell);
        continue;
      }
      let start = 0;
      for (let i = 1; i < runs.length; i++) {
        const before = runs[i - 1] as (typeof runs)[number];
        const after = runs[i] as (typeof runs)[number];
        const gap = after.box.left - before.box.right;
        if (gap < Math.max(before.size, after.size) * MIN_CELL_GAP) continue;
        if (!gapIsColumnEdge(r, before.box.right, after.box.left)) continue;
        const piece = pieceOf(runs.slice(start, i));
        if (piece) cells.push(piece);
        start = i;
        changed = true;
      }
      const rest = start === 0 ? cell : pieceOf(runs.slice(start));
      if (rest) cells.push(rest);
    }
    return changed ? { ...row, cells } : row;
  });
}

function columnOf(spans: readonly { left: number; right: number }[], cell: LinePiece): number {
  const centre = (cell.box.left + cell.box.right) / 2;
  const index = spans.findIndex((span) => centre >= span.left - 1 && centre <= span.right + 1);
  return Math.max(0, index);
}

/**
 * A table from rows of separated pieces: a grid of the pieces by column span. A cell's box is its
 * text's extent (the column span where it is empty): the document view finds columns again from
 * where the words are, and a span reaching into the next column would join the two.
 */
function rowTable(rows: readonly TextLine[]): DraftBlock {
  const spans = columnSpans(rows);
  const grid = rows.map(() => spans.map(() => [] as LinePiece[]));
  rows.forEach((row, r) => {
    for (const cell of row.cells) grid[r]?.[columnOf(spans, cell)]?.push(cell);
  });
  const texts = grid.map((row) => row.map((parts) => parts.map((p) => p.text).join(' ')));
  const children: DraftBlock[] = [];
  grid.forEach((row, r) => {
    const line = rows[r];
    row.forEach((parts, c) => {
      const span = spans[c];
      const extent = unionBoxes(parts.map((p) => p.box));
      children.push({
        type: 'table_cell',
        content: texts[r]?.[c] ?? '',
        markdown: '',
        details: { type: 'table_cell_details', rowIndex: r, columnIndex: c },
        ...(line && span
          ? {
              boundingBox: {
                left: extent?.left ?? span.left,
                right: extent?.right ?? span.right,
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
 * 2.5 text sizes inside the line) close to each other form one group; the two lines of a cell
 * wrapped beside a row (see {@link wrappedAround}) join that row; other lines stay alone.
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
  const skipped = new Set<number>();
  const lineAt = (k: number) =>
    k < items.length && !skipped.has(k) ? lineOf(items[k] as T) : undefined;
  for (let i = 0; i < items.length; i++) {
    if (skipped.has(i)) continue;
    const item = items[i] as T;
    const line = lineOf(item);
    const last = rows[rows.length - 1];
    // The upper line of a cell wrapped over two lines around the next row (`12 December` over
    // `2024`, `CA$` over `10,393.89`), the row's other cells centred between them.
    const next = lineAt(i + 1);
    const after = lineAt(i + 2);
    const opensNext =
      line !== undefined &&
      next !== undefined &&
      after !== undefined &&
      wrappedAround(next, line, after);
    if (last && line?.cells.length === 1) {
      // Reading order may take a row's cells apart where a wrapped cell sits off its baseline: a
      // piece on the baseline of a row with a wrapped cell, clear of its cells, is one more.
      if (
        last.cells.some((cell) => cell.box.bottom - cell.box.top > cell.size * 1.5) &&
        Math.abs(line.baseline - last.baseline) <= last.size * 0.35 &&
        clearOf(last, line)
      ) {
        rows[rows.length - 1] = withPiece(last, line.cells[0] as LinePiece);
        continue;
      }
      // The upper line of a cell wrapped beside the row above, the lower one among the next two.
      const k = [i + 1, i + 2].find((j) => {
        const below = lineAt(j);
        return below !== undefined && wrappedAround(last, line, below);
      });
      const below = k === undefined ? undefined : lineAt(k);
      if (k !== undefined && below) {
        rows[rows.length - 1] = withCell(last, line, below);
        skipped.add(k);
        continue;
      }
      // The lower line of a cell wrapped down from the row above (a top-aligned table), unless
      // it opens a cell wrapped around the next row. A row not under one of as many cells (a
      // receipt's date, time and register over its ticket number; a letterhead's address beside
      // label/value rows) has none; nor has a line that more single lines follow (an address
      // beside a letterhead's pairs): a wrapped cell's line is followed by the next row, or ends
      // the table.
      const stacked =
        next !== undefined &&
        next.cells.length < 2 &&
        next.box.top - line.box.bottom <= line.size * CONTINUATION_DROP;
      const cell = opensNext || stacked || !inColumns(rows) ? -1 : continuedCell(last, line, next);
      if (cell >= 0) {
        rows[rows.length - 1] = withContinuation(last, cell, line.cells[0] as LinePiece);
        continue;
      }
    }
    // A row two lines high: the next row with the cell wrapped around it.
    const row = opensNext ? withCell(next, line, after) : line;
    if (opensNext) i += 2;
    if (!row || row.cells.length < 2) {
      flush();
      out.push(item);
      continue;
    }
    if (last && !near(last, row)) flush();
    rows.push(row);
  }
  flush();
  return out;
}

/** True when `line` overlaps none of `row`'s cells horizontally. */
function clearOf(row: TextLine, line: TextLine): boolean {
  return row.cells.every(
    (cell) => cell.box.right <= line.box.left + 1 || cell.box.left >= line.box.right - 1,
  );
}

/**
 * True when `above` and `below`, one piece each, are the two lines of a cell wrapped in two
 * beside `row` ({@link wrappedBeside}) and clear of its cells.
 */
function wrappedAround(row: TextLine, above: TextLine, below: TextLine): boolean {
  return (
    above.cells.length === 1 &&
    below.cells.length === 1 &&
    wrappedBeside(above, below, row) &&
    clearOf(row, above) &&
    clearOf(row, below)
  );
}

/**
 * The index of the cell of `row` that `line` continues, or -1: in a table whose cells align at
 * their top (ReportLab's platypus, LibreOffice Writer), a cell wrapped in two has its second line
 * alone under it (`1 November` over `2025` in a date column). `line` is one piece, the next line
 * down (at most {@link CONTINUATION_DROP} text sizes), under exactly one cell of a row of three
 * or more and aligned with it on its left or right edge.
 */
function continuedCell(row: TextLine, line: TextLine, next?: TextLine): number {
  if (line.cells.length !== 1 || row.cells.length < 3) return -1;
  const piece = line.cells[0] as LinePiece;
  const under = row.cells.flatMap((cell, i) => (overlapsAcross(cell.box, piece.box) ? [i] : []));
  if (under.length !== 1) return -1;
  const index = under[0] as number;
  const size = Math.max(row.size, piece.size);
  const cell = row.cells[index] as LinePiece;
  const drop = piece.baseline - row.baseline;
  if (wrapsWith(piece, cell, size, drop)) return index;
  return detailLine(piece, cell, size, drop, row, next) ? index : -1;
}

/** How far below its row (text sizes) a detail line of a padded table row may sit. */
const DETAIL_DROP = 2.6;

/**
 * True when `piece` is a line of more text of `cell` set as a row of its own (a transaction's
 * reference under its description, each table row padded, so further below than a wrapped
 * line): starting where the cell starts, at most {@link DETAIL_DROP} text sizes below the row,
 * and followed by a row of as many cells as `row` no nearer to it than the row above is. Between
 * two rows of the table, such a line is the upper row's.
 */
function detailLine(
  piece: LinePiece,
  cell: LinePiece,
  size: number,
  drop: number,
  row: TextLine,
  next: TextLine | undefined,
): boolean {
  if (drop <= size * 0.5 || drop > size * DETAIL_DROP) return false;
  if (Math.abs(piece.box.left - cell.box.left) > size * 0.3) return false;
  return (
    next !== undefined &&
    next.cells.length === row.cells.length &&
    next.baseline - piece.baseline >= drop * 0.8
  );
}

/** True when two boxes share more than a point across. */
function overlapsAcross(a: BoundingBox, b: BoundingBox): boolean {
  return a.left < b.right - 1 && b.left < a.right - 1;
}

/**
 * True when `piece`, `drop` points from the baseline of `cell` (text size `size`), is another
 * line of the same wrapped cell: more than half a line and at most {@link CONTINUATION_DROP}
 * sizes away, aligned with the cell on its left or right edge.
 */
function wrapsWith(piece: LinePiece, cell: LinePiece, size: number, drop: number): boolean {
  if (drop <= size * 0.5 || drop > size * CONTINUATION_DROP) return false;
  const reach = size * 0.3;
  return (
    Math.abs(piece.box.left - cell.box.left) <= reach ||
    Math.abs(piece.box.right - cell.box.right) <= reach
  );
}

/**
 * `cell` holding the two lines of a wrapped cell, `upper`'s text first (one of them is `cell`).
 * Its runs no longer spell its text: it is not cut between them again.
 */
function stacked(cell: LinePiece, upper: LinePiece, lower: LinePiece): LinePiece {
  const { runs: _, ...rest } = cell;
  return {
    ...rest,
    text: `${upper.text} ${lower.text}`,
    box: unionBoxes([upper.box, lower.box]) ?? cell.box,
    bold: upper.bold && lower.bold,
  };
}

/** True when the last of `rows` has as many cells as the row before it: rows of one table. */
function inColumns(rows: readonly TextLine[]): boolean {
  const last = rows[rows.length - 1];
  const before = rows[rows.length - 2];
  return last !== undefined && before !== undefined && last.cells.length === before.cells.length;
}

/** `row` with `piece` joined to its cell `index` as the cell's next line. */
function withContinuation(row: TextLine, index: number, piece: LinePiece): TextLine {
  const cells = row.cells.map((cell, i) => (i === index ? stacked(cell, cell, piece) : cell));
  return { ...joinRow(cells), baseline: row.baseline };
}

/** `row` with the two lines of a wrapped cell as one more cell (the upper line's text first). */
function withCell(row: TextLine, above: TextLine, below: TextLine): TextLine {
  const upper = above.cells[0] as LinePiece;
  const lower = below.cells[0] as LinePiece;
  return withPiece(row, {
    text: `${upper.text} ${lower.text}`,
    box: unionBoxes([upper.box, lower.box]) ?? upper.box,
    baseline: row.baseline,
    size: Math.max(upper.size, lower.size),
    bold: upper.bold && lower.bold,
    mono: upper.mono === true && lower.mono === true,
  });
}

/** `row` with one more cell, left to right; the row keeps its baseline. */
function withPiece(row: TextLine, piece: LinePiece): TextLine {
  const joined = joinRow([...row.cells, piece].sort((a, b) => a.box.left - b.box.left));
  return { ...joined, baseline: row.baseline };
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
  rows = splitGluedCells(rows);
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

/**
 * True when `row` continues the grid of `run`: each of its pieces falls in a column (of the
 * column spans of both) that a row of `run` has a piece in, and no two in the same one.
 */
function continuesGrid(run: readonly TextLine[], row: TextLine): boolean {
  const spans = columnSpans([...run, row]);
  const used = new Set(run.flatMap((r) => r.cells.map((cell) => columnOf(spans, cell))));
  const columns = row.cells.map((cell) => columnOf(spans, cell));
  return new Set(columns).size === columns.length && columns.every((c) => used.has(c));
}

/**
 * Cuts rows into runs that each form one grid: blocks of different column structures one under
 * the other (three address columns over a four-column items table). A row with more pieces than
 * the row above (a new structure; a row with fewer has two columns glued into one piece, "10
 * Cable ties" under "#" and "Item") whose pieces do not fall one each into the columns of the
 * run so far starts a new run. A lone row is no block of its own: a header whose body glued two
 * of its columns into one piece stays with its body (the document view splits such pieces).
 */
function gridRuns(rows: readonly TextLine[]): TextLine[][] {
  const runs: TextLine[][] = [];
  let run: TextLine[] = [];
  for (const row of rows) {
    const previous = run[run.length - 1];
    if (previous && row.cells.length > previous.cells.length && !continuesGrid(run, row)) {
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

/**
 * The first line of a value wrapped in a bottom-aligned cell (ReportLab's `VALIGN BOTTOM`, a
 * label/value table beside an address) moved down into its cell: the value's last line shares
 * the label's baseline, its first line sits alone above it (`1 November 2025 to 30` over
 * `Period    November 2025`), or beside another column's text (`Ingrid García    DE91 3928 1528`
 * over `1550 Commerce Blvd    Account Number    31`). A piece of `above` moves into cell `k` of
 * `below` when it lies over that cell only, aligned on its left or right edge, at most
 * {@link CONTINUATION_DROP} text sizes above it; the cell before `k` is a label (no figure) with
 * nothing of `above` over it; and the piece is nearer to `below` than to `before`, the line above
 * it (a top-aligned cell's second line is nearer to its own row above, the row below is a row's
 * padding further). Returns the two lines after the move (`above` undefined when it is left
 * empty), or undefined when no piece moves.
 */
export function liftWrappedValue(
  before: TextLine | undefined,
  above: TextLine,
  below: TextLine,
): { above: TextLine | undefined; below: TextLine } | undefined {
  if (below.cells.length < 2) return undefined;
  for (const piece of above.cells) {
    const under = below.cells.flatMap((cell, i) =>
      overlapsAcross(cell.box, piece.box) ? [i] : [],
    );
    if (under.length !== 1) continue;
    const k = under[0] as number;
    const cell = below.cells[k] as LinePiece;
    const label = below.cells[k - 1];
    if (!label || VALUE.test(label.text) || !/\p{L}/u.test(label.text)) continue;
    if (above.cells.some((other) => overlapsAcross(other.box, label.box))) continue;
    const drop = below.baseline - piece.baseline;
    if (!wrapsWith(piece, cell, Math.max(piece.size, cell.size), drop)) continue;
    if (before && piece.baseline - before.baseline <= drop * 1.1) continue;
    const cells = below.cells.map((c, i) => (i === k ? stacked(cell, piece, cell) : c));
    const left = above.cells.filter((c) => c !== piece);
    return {
      above: left.length > 0 ? joinRow(left) : undefined,
      below: { ...joinRow(cells), baseline: below.baseline },
    };
  }
  return undefined;
}
