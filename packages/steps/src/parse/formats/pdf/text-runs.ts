import type { BoundingBox } from '../../parse-output.ts';
import { apply, type Matrix, multiply, type UprightFrame, uprightFrame } from './geometry.ts';

/** A pdf.js text item, the fields we read. */
export interface PdfTextItem {
  readonly str: string;
  readonly width: number;
  readonly height: number;
  readonly transform: readonly number[];
  readonly fontName: string;
  readonly hasEOL?: boolean;
}

/** A text run in the upright frame (points, top-left origin). */
export interface TextRun {
  readonly text: string;
  readonly box: BoundingBox;
  readonly baseline: number;
  readonly size: number;
  readonly bold: boolean;
  /** Set in a fixed-pitch font (a code listing). */
  readonly mono?: boolean;
  /** Degrees of the run relative to the upright frame (0 for normal text). */
  readonly angle: number;
}

interface ViewportRun {
  item: PdfTextItem;
  m: Matrix;
  angle: number;
  size: number;
}

function quantizeAngle(radians: number): number {
  const degrees = (radians * 180) / Math.PI;
  return (((Math.round(degrees / 90) * 90) % 360) + 360) % 360;
}

/**
 * Places pdf.js text items in the upright frame: the viewport (which applies `/Rotate`) turned
 * further so that the dominant text direction reads left to right.
 */
export function placeTextRuns(
  items: readonly PdfTextItem[],
  viewportTransform: Matrix,
  viewportWidth: number,
  viewportHeight: number,
  fonts: { readonly bold: ReadonlySet<string>; readonly mono: ReadonlySet<string> },
  detectRotation: boolean,
): { runs: TextRun[]; frame: UprightFrame } {
  const placed: ViewportRun[] = [];
  const weight = new Map<number, number>();
  for (const item of items) {
    if (item.str === '' || item.transform.length < 6) continue;
    const t = item.transform as unknown as Matrix;
    const m = multiply(viewportTransform, t);
    // Text set upright (almost all of it) needs neither atan2 nor hypot: their results for it
    // are exact (0 degrees, the absolute value).
    const angle = m[1] === 0 && m[0] > 0 ? 0 : quantizeAngle(Math.atan2(m[1], m[0]));
    const size = (m[2] === 0 ? Math.abs(m[3]) : Math.hypot(m[2], m[3])) || item.height || 1;
    placed.push({ item, m, angle, size });
    const visible = item.str.trim().length;
    weight.set(angle, (weight.get(angle) ?? 0) + visible);
  }
  let dominant = 0;
  if (detectRotation) {
    let best = -1;
    for (const [angle, count] of weight) {
      if (count > best) {
        best = count;
        dominant = angle;
      }
    }
  }
  const frame = uprightFrame(dominant, viewportWidth, viewportHeight);
  const runs: TextRun[] = [];
  // Per run: no closure and no corner list (this loop sees every text item of every page).
  for (const { item, m, angle, size } of placed) {
    const length = m[1] === 0 ? Math.abs(m[0]) : Math.hypot(m[0], m[1]);
    const dx = length === 0 ? 1 : m[0] / length;
    const dy = length === 0 ? 0 : m[1] / length;
    // The normal (-dy, dx) points down the glyphs (y grows downwards in the viewport).
    const nx = -dy;
    const ny = dx;
    const ox = m[4];
    const oy = m[5];
    const width = item.width;
    const ascent = -(size * 0.8);
    const descent = size * 0.22;
    let left = Number.POSITIVE_INFINITY;
    let top = Number.POSITIVE_INFINITY;
    let right = Number.NEGATIVE_INFINITY;
    let bottom = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < 4; k++) {
      const t = k === 1 || k === 2 ? width : 0;
      const s = k < 2 ? ascent : descent;
      const vx = ox + dx * t + nx * s;
      const vy = oy + dy * t + ny * s;
      const x = frame.mapX(vx, vy);
      const y = frame.mapY(vx, vy);
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
    const box = { left, top, right, bottom };
    const relative = (angle - dominant + 360) % 360;
    runs.push({
      text: item.str,
      box,
      baseline: relative === 0 ? frame.mapY(ox, oy) : (box.top + box.bottom) / 2,
      size,
      bold: fonts.bold.has(item.fontName),
      mono: fonts.mono.has(item.fontName),
      angle: relative,
    });
  }
  return { runs, frame };
}

/** Convenience for a point through a viewport transform and a frame. */
export function toUpright(
  frame: UprightFrame,
  viewportTransform: Matrix,
  x: number,
  y: number,
): [number, number] {
  const [vx, vy] = apply(viewportTransform, x, y);
  return frame.map(vx, vy);
}
