import { unionBoxes } from '../../boxes.ts';
import type { DraftBlock } from '../../draft-document.ts';
import type { BoundingBox } from '../../parse-output.ts';
import { markdownTable } from '../markdown-table.ts';
import type { HeadingCandidate } from './headings.ts';
import {
  continuesParagraph,
  LIST_MARK,
  type LineJoin,
  lineJoin,
  type Paragraph,
  paragraphMarkdown,
} from './paragraphs.ts';
import { type ColumnExtent, readingOrder } from './reading-order.ts';
import { groupRows, liftWrappedValue, rowBlocks } from './row-tables.ts';
import type { RuledTable } from './ruled-tables.ts';
import {
  buildPieces,
  cleanText,
  joinRow,
  type LinePiece,
  sameRow,
  type TextLine,
} from './text-lines.ts';
import type { TextRun } from './text-runs.ts';

type Element =
  | { kind: 'piece'; piece: LinePiece; box: BoundingBox; size: number; line: LinePiece }
  | { kind: 'block'; block: DraftBlock; box: BoundingBox; size: undefined; line: undefined };

function center(box: BoundingBox): [number, number] {
  return [(box.left + box.right) / 2, (box.top + box.bottom) / 2];
}

function inside(box: BoundingBox, outer: BoundingBox, slack = 1): boolean {
  const [x, y] = center(box);
  return (
    x >= outer.left - slack &&
    x <= outer.right + slack &&
    y >= outer.top - slack &&
    y <= outer.bottom + slack
  );
}

function locate(bounds: readonly number[], value: number): number {
  for (let i = 0; i < bounds.length - 1; i++) {
    if (value < (bounds[i + 1] ?? 0)) return i;
  }
  return bounds.length - 2;
}

/**
 * A run cut where it crosses a column rule, at the space nearest to the rule. pdf.js joins
 * glyphs less than 0.6 em apart into one text item with a space between them, and a header row
 * with short cells (LibreOffice's `Description Qty Amount`) comes as one item across three
 * cells. Glyph positions are not kept, so each character is taken as an equal share of the
 * run's width: the space nearest to the rule is where the cut goes.
 */
function splitAtRules(run: TextRun, columns: readonly number[]): TextRun[] {
  const { left, right } = run.box;
  const slack = run.size * 0.25;
  const rules = columns.slice(1, -1).filter((x) => x > left + slack && x < right - slack);
  if (rules.length === 0 || !run.text.includes(' ')) return [run];
  const { text } = run;
  const step = (right - left) / text.length;
  const cuts: number[] = [];
  for (const rule of rules) {
    let best = -1;
    for (let i = text.indexOf(' '); i >= 0; i = text.indexOf(' ', i + 1)) {
      const x = left + (i + 0.5) * step;
      if (best < 0 || Math.abs(x - rule) < Math.abs(left + (best + 0.5) * step - rule)) best = i;
    }
    if (best > (cuts[cuts.length - 1] ?? -1)) cuts.push(best);
  }
  const parts: TextRun[] = [];
  let start = 0;
  for (const cut of [...cuts, text.length]) {
    const part = text.slice(start, cut);
    if (part.trim() !== '') {
      parts.push({
        ...run,
        text: part,
        box: { ...run.box, left: left + start * step, right: left + cut * step },
      });
    }
    start = cut + 1;
  }
  return parts;
}

/** Cell texts of a ruled table from the runs inside it; returns the runs it consumed. */
function fillTable(
  table: RuledTable,
  runs: readonly TextRun[],
): { block: DraftBlock; used: Set<TextRun> } {
  const rowCount = table.rows.length - 1;
  const columnCount = table.columns.length - 1;
  const cells: TextRun[][][] = Array.from({ length: rowCount }, () =>
    Array.from({ length: columnCount }, () => []),
  );
  const used = new Set<TextRun>();
  for (const run of runs) {
    if (!inside(run.box, table.box)) continue;
    used.add(run);
    const row = cells[locate(table.rows, center(run.box)[1])];
    for (const part of splitAtRules(run, table.columns)) {
      row?.[locate(table.columns, center(part.box)[0])]?.push(part);
    }
  }
  // Most cells hold one run or none: their text needs no line building.
  const grid = cells.map((row) =>
    row.map((cell) =>
      cell.length === 0
        ? ''
        : cell.length === 1
          ? cleanText((cell[0] as TextRun).text).trim()
          : buildPieces(cell)
              .map((l) => l.text)
              .join(' '),
    ),
  );
  const children: DraftBlock[] = [];
  grid.forEach((row, r) => {
    row.forEach((text, c) => {
      children.push({
        type: 'table_cell',
        content: text,
        markdown: '',
        details: { type: 'table_cell_details', rowIndex: r, columnIndex: c },
        boundingBox: {
          left: table.columns[c] ?? 0,
          right: table.columns[c + 1] ?? 0,
          top: table.rows[r] ?? 0,
          bottom: table.rows[r + 1] ?? 0,
        },
      });
    });
  });
  const markdown = markdownTable(grid);
  return {
    block: {
      type: 'table',
      content: markdown,
      markdown,
      details: { type: 'table_details', rowCount, columnCount },
      boundingBox: table.box,
      children,
    },
    used,
  };
}

