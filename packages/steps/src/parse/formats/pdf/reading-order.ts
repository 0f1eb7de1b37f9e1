import type { BoundingBox } from '../../parse-output.ts';

/** Something placed on a page. */
export interface Placed {
  readonly box: BoundingBox;
  /** The text size of a text line; blocks (tables, figures) have none and measure nothing. */
  readonly size: number | undefined;
  /** A text line's text and baseline. */
  readonly line: { readonly text: string; readonly baseline: number } | undefined;
}

/** Where the text of one size starts and ends in a column. */
export interface ColumnExtent {
  readonly left: number;
  readonly right: number;
}

/** An element in reading order with the extent of the text of its size in its column. */
export interface Ordered<T extends Placed> {
  readonly element: T;
  /**
   * The leftmost start and rightmost end of the text of the element's size in the column it was
   * found in: where a full line of it starts and ends (a larger title or a wider table does not
   * move them).
   */
  readonly column: ColumnExtent;
}

/** A vertical gap wider than this (points) through a region separates columns. */
const COLUMN_GAP = 12;

/** The extent of the region's text per text size (half points). */
type ColumnMeasure = Map<number, ColumnExtent>;

function measure(elements: readonly Placed[]): ColumnMeasure {
  const extents: ColumnMeasure = new Map();
  for (const { size, box } of elements) {
    if (size === undefined) continue;
    const key = Math.round(size * 2) / 2;
    const extent = extents.get(key);
    extents.set(key, {
      left: Math.min(extent?.left ?? box.left, box.left),
      right: Math.max(extent?.right ?? box.right, box.right),
    });
  }
  return extents;
}

/**
 * The extent of the text of an element's size in its column: text down to 10% smaller (at least
 * 0.5 pt) and up to 15% larger counts (a listing set smaller than the body it sits in is as wide
 * as the body; a title is not).
 */
function extentOf(column: ColumnMeasure, element: Placed): ColumnExtent {
  const { size, box } = element;
  let left = box.left;
  let right = box.right;
  if (size === undefined) return { left, right };
  const below = Math.max(0.5, size * 0.1);
  for (const [key, extent] of column) {
    if (key < size - below || key > size * 1.15 + 0.25) continue;
    left = Math.min(left, extent.left);
    right = Math.max(right, extent.right);
  }
  return { left, right };
}

/**
 * Reading order by recursive XY-cut: columns first (a vertical gap through the region that
 * leaves several elements on each side, unless the two sides pair up as rows: labels and
 * values, a table without rules), then bands (horizontal gaps), left to right within a band. Each element comes with the right edge of the text of the column it ended up in.
 */
export function readingOrder<T extends Placed>(elements: readonly T[]): Ordered<T>[] {
  const out: Ordered<T>[] = [];
  cut(elements, 0, measure(elements), out);
  return out;
}

function cut<T extends Placed>(
  elements: readonly T[],
  depth: number,
  column: ColumnMeasure,
  out: Ordered<T>[],
): void {
  const emit = (element: T) => out.push({ element, column: extentOf(column, element) });
  if (elements.length <= 1 || depth > 40) {
    for (const element of elements) emit(element);
    return;
  }
  const byX = [...elements].sort((a, b) => a.box.left - b.box.left);
  let reach = byX[0]?.box.right ?? 0;
  for (let i = 1; i < byX.length; i++) {
    const element = byX[i];
    if (!element) continue;
    if (element.box.left - reach > COLUMN_GAP) {
      const left = byX.slice(0, i);
      const right = byX.slice(i);
      // A real column split leaves several lines on each side, and is not a table's rows.
      if (left.length >= 2 && right.length >= 2 && !rowsAcross(left, right)) {
        cut(left, depth + 1, measure(left), out);
        cut(right, depth + 1, measure(right), out);
        return;
      }
    }
    reach = Math.max(reach, element.box.right);
  }
  const byY = [...elements].sort((a, b) => a.box.top - b.box.top || a.box.left - b.box.left);
  const bands: T[][] = [];
  let bottom = Number.NEGATIVE_INFINITY;
  for (const element of byY) {
    const band = bands[bands.length - 1];
    if (band && element.box.top < bottom - 1) band.push(element);
    else bands.push([element]);
    bottom = Math.max(bottom, element.box.bottom);
  }
  if (bands.length === 1) {
    // One row (a label and its value, the cells of a row): left to right, whatever their sizes.
    const row = oneRow(byY) ? byX : byY;
    for (const element of row) emit(element);
    return;
  }
  for (const band of bands) cut(band, depth + 1, column, out);
}

/** Every element overlaps every other vertically by more than half the lower one's height. */
function oneRow(elements: readonly Placed[]): boolean {
  for (let i = 0; i < elements.length; i++) {
    const a = elements[i]?.box;
    if (!a) continue;
    for (let j = i + 1; j < elements.length; j++) {
      const b = elements[j]?.box;
      if (!b) continue;
      const overlap = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (overlap < Math.min(a.bottom - a.top, b.bottom - b.top) / 2) return false;
    }
  }
  return true;
}

/**
 * How far (in text sizes) from a row's baseline the lines of a cell wrapped in two sit: a row
 * two lines high centres its one-line cells between them, about 0.7 text sizes from each.
 */
export const WRAP_REACH = 0.8;

