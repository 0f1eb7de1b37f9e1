import { unionBoxes } from '../../boxes.ts';
import type { BoundingBox } from '../../parse-output.ts';
import type { TextRun } from './text-runs.ts';

/** A piece of a text line in the upright frame: runs on one baseline without a wide gap. */
export interface LinePiece {
  readonly text: string;
  readonly box: BoundingBox;
  readonly baseline: number;
  /** The largest text size of its runs. */
  readonly size: number;
  /** Every run of it is bold. */
  readonly bold: boolean;
  /** Every run of it is set in a fixed-pitch font. */
  readonly mono?: boolean;
  /**
   * The runs it was built from, left to right (pieces of text PDFs): where a piece that holds
   * two table cells set closer than a column gap can be cut (row-tables.ts).
   */
  readonly runs?: readonly TextRun[];
}

/**
 * Characters a text layer must never carry: C0 controls but tab, line feed and carriage return,
 * and DEL. pdf.js emits a font's raw code where no Unicode is known for it (NUL, 0x08, 0x1c in
 * TeX symbol fonts); they are dropped, as pdftotext drops them.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is its purpose.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Run text without control characters, whitespace (tabs, line breaks) as single spaces. */
export function cleanText(text: string): string {
  // Most text has neither: no copy of it then (this sees every piece of every page).
  if (plain(text)) return text;
  const controls = CONTROL_TEST.test(text) ? text.replace(CONTROL, '') : text;
  return SPACING.test(controls) ? controls.replace(/\s+/g, ' ') : controls;
}

/**
 * True when text has no character {@link cleanText} changes: no control character, no
 * whitespace but single spaces. One pass over the characters, cheaper than the two regular
 * expressions; any character that may be whitespace other than a space (a superset of `\s`)
 * leaves the decision to them.
 */
function plain(text: string): boolean {
  let space = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20) {
      if (space) return false;
      space = true;
      continue;
    }
    space = false;
    if (c < 0x20 || c === 0x7f) return false;
    if (c >= 0x80 && mayBeSpace(c)) return false;
  }
  return true;
}

