/**
 * Rebuilds text lines from block geometry. Layout-aware PDF parsers emit one block per
 * paragraph (its lines joined by spaces) and one block per table cell; label/value and table
 * detection need lines. Here a paragraph block taller than one line is cut back into as many
 * lines as its height holds, at the word breaks that best fit the block's width and look like
 * line starts ("Label:", a capitalised word, a number); then blocks that share a baseline band
 * are merged into one line whose cells keep their own polygons.
 */
import type { Point } from '../../parse/parse-output.ts';

/** A piece of a line with its own polygon (a table cell or a text run). */
export interface LineSegment {
  readonly start: number;
  readonly end: number;
  readonly polygon: readonly Point[];
}

/** A line as the view builder holds it. */
export interface RelineInput {
  readonly text: string;
  readonly polygon: readonly Point[];
  readonly ocrConfidence: number | null;
  readonly segments?: readonly LineSegment[];
}

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

function box(polygon: readonly Point[]): Box | null {
  if (polygon.length === 0) return null;
  const xs = polygon.map((p) => p.x);
  const ys = polygon.map((p) => p.y);
  return {
    left: Math.min(...xs),
    top: Math.min(...ys),
    right: Math.max(...xs),
    bottom: Math.max(...ys),
  };
}

function rect(b: Box): Point[] {
  return [
    { x: b.left, y: b.top },
    { x: b.right, y: b.top },
    { x: b.right, y: b.bottom },
    { x: b.left, y: b.bottom },
  ];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

const LABEL_START = /^[A-Z][A-Za-z.#/&'-]*((?:\s+[A-Za-z#][A-Za-z.#/&'-]*){0,3}):/;

/** How much a line break before word `j` looks like a real one. */
function breakBonus(words: readonly string[], j: number): number {
  const prev = words[j - 1] ?? '';
  const next = words[j] ?? '';
  let bonus = 0;
  const label = LABEL_START.exec(words.slice(j, j + 5).join(' '));
  // Short labels are likelier: "Rahman Account no.:" is a value's end and a label.
  if (label)
    bonus +=
      3 -
      0.5 *
        (label[1] ?? '')
          .trim()
          .split(/\s+/)
          .filter((w) => w !== '').length;
  if (prev.endsWith(':')) bonus += 2;
  // Not inside a label: "Billed | To:" splits the label "Billed To:".
  if (next.endsWith(':') && /^\p{Lu}\p{Ll}*$/u.test(prev)) bonus -= 2.5;
  if (/^\d/.test(next)) bonus += 1;
  if (/^[A-Z]/.test(next)) bonus += 0.5;
  // A complimentary close ends its line; other commas rarely do ("Springfield, IL").
  if (/^(sincerely|regards|faithfully|truly|respectfully),$/i.test(prev)) bonus += 2;
  else if (prev.endsWith(',')) bonus -= 1;
  return bonus;
}

/**
 * Cuts `text` into `k` lines of at most about `capacity` characters, choosing the breaks with
 * the best {@link breakBonus}; null when no such cut exists.
 */
export function wrapInto(text: string, k: number, capacity: number): string[] | null {
  const words = text.split(/\s+/).filter((w) => w !== '');
  const n = words.length;
  if (k <= 1 || n < k) return null;
  const limit = Math.ceil(capacity * 1.15) + 1;
  const lengths = (i: number, j: number) => words.slice(i, j).join(' ').length;
  // best[m][j]: best score for cutting words[0..j) into m lines.
  const best: number[][] = Array.from({ length: k + 1 }, () =>
    Array<number>(n + 1).fill(Number.NEGATIVE_INFINITY),
  );
  const from: number[][] = Array.from({ length: k + 1 }, () => Array<number>(n + 1).fill(-1));
  (best[0] as number[])[0] = 0;
  for (let m = 1; m <= k; m++) {
    for (let j = 1; j <= n; j++) {
      for (let i = m - 1; i < j; i++) {
        const prev = best[m - 1]?.[i] ?? Number.NEGATIVE_INFINITY;
        if (prev === Number.NEGATIVE_INFINITY || lengths(i, j) > limit) continue;
        // A line longer than the block is wide is unlikely (exact for monospaced text).
        const over = Math.max(0, lengths(i, j) - capacity) / capacity;
        const score = prev + (i > 0 ? breakBonus(words, i) : 0) - 20 * over;
        if (score > (best[m]?.[j] ?? Number.NEGATIVE_INFINITY)) {
          (best[m] as number[])[j] = score;
          (from[m] as number[])[j] = i;
        }
      }
    }
  }
  if ((best[k]?.[n] ?? Number.NEGATIVE_INFINITY) === Number.NEGATIVE_INFINITY) return null;
  const lines: string[] = [];
  let j = n;
  for (let m = k; m > 0; m--) {
    const i = from[m]?.[j] ?? 0;
    lines.unshift(words.slice(i, j).join(' '));
    j = i;
  }
  return lines;
}

/**
 * Relines one page. Lines without geometry are returned unchanged (in place), so formats
 * without coordinates keep their order.
 */
export function relinePage<T extends RelineInput>(
  lines: readonly T[],
  make: (base: T, text: string, polygon: readonly Point[], segments?: readonly LineSegment[]) => T,
): T[] {
  const boxes = lines.map((l) => box(l.polygon));
  if (boxes.filter((b) => b !== null).length < Math.max(2, lines.length * 0.8)) return [...lines];
  // The height of one line: the most common block height (paragraphs are rarer than lines).
  const buckets = new Map<number, number[]>();
  for (const b of boxes) {
    if (!b || b.bottom - b.top <= 1) continue;
    const key = Math.round((b.bottom - b.top) * 2) / 2;
    buckets.set(key, [...(buckets.get(key) ?? []), b.bottom - b.top]);
  }
  let h = 0;
  let seen = 0;
  for (const [key, list] of buckets) {
    if (list.length > seen || (list.length === seen && key < h)) {
      h = list.reduce((a, x) => a + x, 0) / list.length;
      seen = list.length;
    }
  }
  if (h <= 0) return [...lines];
  const singles = lines.filter((_, i) => {
    const b = boxes[i];
    return b && b.bottom - b.top < 1.5 * h && lines[i]?.text.length;
  });
  const charWidth = median(
    singles.flatMap((l) => {
      const b = box(l.polygon);
      return b && l.text.length > 3 ? [(b.right - b.left) / l.text.length] : [];
    }),
  );
  // 1. Cut paragraph blocks back into lines.
  const pieces: { line: T; box: Box }[] = [];
  lines.forEach((line, i) => {
    const b = boxes[i];
    if (!b) return;
    const height = b.bottom - b.top;
    const k = 1 + Math.round((height - h) / (h * 1.3));
    // Text that fits the block's width at body size is one line set large (a letterhead, a
    // title), not a paragraph: only text too long for one line is cut.
    const fits = line.text.length * charWidth <= (b.right - b.left) * 1.1;
    // A row of cells (a table's) is as high as its tallest cell, one wrapped onto two lines
    // beside one-line cells: it is one row, not a paragraph.
    if (k > 1 && charWidth > 0 && !fits && !line.segments) {
      const capacity = (b.right - b.left) / charWidth;
      // The line pitch is estimated, so a count one off is tried too.
      const wrapped =
        wrapInto(line.text, k, capacity) ??
        wrapInto(line.text, k - 1, capacity) ??
        wrapInto(line.text, k + 1, capacity);
      if (wrapped) {
        const band = height / wrapped.length;
        wrapped.forEach((text, n) => {
          const part: Box = {
            left: b.left,
            right: b.left + Math.min(b.right - b.left, text.length * charWidth),
            top: b.top + n * band,
            bottom: b.top + (n + 1) * band,
          };
          pieces.push({ line: make(line, text, rect(part)), box: part });
        });
        return;
      }
    }
    pieces.push({ line, box: b });
  });
  // 2. Merge pieces that share a band into rows, left to right. A row's band is the union of
  // its pieces' boxes: in a scan turned by a fraction of a degree, the cells of one row sit a
  // few points lower from one column to the next, so a cell far from the row's first (highest)
  // one can have its middle below that one's box, though not below its neighbour's.
  pieces.sort((a, b) => a.box.top - b.box.top || a.box.left - b.box.left);
  const rows: { items: { line: T; box: Box }[]; top: number; bottom: number }[] = [];
  for (const piece of pieces) {
    const center = (piece.box.top + piece.box.bottom) / 2;
    const row = rows.find(
      (r) =>
        center > r.top &&
        center < r.bottom &&
        r.items.every(
          (it) => it.box.right <= piece.box.left + 1 || it.box.left >= piece.box.right - 1,
        ),
    );
    if (row) {
      row.items.push(piece);
      row.top = Math.min(row.top, piece.box.top);
      row.bottom = Math.max(row.bottom, piece.box.bottom);
    } else rows.push({ items: [piece], top: piece.box.top, bottom: piece.box.bottom });
  }
  rows.sort((a, b) => a.top - b.top);
  return rows.map((row) => {
    const items = row.items.sort((a, b) => a.box.left - b.box.left);
    const first = items[0];
    if (!first) throw new Error('empty row');
    if (items.length === 1) return first.line;
    let text = '';
    const segments: LineSegment[] = [];
    items.forEach((item, n) => {
      if (n > 0) {
        const gap = item.box.left - (items[n - 1]?.box.right ?? 0);
        // A gap wider than two characters separates cells; a narrow one is a word space.
        text += charWidth > 0 && gap < 2 * charWidth ? ' ' : '    ';
      }
      // A piece that already has cells (a table row) keeps them.
      const offset = text.length;
      if (item.line.segments)
        for (const s of item.line.segments)
          segments.push({ start: offset + s.start, end: offset + s.end, polygon: s.polygon });
      else
        segments.push({
          start: offset,
          end: offset + item.line.text.length,
          polygon: item.line.polygon,
        });
      text += item.line.text;
    });
    const union: Box = {
      left: Math.min(...items.map((i) => i.box.left)),
      top: Math.min(...items.map((i) => i.box.top)),
      right: Math.max(...items.map((i) => i.box.right)),
      bottom: Math.max(...items.map((i) => i.box.bottom)),
    };
    return make(first.line, text, rect(union), segments);
  });
}