/**
 * An amount (`CHF 39.40`, `CA$ 5`, `$5`, a statement's `1,250.00 CR` or `80.00 DR`), a number, a
 * date or a percentage: what a value column holds.
 */
export const VALUE =
  /^[-+(]?(?:[A-Z]{3}\s?|[A-Z]{1,2}(?=\p{Sc}))?[\p{Sc}]?\s?[\d][\d.,:/\s'-]*[%)]?\s?(?:[\p{Sc}]|[A-Z]{3}|CR|DR|Cr|Dr)?$/u;

/** A line of text where it sits: its box, baseline and text size. */
export interface LineAt {
  readonly box: BoundingBox;
  readonly baseline: number;
  readonly size: number;
}

/**
 * True when `upper` and `lower`, one under the other and overlapping horizontally, are the two
 * lines of a cell wrapped in two beside a row on `row`'s baseline (`12 December` over `2024`,
 * `CA$` over `10,393.89`): no further apart than {@link WRAP_REACH} each way, the row centred
 * between them within a tenth of a text size (the largest of the three). Being centred is what
 * tells a wrapped cell from an address line that merely sits near a label and its value.
 */
export function wrappedBeside(upper: LineAt, lower: LineAt, row: LineAt): boolean {
  const size = Math.max(row.size, upper.size, lower.size);
  return (
    upper.baseline < row.baseline &&
    lower.baseline > row.baseline &&
    lower.baseline - upper.baseline <= size * 2 * WRAP_REACH &&
    Math.abs(row.baseline - (upper.baseline + lower.baseline) / 2) <= size * 0.1 &&
    upper.box.left < lower.box.right &&
    lower.box.left < upper.box.right
  );
}

/** A placed text line as a {@link LineAt}; undefined for a block without text. */
function lineAt(element: Placed): LineAt | undefined {
  const { line, size, box } = element;
  return line && size !== undefined ? { box, baseline: line.baseline, size } : undefined;
}

/**
 * True when two sides of a gap are one table row two lines high: `wrapped` a cell wrapped onto
 * two lines, every line of `others` one of the row's one-line cells ({@link wrappedBeside}) in
 * the same text size (within 5%). Across a gap nothing else says the lines are cells of one row:
 * an address in a smaller size beside a label and its value is not.
 */
function oneRowHigh(wrapped: readonly Placed[], others: readonly Placed[]): boolean {
  if (wrapped.length !== 2 || others.length === 0) return false;
  const [a, b] = wrapped.map(lineAt);
  if (!a || !b) return false;
  const [upper, lower] = a.baseline <= b.baseline ? [a, b] : [b, a];
  return others.every((other) => {
    const row = lineAt(other);
    return (
      row !== undefined &&
      Math.abs(row.size - upper.size) <= upper.size * 0.05 &&
      wrappedBeside(upper, lower, row)
    );
  });
}

/**
 * True when the two sides of a vertical gap are the columns of rows rather than text columns:
 * most elements of the right side sit on the baseline of an element of the left side (the lines
 * of a cell wrapped in two, and what lies above or below the whole left side, count neither
 * way), and the
 * left side reads as labels (ending with a colon), or the right side as values (numbers,
 * amounts, dates) or aligned on the right only (a value column). Side-by-side text columns and
 * blocks (two addresses) pair up too, but their lines read as neither.
 */
function rowsAcross(left: readonly Placed[], right: readonly Placed[]): boolean {
  const lefts = left.filter((e) => e.line);
  const rights = right.filter((e) => e.line);
  if (oneRowHigh(lefts, rights) || oneRowHigh(rights, lefts)) return true;
  const paired: [Placed, Placed][] = [];
  let unpairable = 0;
  let top = Number.POSITIVE_INFINITY;
  let bottom = Number.NEGATIVE_INFINITY;
  for (const e of lefts) {
    top = Math.min(top, e.box.top);
    bottom = Math.max(bottom, e.box.bottom);
  }
  for (const r of rights) {
    const rLine = r.line;
    const size = r.size;
    if (!rLine || size === undefined) continue;
    // Above or below everything on the left (a page footer): a band of its own, paired or not.
    if (r.box.top > bottom || r.box.bottom < top) {
      unpairable++;
      continue;
    }
    const distance = (e: Placed) => Math.abs((e.line?.baseline ?? 0) - rLine.baseline);
    const l = lefts.find((e) => e.line && distance(e) <= size * 0.35);
    if (l) paired.push([l, r]);
    // A line of a cell wrapped in two (`CA$` over `10,393.89`) sits off its row's baseline.
    else if (lefts.some((e) => e.line && distance(e) <= size * WRAP_REACH)) unpairable++;
  }
  if (paired.length < 2 || paired.length < (rights.length - unpairable) * 0.8) return false;
  const labels = paired.filter(([l]) => l.line?.text.endsWith(':')).length;
  const values = paired.filter(([, r]) => VALUE.test(r.line?.text ?? '')).length;
  if (labels >= paired.length / 2 || values >= paired.length / 2) return true;
  const spread = (values: readonly number[]) => Math.max(...values) - Math.min(...values);
  const rightEdges = spread(paired.map(([, r]) => r.box.right));
  const leftEdges = spread(paired.map(([, r]) => r.box.left));
  return rightEdges <= 2 && leftEdges > 2;
}