/** Non-ASCII characters `\s` matches (and U+0085, U+180E, which it does not). */
function mayBeSpace(c: number): boolean {
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    c === 0x180e ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is its purpose.
const CONTROL_TEST = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Whitespace other than single spaces. */
const SPACING = /[^\S ]|\s\s/;

/**
 * A gap between two text items wider than this share of the smaller one's size is a space (as
 * pdftotext reads it: a subscript followed by a parenthesis is `x_B )`).
 */
const WORD_GAP = 0.1;

/** An overlap wider than this share of the smaller size is not kerning. */
const OVERLAP = 0.3;

function joinRuns(runs: readonly TextRun[]): string {
  let out = '';
  let previous: TextRun | undefined;
  for (const run of runs) {
    if (previous) {
      const gap = run.box.left - previous.box.right;
      // Back from script size to the line's size (`a_i1 x`, `(x_B )`, a footnote mark before
      // its text) a word ends, as pdftotext reads it, unless the two touch.
      // Text overlapping the previous text by more than kerning does is another word: a
      // cell's text clipped by the next cell, a number's thin-space group (`23 089.82`); a
      // lone sign (a currency symbol whose width the font gets wrong) is not.
      const wordEnd =
        gap > Math.min(previous.size, run.size) * WORD_GAP ||
        (gap < -Math.min(previous.size, run.size) * OVERLAP &&
          previous.text.trim().length > 1 &&
          run.text.trim().length > 1) ||
        (run.size > previous.size / SCRIPT_RATIO && gap >= 0);
      if (wordEnd && !out.endsWith(' ') && !run.text.startsWith(' ')) out += ' ';
    }
    out += run.text;
    previous = run;
  }
  return cleanText(out).trim();
}

/**
 * A gap wider than this many text sizes splits a baseline into pieces: columns, or a label and
 * its value set apart (the pieces of one row are joined again after reading order is known).
 * Dense tables set their columns two text sizes apart (a date and its description, a figure
 * and the next); word spaces, justified ones included, stay well under one.
 */
const PIECE_GAP = 1.2;

/** Groups runs into line pieces: same baseline, left to right, split at wide gaps. */
export function buildPieces(runs: readonly TextRun[]): LinePiece[] {
  const sorted = sortedBy(runs, byBaseline);
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
  const pieces: LinePiece[] = [];
  for (const band of attachScripts(bands)) {
    if (!inOrder(band, byLeft)) band.sort(byLeft);
    let current: TextRun[] = [];
    const flush = () => {
      const piece = pieceOf(current);
      if (piece) pieces.push(piece);
      current = [];
    };
    for (const run of band) {
      const last = current[current.length - 1];
      if (
        last &&
        (run.box.left - last.box.right > Math.max(last.size, run.size) * PIECE_GAP ||
          otherBaseline(last, run))
      ) {
        flush();
      }
      current.push(run);
    }
    flush();
  }
  return pieces;
}

/**
 * Two runs side by side that sit on baselines further apart than this share of the smaller size
 * belong to two columns, however close: the text of one line shares its baseline (a script,
 * smaller, is attached to it before, see attachScripts).
 */
const BASELINE_SHIFT = 0.15;

/**
 * True when `run` starts a column of its own after `last` though no gap sets them apart: a
 * column of text set flush right against the next column ("9 Elm Avenue" ending where "Order
 * Ref" starts), which only their different baselines tell apart.
 */
function otherBaseline(last: TextRun, run: TextRun): boolean {
  const smaller = Math.min(last.size, run.size);
  return (
    smaller >= Math.max(last.size, run.size) * SCRIPT_RATIO &&
    Math.abs(run.baseline - last.baseline) > smaller * BASELINE_SHIFT
  );
}

/** The piece of runs on one baseline, left to right; undefined when they hold no text. */
export function pieceOf(runs: readonly TextRun[]): LinePiece | undefined {
  const text = joinRuns(runs);
  const box = runsBox(runs);
  // The baseline of the largest text: scripts sit off it.
  let largest = runs[0];
  for (const run of runs) if (largest && run.size > largest.size) largest = run;
  if (text === '' || !box || !largest) return undefined;
  return {
    text,
    box,
    baseline: largest.baseline,
    size: largest.size,
    bold: runs.every((r) => r.bold || r.text.trim() === ''),
    mono: runs.every((r) => r.mono === true || r.text.trim() === ''),
    runs,
  };
}

const byBaseline = (a: TextRun, b: TextRun) => a.baseline - b.baseline || a.box.left - b.box.left;
const byLeft = (a: TextRun, b: TextRun) => a.box.left - b.box.left;

/** True when `list` is already sorted by `order` (as a stable sort would leave it). */
function inOrder<T>(list: readonly T[], order: (a: T, b: T) => number): boolean {
  for (let i = 1; i < list.length; i++) {
    if (order(list[i - 1] as T, list[i] as T) > 0) return false;
  }
  return true;
}

/** A sorted copy; most pages come in reading order already, and a check costs less than a sort. */
function sortedBy<T>(list: readonly T[], order: (a: T, b: T) => number): T[] {
  return inOrder(list, order) ? [...list] : [...list].sort(order);
}

/** The box around runs' boxes (as {@link unionBoxes}, without a list of them). */
function runsBox(runs: readonly TextRun[]): BoundingBox | undefined {
  const first = runs[0];
  if (!first) return undefined;
  let { left, top, right, bottom } = first.box;
  for (let i = 1; i < runs.length; i++) {
    const box = (runs[i] as TextRun).box;
    left = Math.min(left, box.left);
    top = Math.min(top, box.top);
    right = Math.max(right, box.right);
    bottom = Math.max(bottom, box.bottom);
  }
  return { left, top, right, bottom };
}

/** Text smaller than this share of a line's size is script size (sub- and superscripts). */
const SCRIPT_RATIO = 0.85;

/** How far (in the line's text sizes) from a line's baseline its scripts sit. */
const SCRIPT_REACH = 0.6;

/**
 * Script-size runs (sub- and superscripts, primes, footnote marks) moved to the line they belong
 * to: a neighbouring band holding a larger run beside them (the script follows it or precedes
 * it), with its baseline within reach. TeX raises a superscript about 0.4 em, beyond one band's
 * tolerance. Run by run, so that a heading in another column on the same band draws nothing.
 */
function attachScripts(bands: TextRun[][]): TextRun[][] {
  // Copied on the first move: most pages have no script to move.
  let out: TextRun[][] | undefined;
  // A run larger than this share of the largest text of both neighbouring bands is no script.
  const largest = bands.map((band) => band.reduce((size, run) => Math.max(size, run.size), 0));
  for (let i = 0; i < bands.length; i++) {
    const band = bands[i] ?? [];
    const reach = Math.max(largest[i - 1] ?? 0, largest[i + 1] ?? 0) * SCRIPT_RATIO;
    for (const run of band) {
      if (run.size > reach) continue;
      let best = -1;
      let bestDistance = Number.POSITIVE_INFINITY;
      for (let j = i - 1; j <= i + 1; j += 2) {
        for (const base of bands[j] ?? []) {
          if (run.size > base.size * SCRIPT_RATIO) continue;
          const distance = Math.abs(run.baseline - base.baseline);
          if (distance > base.size * SCRIPT_REACH || distance >= bestDistance) continue;
          const follows =
            run.box.left >= base.box.left && run.box.left <= base.box.right + base.size * 0.5;
          const precedes =
            run.box.right <= base.box.right && run.box.right >= base.box.left - base.size * 0.5;
          if (!follows && !precedes) continue;
          best = j;
          bestDistance = distance;
        }
      }
      if (best < 0) continue;
      out ??= bands.map((band) => [...band]);
      out[i] = (out[i] ?? []).filter((r) => r !== run);
      out[best]?.push(run);
    }
  }
  return out ? out.filter((band) => band.length > 0) : bands;
}

/** A visual line: the pieces of one row of a region, left to right. */
export interface TextLine extends LinePiece {
  /** Its pieces (more than one: a row of separated cells, a label and its value). */
  readonly cells: readonly LinePiece[];
}

/** True when `next` continues `line`'s row: the same baseline, further right. */
export function sameRow(line: LinePiece, next: LinePiece): boolean {
  return (
    Math.abs(next.baseline - line.baseline) <= Math.max(line.size, next.size) * 0.35 &&
    next.box.left >= line.box.right - 1
  );
}

/** Joins pieces of one row (consecutive in reading order) into one line. */
export function joinRow(pieces: readonly LinePiece[]): TextLine {
  const first = pieces[0];
  if (!first) throw new Error('joinRow needs a piece');
  // A literal, not a spread: every line then has one shape (this sees every line of every page).
  if (pieces.length === 1) {
    const { text, box, baseline, size, bold, mono } = first;
    return { text, box, baseline, size, bold, mono: mono === true, cells: pieces };
  }
  return {
    text: pieces.map((p) => p.text).join(' '),
    box: unionBoxes(pieces.map((p) => p.box)) ?? first.box,
    baseline: first.baseline,
    size: Math.max(...pieces.map((p) => p.size)),
    bold: pieces.every((p) => p.bold),
    mono: pieces.every((p) => p.mono === true),
    cells: pieces,
  };
}