/**
 * At or below this share of cells holding text, a grid of rules is a figure's (a plot's frame, ticks
 * and grid lines with a few labels), not a table.
 */
const MIN_FILLED_CELLS = 0.25;

/**
 * A grid of rules whose cells hold text (a letter or a digit: a plot's `≈` breaks or arrows are
 * not a cell's content): a table.
 */
function isTable(block: DraftBlock): boolean {
  const cells = block.children ?? [];
  const filled = cells.filter((cell) => /[\p{L}\p{N}]/u.test(cell.content)).length;
  return filled > 0 && filled > cells.length * MIN_FILLED_CELLS;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * The width of the widest text of a size on the page: its line pieces, text down to 10% smaller
 * and up to 15% larger counting as that size (as for a column's extent), and its tables (whose
 * text leaves the flow but spans the page's measure).
 */
function widestText(
  pieces: readonly LinePiece[],
  tables: readonly BoundingBox[],
): (size: number) => number {
  const bySize = new Map<number, number>();
  for (const { size, box } of pieces) {
    const key = Math.round(size * 2) / 2;
    bySize.set(key, Math.max(bySize.get(key) ?? 0, box.right - box.left));
  }
  const table = Math.max(0, ...tables.map((box) => box.right - box.left));
  return (size) => {
    let widest = table;
    for (const [key, width] of bySize) {
      if (key >= size - Math.max(0.5, size * 0.1) && key <= size * 1.15 + 0.25) {
        widest = Math.max(widest, width);
      }
    }
    return widest;
  };
}

/** Escapes what would read as markdown syntax at the start of a line (`#` headings, `>` quotes). */
function escapeLineStarts(markdown: string): string {
  if (!markdown.includes('#') && !markdown.includes('>')) return markdown;
  // An ATX heading is one to six `#` followed by a space or the line's end (`#include` is not).
  return markdown.replace(/^([ \t]*)(#{1,6}(?=[ \t]|$)|>)/gm, '$1\\$2');
}

/** A paragraph's block, with its place on the page for the heading decision. */
interface LaidParagraph {
  readonly block: DraftBlock;
  readonly paragraph: Paragraph;
}

/**
 * What separates the pieces of a row in a block's content (`Juniper Cloud    Invoice #    416055`):
 * the gaps a layout left between them, which the markdown closes to one space. Readers of the
 * content (the document view) tell a letterhead, a label and its value apart by them.
 */
const PIECE_GAP = '    ';

/** A line's text for a block's content: its pieces apart by {@link PIECE_GAP}. */
function contentOf(line: TextLine): string {
  return line.cells.length > 1 ? line.cells.map((c) => c.text).join(PIECE_GAP) : line.text;
}

function paragraphBlock(paragraph: Paragraph): DraftBlock {
  const content = paragraph.lines.map(contentOf).join('\n');
  let markdown = paragraphMarkdown(paragraph);
  const mark = LIST_MARK.exec(markdown);
  if (mark) {
    // Numbered items keep their number (`2. Open…`), lettered ones their letter (`- a) …`).
    const number = /^\(?(\d+)/.exec(mark[0])?.[1];
    const lettered = /^[a-z]/.test(mark[0]);
    const rest = escapeLineStarts(lettered ? markdown : markdown.slice(mark[0].length));
    markdown = `${number !== undefined ? `${Number(number)}.` : '-'} ${rest}`;
  } else {
    markdown = escapeLineStarts(markdown);
  }
  const box = unionBoxes(paragraph.lines.map((l) => l.box));
  return {
    type: 'text',
    content,
    markdown,
    details: { type: 'text_details' },
    ...(box ? { boundingBox: box } : {}),
  };
}

/** A heading is at most this many lines and characters. */
const HEADING_MAX_LINES = 3;
const HEADING_MAX_CHARS = 200;
const BOLD_HEADING_MAX_CHARS = 80;

/**
 * Text ending with an amount (`TOTAL 60.50`, `Balance due: $1,200`, `VAT 20%`): a label and its
 * value set in bold or large type, as receipts and invoices set totals, not a heading.
 */
const ENDS_WITH_AMOUNT =
  /(?:^|\s)[-+(]?(?:\p{Sc}\s?[\d.,' ]*\d|\d[\d.,' ]*[.,]\d{2}|\d[\d.,]*\s?%)\)?(?:\s?\p{Sc}|\s[A-Z]{3})?$/u;

/**
 * The heading candidate of a paragraph, or undefined when it cannot be a heading: more than three
 * lines, a row of separated pieces (a table row, a label and its value: `TOTAL  12.50`), or text
 * ending with an amount (one piece: `TOTAL 12.50`). A
 * bold line at body size is a candidate sub-heading only when it stands alone: one line, short,
 * not ending like a sentence or a label, not a list item, set apart from what is above it, and
 * followed by text that is not bold (a bold total or a table's header row is not a heading).
 */
function headingCandidate(
  index: number,
  paragraph: Paragraph,
  text: string,
  above: number | undefined,
  next: LaidParagraph | DraftBlock | undefined,
): HeadingCandidate | undefined {
  const { lines } = paragraph;
  if (lines.length > HEADING_MAX_LINES || text.length > HEADING_MAX_CHARS) return undefined;
  if (lines.some((l) => l.cells.length > 1) || ENDS_WITH_AMOUNT.test(text)) return undefined;
  const size = median(lines.map((l) => l.size));
  const line = lines[0];
  const nextParagraph = next && 'paragraph' in next ? next.paragraph : undefined;
  const bold =
    lines.length === 1 &&
    line?.bold === true &&
    text.length <= BOLD_HEADING_MAX_CHARS &&
    /\p{L}/u.test(text) &&
    !/[.:;,]$/.test(text) &&
    !LIST_MARK.test(text) &&
    (above === undefined || above >= size * 0.4) &&
    nextParagraph !== undefined &&
    !nextParagraph.lines.every((l) => l.bold);
  return { index, size, bold };
}

/**
 * Lays out a page: ruled tables first (their runs leave the flow; a grid whose cells are mostly
 * empty is a figure's and stays out), then line pieces, reading order by XY-cut, the pieces of
 * one row joined into a line, paragraphs from line spacing, alignment and style, each line kept
 * (content has one line per visual line; markdown joins wrapped lines and keeps broken ones),
 * list items from their marks. Heading levels need the text sizes of the whole document: each
 * paragraph that may be a heading is returned as a candidate, for `withHeadings` once every page
 * is laid out (pages are laid out by the thread that read them).
 */
export function layoutPage(
  runs: readonly TextRun[],
  tables: readonly RuledTable[],
  extra: readonly DraftBlock[] = [],
  options: { readonly keyValues?: boolean; readonly rowTables?: boolean } = {},
): {
  blocks: DraftBlock[];
  headings: HeadingCandidate[];
  lines: { text: string; box: BoundingBox }[];
} {
  let remaining = runs.filter((run) => run.text.trim() !== '');
  const elements: Element[] = [];
  const ruled: DraftBlock[] = [];
  for (const table of tables) {
    const { block, used } = fillTable(table, remaining);
    // A grid with no text is decoration (a form's boxes, a drawn frame), one with little text a
    // figure's: not tables.
    if (!isTable(block)) continue;
    remaining = remaining.filter((run) => !used.has(run));
    ruled.push(block);
    elements.push({ kind: 'block', block, box: table.box, size: undefined, line: undefined });
  }
  for (const block of extra) {
    if (block.boundingBox) {
      elements.push({
        kind: 'block',
        block,
        box: block.boundingBox,
        size: undefined,
        line: undefined,
      });
    }
  }
  const pieces = buildPieces(remaining);
  for (const piece of pieces) {
    elements.push({ kind: 'piece', piece, box: piece.box, size: piece.size, line: piece });
  }
  const ordered = readingOrder(elements);
  const widest = widestText(
    pieces,
    elements.flatMap((e) => (e.kind === 'block' && e.block.type === 'table' ? [e.box] : [])),
  );

  // Rows: consecutive pieces on one baseline, left to right.
  const items: ({ line: TextLine; column: ColumnExtent } | { block: DraftBlock })[] = [];
  for (let i = 0; i < ordered.length; ) {
    const current = ordered[i];
    if (!current) break;
    const { element, column } = current;
    if (element.kind === 'block') {
      items.push({ block: element.block });
      i++;
      continue;
    }
    const row: LinePiece[] = [element.piece];
    let j = i + 1;
    for (; j < ordered.length; j++) {
      const next = ordered[j]?.element;
      const last = row[row.length - 1];
      if (next?.kind !== 'piece' || !last || !sameRow(last, next.piece)) break;
      row.push(next.piece);
    }
    items.push({ line: joinRow(row), column });
    i = j;
  }
  liftWrappedValues(items);

  // Rows of separated pieces become tables or key-value blocks; the other lines, paragraphs.
  const laid: (LaidParagraph | DraftBlock)[] = [];
  let lines: TextLine[] = [];
  let joins: LineJoin[] = [];
  const flush = () => {
    if (lines.length === 0) return;
    const paragraph = { lines, joins };
    laid.push({ block: paragraphBlock(paragraph), paragraph });
    lines = [];
    joins = [];
  };
  const grouped =
    options.rowTables === false
      ? items
      : groupRows(items, (item) => ('line' in item ? item.line : undefined));
  for (const item of grouped) {
    if ('kind' in item) {
      flush();
      const line = (row: TextLine) => paragraphBlock({ lines: [row], joins: [] });
      laid.push(...rowBlocks(item.rows, options.keyValues ?? true, line));
      continue;
    }
    if ('block' in item) {
      flush();
      laid.push(item.block);
      continue;
    }
    const last = lines[lines.length - 1];
    if (last && !continuesParagraph(lines, item.line)) flush();
    const previous = lines[lines.length - 1];
    if (previous) joins.push(lineJoin(previous, item.line, item.column, widest(previous.size)));
    lines.push(item.line);
  }
  flush();

  const blocks: DraftBlock[] = [];
  const headings: HeadingCandidate[] = [];
  laid.forEach((entry, index) => {
    if (!('paragraph' in entry)) {
      blocks.push(entry);
      return;
    }
    const previous = laid[index - 1];
    const previousBox =
      previous && 'paragraph' in previous ? previous.block.boundingBox : previous?.boundingBox;
    const top = entry.block.boundingBox?.top ?? 0;
    const above = previousBox ? top - previousBox.bottom : undefined;
    const candidate = headingCandidate(
      blocks.length,
      entry.paragraph,
      entry.block.content,
      above,
      laid[index + 1],
    );
    if (candidate) headings.push(candidate);
    blocks.push(entry.block);
  });
  return {
    blocks,
    headings,
    // The spatial target's lines: the pieces, and the cells of ruled tables (whose runs are not
    // among the pieces).
    lines: [
      ...pieces.map((l) => ({ text: l.text, box: l.box })),
      ...ruled.flatMap((b) =>
        (b.children ?? [])
          .filter((c) => c.content !== '' && c.boundingBox)
          .map((c) => ({ text: c.content, box: c.boundingBox as BoundingBox })),
      ),
    ],
  };
}

/**
 * Moves the first line of each value wrapped in a bottom-aligned cell into its cell
 * ({@link liftWrappedValue}), in place; a line left empty is removed.
 */
function liftWrappedValues(
  items: ({ line: TextLine; column: ColumnExtent } | { block: DraftBlock })[],
) {
  for (let i = 1; i < items.length; i++) {
    const above = items[i - 1];
    const below = items[i];
    if (!above || !below || !('line' in above) || !('line' in below)) continue;
    const before = items[i - 2];
    const lifted = liftWrappedValue(
      before && 'line' in before ? before.line : undefined,
      above.line,
      below.line,
    );
    if (!lifted) continue;
    items[i] = { ...below, line: lifted.below };
    if (lifted.above) items[i - 1] = { ...above, line: lifted.above };
    else {
      items.splice(i - 1, 1);
      i--;
    }
  }
}
