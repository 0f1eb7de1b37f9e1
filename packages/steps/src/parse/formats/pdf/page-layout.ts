import { unionBoxes } from '../../boxes.ts';
import type { DraftBlock } from '../../draft-document.ts';
import type { BoundingBox } from '../../parse-output.ts';
import { markdownTable } from '../markdown-table.ts';
import type { RuledTable } from './ruled-tables.ts';
import type { TextRun } from './text-runs.ts';

/** A line of text in the upright frame. */
interface Line {
  text: string;
  box: BoundingBox;
  size: number;
  bold: boolean;
}

type Element =
  | { kind: 'line'; line: Line; box: BoundingBox }
  | { kind: 'block'; block: DraftBlock; box: BoundingBox };

function joinRuns(runs: readonly TextRun[]): string {
  let out = '';
  let previous: TextRun | undefined;
  for (const run of runs) {
    if (previous) {
      const gap = run.box.left - previous.box.right;
      if (gap > previous.size * 0.15 && !out.endsWith(' ') && !run.text.startsWith(' ')) out += ' ';
    }
    out += run.text;
    previous = run;
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** Groups runs into lines: same baseline, left to right, split at wide gaps (columns). */
function buildLines(runs: readonly TextRun[]): Line[] {
  const sorted = [...runs].sort((a, b) => a.baseline - b.baseline || a.box.left - b.box.left);
  const bands: TextRun[][] = [];
  for (const run of sorted) {
    const band = bands[bands.length - 1];
    const first = band?.[0];
    if (
      band &&
      first &&
      Math.abs(run.baseline - first.baseline) <= Math.max(first.size, run.size) * 0.35
    ) {
      band.push(run);
    } else {
      bands.push([run]);
    }
  }
  const lines: Line[] = [];
  for (const band of bands) {
    band.sort((a, b) => a.box.left - b.box.left);
    let current: TextRun[] = [];
    const flush = () => {
      const text = joinRuns(current);
      const box = unionBoxes(current.map((r) => r.box));
      if (text !== '' && box) {
        const size = Math.max(...current.map((r) => r.size));
        lines.push({ text, box, size, bold: current.every((r) => r.bold || r.text.trim() === '') });
      }
      current = [];
    };
    for (const run of band) {
      const last = current[current.length - 1];
      if (last && run.box.left - last.box.right > Math.max(last.size, run.size) * 2.5) flush();
      current.push(run);
    }
    flush();
  }
  return lines;
}

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
    const [x, y] = center(run.box);
    cells[locate(table.rows, y)]?.[locate(table.columns, x)]?.push(run);
    used.add(run);
  }
  // Most cells hold one run or none: their text needs no line building.
  const grid = cells.map((row) =>
    row.map((cell) =>
      cell.length === 0
        ? ''
        : cell.length === 1
          ? (cell[0] as TextRun).text.replace(/\s+/g, ' ').trim()
          : buildLines(cell)
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

/** Recursive XY-cut: columns first (a vertical gap through the region), then bands. */
function xyCut(elements: Element[], depth = 0): Element[] {
  if (elements.length <= 1 || depth > 40) return elements;
  const byX = [...elements].sort((a, b) => a.box.left - b.box.left);
  let reach = byX[0]?.box.right ?? 0;
  for (let i = 1; i < byX.length; i++) {
    const element = byX[i];
    if (!element) continue;
    if (element.box.left - reach > 12) {
      const left = byX.slice(0, i);
      const right = byX.slice(i);
      // A real column split leaves several lines on each side.
      if (left.length >= 2 && right.length >= 2)
        return [...xyCut(left, depth + 1), ...xyCut(right, depth + 1)];
    }
    reach = Math.max(reach, element.box.right);
  }
  const byY = [...elements].sort((a, b) => a.box.top - b.box.top || a.box.left - b.box.left);
  const bands: Element[][] = [];
  let bottom = Number.NEGATIVE_INFINITY;
  for (const element of byY) {
    const band = bands[bands.length - 1];
    if (band && element.box.top < bottom - 1) band.push(element);
    else bands.push([element]);
    bottom = Math.max(bottom, element.box.bottom);
  }
  if (bands.length === 1) {
    return byY;
  }
  return bands.flatMap((band) => (band.length > 1 ? xyCut(band, depth + 1) : band));
}

const LIST_MARK = /^([•▪◦‣●○■□\-–*]|\(?\d{1,3}[.)]|[a-z][.)])\s+/;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** The body text size: the size carrying the most characters. */
export function bodySize(sizes: readonly { size: number; chars: number }[]): number {
  let best = 0;
  let bestSize = 10;
  for (const { size, chars } of sizes) {
    if (chars > best) {
      best = chars;
      bestSize = size;
    }
  }
  return bestSize;
}

/** A paragraph that may read as a heading, once every page's text sizes are known. */
export interface HeadingCandidate {
  /** Where the paragraph's block is among the page's blocks. */
  readonly index: number;
  /** The median text size of its lines. */
  readonly size: number;
  /** A lone short bold line: a sub-heading below the size-based levels, even at body size. */
  readonly bold: boolean;
}

/**
 * Lays out a page: ruled tables first (their runs leave the flow), then lines, reading order by
 * XY-cut, paragraphs from line spacing, list items from their marks. Heading levels need the
 * text sizes of the whole document: each paragraph is returned as a candidate, for
 * {@link withHeadings} once every page is laid out (pages are laid out by the thread that read
 * them).
 */
export function layoutPage(
  runs: readonly TextRun[],
  tables: readonly RuledTable[],
  extra: readonly DraftBlock[] = [],
): {
  blocks: DraftBlock[];
  headings: HeadingCandidate[];
  lines: { text: string; box: BoundingBox }[];
} {
  let remaining = runs.filter((run) => run.text.trim() !== '');
  const elements: Element[] = [];
  for (const table of tables) {
    const { block, used } = fillTable(table, remaining);
    // A grid with no text is decoration (a form's boxes, a drawn frame), not a table.
    if (used.size === 0) continue;
    remaining = remaining.filter((run) => !used.has(run));
    elements.push({ kind: 'block', block, box: table.box });
  }
  for (const block of extra) {
    if (block.boundingBox) elements.push({ kind: 'block', block, box: block.boundingBox });
  }
  const lines = buildLines(remaining);
  for (const line of lines) elements.push({ kind: 'line', line, box: line.box });
  const ordered = xyCut(elements);

  const blocks: DraftBlock[] = [];
  const headings: HeadingCandidate[] = [];
  let paragraph: Line[] = [];
  const flush = () => {
    if (paragraph.length === 0) return;
    const text = paragraph
      .map((l) => l.text)
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    const box = unionBoxes(paragraph.map((l) => l.box));
    const size = median(paragraph.map((l) => l.size));
    // A lone short bold line at body size reads as a sub-heading (below the size-based levels).
    const boldHeading =
      paragraph.length === 1 &&
      paragraph[0]?.bold === true &&
      text.length <= 80 &&
      !/[.:;,]$/.test(text) &&
      !LIST_MARK.test(text);
    let markdown = text;
    if (LIST_MARK.test(text)) {
      const ordered = /^\(?\d/.test(text);
      markdown = `${ordered ? '1.' : '-'} ${text.replace(LIST_MARK, '')}`;
    }
    headings.push({ index: blocks.length, size, bold: boldHeading });
    blocks.push({
      type: 'text',
      content: text,
      markdown,
      details: { type: 'text_details' },
      ...(box ? { boundingBox: box } : {}),
    });
    paragraph = [];
  };
  for (const element of ordered) {
    if (element.kind === 'block') {
      flush();
      blocks.push(element.block);
      continue;
    }
    const line = element.line;
    const last = paragraph[paragraph.length - 1];
    if (last) {
      const gap = line.box.top - last.box.bottom;
      const sameStyle = Math.abs(line.size - last.size) < 0.6 && line.bold === last.bold;
      const aligned = Math.abs(line.box.left - (paragraph[0]?.box.left ?? 0)) < last.size * 3;
      const continues =
        gap >= -1 && gap < last.size * 0.6 && sameStyle && aligned && !LIST_MARK.test(line.text);
      if (!continues) flush();
    }
    paragraph.push(line);
  }
  flush();
  return {
    blocks,
    headings,
    lines: [
      ...lines.map((l) => ({ text: l.text, box: l.box })),
      ...blocks
        .filter((b) => b.type === 'table')
        .flatMap((b) =>
          (b.children ?? [])
            .filter((c) => c.content !== '' && c.boundingBox)
            .map((c) => ({ text: c.content, box: c.boundingBox as BoundingBox })),
        ),
    ],
  };
}

/**
 * A page's blocks with its heading candidates made headings where the document's sizes say so:
 * a level from the text size, or, for a lone short bold line, the level below the size-based ones;
 * a heading reads as a markdown heading (list marks are not kept on it).
 */
export function withHeadings(
  blocks: readonly DraftBlock[],
  headings: readonly HeadingCandidate[],
  headingSizes: readonly number[],
  body: number,
): DraftBlock[] {
  const out = [...blocks];
  for (const { index, size, bold } of headings) {
    const level =
      headingLevel(size, headingSizes, body) ??
      (bold ? Math.min(6, headingSizes.length + 1) : undefined);
    const block = out[index];
    if (level === undefined || !block) continue;
    out[index] = {
      ...block,
      markdown: `${'#'.repeat(level)} ${block.content}`,
      headingLevel: level,
    };
  }
  return out;
}

/** Sizes clearly above body text, largest first: they become heading levels 1, 2, 3, … */
export function headingSizesOf(
  sizes: readonly { size: number; chars: number }[],
  body: number,
): number[] {
  const distinct = new Set<number>();
  for (const { size } of sizes) {
    const rounded = Math.round(size * 2) / 2;
    if (rounded >= body * 1.15) distinct.add(rounded);
  }
  return [...distinct].sort((a, b) => b - a).slice(0, 6);
}

function headingLevel(
  size: number,
  headingSizes: readonly number[],
  body: number,
): number | undefined {
  if (size < body * 1.15) return undefined;
  const rounded = Math.round(size * 2) / 2;
  const index = headingSizes.findIndex((s) => rounded >= s - 0.25);
  return index < 0 ? headingSizes.length || 1 : index + 1;
}
